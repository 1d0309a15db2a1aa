import { playerMessage } from 'itch-oauth-widget';
import Phaser from 'phaser';
import { addButton } from './button.js';
import { MEADOW } from './meadow.js';
import { say } from './status.js';

const TEXT = { fontFamily: 'system-ui, sans-serif', color: '#ffffff' };

/**
 * The title: "Log in with itch.io", then the player's name and the two levels: the meadow, free,
 * and the vault, for owners of the game on itch.io. The vault's stars are on the site: the site
 * sends them only for a game token of an owner.
 */
export class TitleScene extends Phaser.Scene {
  constructor() {
    super('title');
  }

  create() {
    this.loginButton = this.buyButton = this.levelsShown = undefined; // (this scene object is reused when it starts again)
    this.add.text(400, 90, 'Star Vault', { ...TEXT, fontSize: '56px' }).setOrigin(0.5);
    this.status = this.add.text(400, 170, '', { ...TEXT, fontSize: '22px', align: 'center', wordWrap: { width: 700 } }).setOrigin(0.5);
    const itch = (this.itch = this.plugins.get('ItchLogin'));
    // The login's outcome, for every scene that listens (the promise gives it too): { user, owns }.
    const onLogin = () => this.signedIn();
    // A failure in the player's words (error.message is the developer's, for logs).
    const onError = async (error) => say(this.status, await playerMessage(error.code));
    this.game.events.on('itch-login', onLogin);
    this.game.events.on('itch-login-error', onError);
    this.events.once('shutdown', () => {
      this.game.events.off('itch-login', onLogin);
      this.game.events.off('itch-login-error', onError);
    });

    // Signed in already (back from a level), or after a reload: the login the plugin kept.
    if (itch.session.signedIn) return this.showLevels();
    // `.catch`: the failure is shown by the itch-login-error listener.
    const logIn = () => itch.login().catch(() => undefined);
    this.loginButton = addButton(this, 'login', 'Log in with itch.io', logIn);
    this.input.keyboard?.on('keydown-ENTER', logIn); // a key press is an activation too
    say(this.status, 'Log in with itch.io to play.');
    itch.session.restore().then((kept) => kept && this.scene.isActive() && this.signedIn());
  }

  signedIn() {
    if (this.levelsShown) return;
    this.input.keyboard?.removeAllListeners('keydown-ENTER');
    this.loginButton?.destroy();
    this.showLevels();
  }

  /** Whether the player owns the game, as the login answered (the site checked it with itch.io). */
  ownsGame() {
    const { gameId } = this.registry.get('config');
    // It only decides what the game shows: the site reads the game token again before it sends
    // the vault's stars.
    return this.itch.session.owns?.[gameId] === true;
  }

  showLevels() {
    this.levelsShown = true;
    const { user } = this.itch.session; // the player, from the game token the site signed
    const owner = this.ownsGame();
    const hello = `Hello, ${user.display_name || user.username}!`;
    say(this.status, owner ? `${hello} The vault is open to you.` : `${hello} The vault is for owners of the game.`);
    addButton(this, 'meadow', 'The meadow', () => this.scene.start('level', MEADOW), { color: 0x3d9a5b });
    addButton(this, 'vault', owner ? 'The vault' : 'The vault (locked)', () => this.openVault(), { color: owner ? 0x8a5cf6 : 0x555a70 });
  }

  async openVault() {
    if (!this.ownsGame()) return this.offerToBuy();
    const { site } = this.registry.get('config');
    say(this.status, 'Opening the vault…');
    // The session adds the game token (renewed when needed) for the site's origin only.
    const answer = await this.itch.session.fetch(`${site}/api/levels/vault`).catch(() => undefined);
    if (answer?.ok) return this.scene.start('level', await answer.json());
    if (answer?.status === 403) return this.offerToBuy();
    if (answer?.status === 401) return this.scene.restart(); // the session ended: log in again
    return say(this.status, 'The vault did not open: try again.');
  }

  offerToBuy() {
    const { storeUrl } = this.registry.get('config');
    say(this.status, 'The vault is locked. Buy the game on itch.io to open it.');
    this.buyButton ??= addButton(this, 'buy', 'Buy the game on itch.io', () => window.open(storeUrl, '_blank', 'noopener'), {
      color: 0xfa5c5c,
    });
  }
}
