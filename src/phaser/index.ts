// "Log in with itch.io" for Phaser 4 games: a global plugin over login(). Phaser is the game's own
// (an optional peer dependency, external to this build): the plugin extends the game's
// Phaser.Plugins.BasePlugin, so there is one Phaser on the page.
import { Plugins } from 'phaser';
import { ItchOAuthError } from '../core/errors.js';
import type { GameSession, GameSessionOptions } from '../core/game-session.js';
import { preparePopupLogin, type LoginOptions } from '../core/login.js';
import { gameSession, login } from '../ui/login.js';
import { joinLogin, type SharedLogin } from '../core/shared-login.js';
import type { LoginAnswer } from '../core/login-answer.js';

/**
 * The plugin's `data` in the game config, and the argument of {@link ItchLoginPlugin.login}: the
 * options of `login()`, each of which may be given in either place (the call's win).
 */
export type ItchLoginPluginOptions = Partial<LoginOptions>;

/**
 * The plugin's `data` in the game config: the options every login shares, and, for a game that
 * calls its site's API, `gameSession()`'s own: with `renew` (the URL that answers with
 * `sessions.renew`), the plugin keeps the login in {@link ItchLoginPlugin.session}.
 */
export interface ItchLoginPluginData
  extends ItchLoginPluginOptions, Partial<Pick<GameSessionOptions, 'renew' | 'apiOrigins' | 'logout' | 'onSignedOut'>> {}

/**
 * What `createTokenHandler` with `createSessions().onLogin` answers a framed game's login: the
 * package's `LoginAnswer` (from `itch-oauth-widget`), under the name this plugin gave it first.
 * Your token endpoint may answer something else: give its type to {@link ItchLoginPlugin.login}.
 */
export type ItchLoginAnswer = LoginAnswer;

/**
 * A global Phaser plugin that logs the player in with itch.io.
 *
 * Installed once in the game config, with the options every login shares as its `data`. The
 * game's event emitter (`game.events`) gets `itch-login` with the token endpoint's answer after a login,
 * and `itch-login-error` with the `ItchOAuthError` (its `code`) after a failed one.
 *
 * With `renew` in its `data`, the plugin keeps the login in a `gameSession()`: `session.fetch()`
 * calls the site's API with the game token, which the game never handles (it is not in the
 * answer nor in the events), renewed before it expires; `session.restore()` finds it again after
 * a reload.
 *
 * @example
 * new Phaser.Game({
 *   plugins: { global: [{ key: 'ItchLogin', plugin: ItchLoginPlugin, start: true,
 *     data: { clientId, redirectUri, backend: 'https://your.site/auth/itch', renew: 'https://your.site/api/renew' } }] },
 * });
 * // in a scene, in an input handler (the popup needs the click):
 * const itch = this.plugins.get('ItchLogin') as ItchLoginPlugin;
 * button.on('pointerup', () => itch.login());
 * this.game.events.on('itch-login', (answer: ItchLoginAnswer) => greet(answer.user));
 * const saved = await itch.session!.fetch('https://your.site/api/progress');
 */
export class ItchLoginPlugin extends Plugins.BasePlugin {
  /** The options of every login: the plugin's `data` in the game config. */
  private defaults: ItchLoginPluginOptions = {};
  /**
   * The kept login, with `renew` in the plugin's `data` (else `undefined`): `restore()` after a
   * reload, `fetch()` for the site's API (the game token added and renewed), `user`, `owns`,
   * `signedIn`, `logout()`. The plugin's `login()` logs in through it.
   */
  session: GameSession | undefined;
  /**
   * The login under way: a second call while it is waits for the same one and opens no second
   * popup (its options are not used); each call's signal ends only its own wait.
   */
  private pending: SharedLogin<unknown> | undefined;
  /** Ends the login under way when the plugin is destroyed with its game. */
  private ending: AbortController | undefined;

  /**
   * Called once by Phaser's PluginManager with the `data` of the plugin's config entry.
   *
   * @throws ItchOAuthError `config_invalid` as `gameSession()` does, with `renew` and a `backend`
   *   or `renew` that is not an http(s) URL, or a `renew` on another origin than the backend's.
   */
  override init(data: ItchLoginPluginData = {}): void {
    const { renew, apiOrigins, logout, onSignedOut, ...defaults } = data;
    this.defaults = defaults;
    if (renew !== undefined)
      this.session = gameSession({ ...(defaults as LoginOptions), mode: 'popup', renew, apiOrigins, logout, onSignedOut });
  }

  /**
   * Makes the popup's one-time secret ahead of the first click (Web Crypto is asynchronous, and the
   * click must open the popup at once).
   */
  override start(): void {
    void preparePopupLogin();
  }

  /**
   * Logs the player in: opens the itch.io popup at once, so call it from an input handler
   * (`pointerdown`/`pointerup` on a game object, `keydown-ENTER`): Phaser runs those inside the
   * browser's event, which carries the player's activation. Resolves with the token endpoint's answer and
   * emits `itch-login` with it on `game.events`; rejects with an `ItchOAuthError` and emits
   * `itch-login-error` with it.
   *
   * @param options - added to (and overriding) the plugin's `data`. Popup mode by default, also on
   *   a page that is not framed: a redirect would leave the game. With a {@link session}, the login
   *   is the session's, with the `data`'s options: only the call's `signal` is used.
   * @returns the token endpoint's JSON answer, `{ user, owns?, gameToken }` with `createSessions`; with a
   *   {@link session}, `{ user, owns? }` (the session keeps the game token).
   */
  login<Answer = ItchLoginAnswer>(options: ItchLoginPluginOptions = {}): Promise<Answer> {
    return joinLogin((this.pending ??= this.run({ mode: 'popup', ...this.defaults, ...options })), options.signal) as Promise<Answer>;
  }

  /** Starts a login, which the game's end (or every waiting call's signal) aborts. */
  private run(options: ItchLoginPluginOptions): SharedLogin<unknown> {
    const events = this.game.events;
    const ending = (this.ending = new AbortController());
    // Only a signal aborted already ends the login at its start: later, a call's signal ends its own wait.
    if (options.signal?.aborted) ending.abort(options.signal.reason);
    const answer = this.session
      ? this.session.login({ signal: ending.signal })
      : login({ ...(options as LoginOptions), signal: ending.signal }).then(({ response }) => response);
    const outcome = answer.then(
      (response) => {
        events.emit('itch-login', response);
        return response;
      },
      (caught: unknown) => {
        const error = caught instanceof ItchOAuthError ? caught : new ItchOAuthError('config_invalid', String(caught), { cause: caught });
        events.emit('itch-login-error', error);
        throw error;
      },
    );
    const ended = () => {
      if (this.ending === ending) {
        this.ending = undefined;
        this.pending = undefined;
      }
    };
    outcome.then(ended, ended);
    return { outcome, waiting: 0, cancel: (reason) => ending.abort(reason) };
  }

  /** Called by Phaser when the game is destroyed: a login under way is abandoned (its popup closes). */
  override destroy(): void {
    this.ending?.abort();
    super.destroy();
  }
}
