import { expect, waitUntil } from '@open-wc/testing';
import * as Phaser from 'phaser';
import { ItchOAuthError } from '../../src/core/errors.js';
import { preparePopupLogin } from '../../src/core/login.js';
import { ItchLoginPlugin, type ItchLoginPluginData, type ItchLoginPluginOptions } from '../../src/phaser/index.js';

const DATA: ItchLoginPluginOptions = {
  clientId: 'abc',
  redirectUri: 'https://game.example/callback.html',
  backend: '/auth/itch',
};

/** A Phaser game with the plugin installed as the README says, once it has booted. */
async function bootGame(data: ItchLoginPluginData = DATA): Promise<Phaser.Game> {
  // (The Canvas renderer: a HEADLESS game boots its plugin manager before it reads the config's
  // global plugins, and never installs them.)
  const game = new Phaser.Game({
    type: Phaser.CANVAS,
    width: 64,
    height: 64,
    banner: false,
    audio: { noAudio: true },
    plugins: { global: [{ key: 'ItchLogin', plugin: ItchLoginPlugin, start: true, data }] },
  });
  await new Promise((resolve) => game.events.once(Phaser.Core.Events.READY, resolve));
  return game;
}

const destroyed = new WeakSet<Phaser.Game>();
async function destroy(game: Phaser.Game): Promise<void> {
  if (destroyed.has(game)) return;
  destroyed.add(game);
  const ended = new Promise((resolve) => game.events.once(Phaser.Core.Events.DESTROY, resolve));
  game.destroy(true);
  await ended;
}

/**
 * A game token as the site's `createSessions` makes one, bound to the game's DPoP key (`cnf.jkt`;
 * the session reads its claims, never checks them).
 */
function gameToken(user: object): string {
  const iat = Math.floor(Date.now() / 1000);
  const payload = btoa(JSON.stringify({ sub: '7', iat, exp: iat + 3600, user, owns: { 2001: true }, cnf: { jkt: 'phaser-test-key' } }))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
  return `eyJhbGciOiJFZERTQSJ9.${payload}.c2ln`;
}

const pluginOf = (game: Phaser.Game) => game.plugins.get('ItchLogin') as ItchLoginPlugin;

/** What the game's event emitter heard of logins. */
function listen(game: Phaser.Game) {
  const heard: { event: string; value: unknown }[] = [];
  game.events.on('itch-login', (value: unknown) => heard.push({ event: 'itch-login', value }));
  game.events.on('itch-login-error', (value: unknown) => heard.push({ event: 'itch-login-error', value }));
  return heard;
}

/**
 * Replaces window.open and fetch for one test, and gives the page a user activation, as a
 * pointerdown handler of the game has (without one, login() shows its Continue button instead of
 * opening); `restore()` puts them back.
 */
function stubWindow(answer: () => Response) {
  Object.defineProperty(navigator, 'userActivation', { value: { isActive: true }, configurable: true });
  const realOpen = window.open;
  const realFetch = window.fetch;
  const opened: string[] = [];
  const requests: Request[] = [];
  let closed = false;
  const popup = { closed: false, close: () => void (closed = true), focus() {}, location: { href: '' } } as unknown as Window;
  window.open = ((url: string) => {
    opened.push(url);
    return popup;
  }) as typeof window.open;
  window.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    requests.push(new Request(input, init));
    return answer();
  }) as typeof window.fetch;
  return {
    opened,
    requests,
    closed: () => closed,
    restore() {
      window.open = realOpen;
      window.fetch = realFetch;
      delete (navigator as { userActivation?: unknown }).userActivation;
    },
  };
}

describe('ItchLoginPlugin', () => {
  let game: Phaser.Game;
  afterEach(async () => destroy(game));

  it("is a global plugin of the game's Phaser, got by its key", async () => {
    game = await bootGame();
    expect(pluginOf(game)).to.be.instanceOf(ItchLoginPlugin);
    expect(pluginOf(game)).to.be.instanceOf(Phaser.Plugins.BasePlugin);
  });

  it("resolves with the backend's answer and emits itch-login with it, with the config's data and the call's options", async () => {
    game = await bootGame();
    await preparePopupLogin();
    const answer = { user: { id: 7, username: 'mossy' }, owns: { 2001: true }, gameToken: 'a.b.c' };
    const stub = stubWindow(() => Response.json(answer));
    try {
      const heard = listen(game);
      expect(await pluginOf(game).login({ scope: 'profile:me game:view:ownership' })).to.deep.equal(answer);
      expect(heard).to.deep.equal([{ event: 'itch-login', value: answer }]);
      const start = new URL(stub.opened[0]!);
      expect(start.origin + start.pathname, 'the popup opens on the backend of the data').to.equal(
        new URL('/auth/itch', location.href).href,
      );
      expect(start.searchParams.get('client_id')).to.equal('abc');
      expect(start.searchParams.get('scope'), 'the call wins').to.equal('profile:me game:view:ownership');
    } finally {
      stub.restore();
    }
  });

  it('keeps the login in its session with renew: the answer and the event carry no game token, session.fetch sends it', async () => {
    game = await bootGame({ ...DATA, renew: '/api/renew' });
    const user = { id: 7, username: 'mossy' };
    const token = gameToken(user);
    const stub = stubWindow(() => Response.json({ user, owns: { 2001: true }, gameToken: token }));
    try {
      const heard = listen(game);
      const { session } = pluginOf(game);
      expect(session?.signedIn).to.equal(false);
      expect(await pluginOf(game).login()).to.deep.equal({ user, owns: { 2001: true } });
      expect(heard).to.deep.equal([{ event: 'itch-login', value: { user, owns: { 2001: true } } }]);
      expect(session!.signedIn).to.equal(true);
      expect(session!.user).to.deep.equal(user);
      await session!.fetch('/api/progress');
      expect(stub.requests.at(-1)!.headers.get('Authorization')).to.equal(`DPoP ${token}`);
      expect(stub.requests.at(-1)!.headers.get('DPoP'), 'with a proof of its key').to.match(/^ey[\w-]+\.[\w-]+\.[\w-]+$/);
      await session!.fetch('https://elsewhere.example/scores');
      expect(stub.requests.at(-1)!.headers.get('Authorization'), 'another origin gets no token').to.equal(null);
      await session!.logout();
    } finally {
      stub.restore();
      sessionStorage.clear();
    }
  });

  it('has no session without renew', async () => {
    game = await bootGame();
    expect(pluginOf(game).session).to.equal(undefined);
  });

  it('gives the login under way to a second call, and opens no second popup', async () => {
    game = await bootGame();
    const stub = stubWindow(() => Response.json({ user: { id: 7 } }));
    try {
      const heard = listen(game);
      const first = pluginOf(game).login();
      const second = pluginOf(game).login();
      expect(await first).to.deep.equal({ user: { id: 7 } });
      expect(await second).to.deep.equal({ user: { id: 7 } });
      expect(stub.opened).to.have.length(1);
      expect(heard).to.have.length(1);
    } finally {
      stub.restore();
    }
  });

  it("ends only a second call's own wait when its signal aborts, and the login once no call waits", async () => {
    game = await bootGame();
    const stub = stubWindow(() => Response.json({ pending: true }, { status: 202 }));
    try {
      const cancels = [new AbortController(), new AbortController()];
      const outcomes = cancels.map((cancel) =>
        pluginOf(game)
          .login({ signal: cancel.signal })
          .catch((failure: ItchOAuthError) => failure.code),
      );
      expect(stub.opened).to.have.length(1);
      cancels[1]!.abort();
      expect(await outcomes[1]).to.equal('aborted');
      expect(stub.closed(), "the first call's login goes on").to.equal(false);
      cancels[0]!.abort();
      expect(await outcomes[0]).to.equal('aborted');
      // Closed once its start page asked, or after a second (a popup closed while its first page
      // loads may stay open).
      await waitUntil(() => stub.closed(), 'no call waits: the popup is closed', { timeout: 2500 });
    } finally {
      stub.restore();
    }
  });

  it('rejects with the ItchOAuthError and emits itch-login-error with it when the backend refuses', async () => {
    game = await bootGame();
    const stub = stubWindow(() =>
      Response.json({ errors: ['this login requires owning game 2001 on itch.io'], code: 'not_owner' }, { status: 403 }),
    );
    try {
      const heard = listen(game);
      const error = await pluginOf(game)
        .login()
        .catch((failure: unknown) => failure);
      expect(error).to.be.instanceOf(ItchOAuthError).with.property('code', 'not_owner');
      expect(heard).to.deep.equal([{ event: 'itch-login-error', value: error }]);
    } finally {
      stub.restore();
    }
  });

  it('logs in with a popup on a page that is not framed too: a redirect would leave the game', async () => {
    game = await bootGame({ ...DATA, backend: undefined });
    const error = await pluginOf(game)
      .login()
      .catch((failure: unknown) => failure);
    // In redirect mode this page would have left for itch.io; popup mode asks for the backend.
    expect(error).to.be.instanceOf(ItchOAuthError).with.property('code', 'config_invalid');
    expect((error as Error).message).to.match(/popup mode needs backend/);
  });

  it("rejects with aborted, and opens nothing, for the caller's aborted signal", async () => {
    game = await bootGame();
    const stub = stubWindow(() => Response.json({ pending: true }, { status: 202 }));
    try {
      const error = await pluginOf(game)
        .login({ signal: AbortSignal.abort() })
        .catch((failure: unknown) => failure);
      expect(error).to.be.instanceOf(ItchOAuthError).with.property('code', 'aborted');
      expect(stub.opened).to.deep.equal([]);
    } finally {
      stub.restore();
    }
  });

  it('closes the popup and rejects with aborted when the game is destroyed during the login', async () => {
    game = await bootGame();
    const stub = stubWindow(() => Response.json({ pending: true }, { status: 202 }));
    try {
      const result = pluginOf(game)
        .login()
        .catch((failure: unknown) => failure);
      expect(stub.opened).to.have.length(1);
      await destroy(game);
      expect(await result)
        .to.be.instanceOf(ItchOAuthError)
        .with.property('code', 'aborted');
      await waitUntil(() => stub.closed(), 'the popup was closed (once its start page asked, or after a second)', { timeout: 2500 });
    } finally {
      stub.restore();
    }
  });
});

// What the README tells game developers: Phaser calls input listeners inside the browser's event,
// which carries the player's activation (no input queue to run them a frame later).
describe("Phaser's input, where a login keeps the player's activation", () => {
  let game: Phaser.Game;
  afterEach(async () => destroy(game));

  it("runs a game object's pointerdown and pointerup, and keydown-ENTER, inside the DOM event", async () => {
    const heard: string[] = [];
    const ready = new Promise<Phaser.Scene>((resolve) => {
      game = new Phaser.Game({
        type: Phaser.CANVAS,
        width: 200,
        height: 100,
        banner: false,
        audio: { noAudio: true },
        scene: {
          create(this: Phaser.Scene) {
            const button = this.add.rectangle(100, 50, 80, 40, 0xfa5c5c).setInteractive();
            button.on('pointerdown', () => heard.push('pointerdown'));
            button.on('pointerup', () => heard.push('pointerup'));
            this.input.keyboard!.on('keydown-ENTER', () => heard.push('keydown-ENTER'));
            resolve(this);
          },
        },
      });
    });
    await ready;
    // (A new interactive object joins the input plugin's list at the next step.)
    for (let step = 0; step < 2; step++) await new Promise((resolve) => game.events.once(Phaser.Core.Events.POST_STEP, resolve));
    const box = game.canvas.getBoundingClientRect();
    const at = { clientX: box.left + 100, clientY: box.top + 50, bubbles: true, cancelable: true };
    // Each listener has run when dispatchEvent returns: within the event, not at a later frame.
    game.canvas.dispatchEvent(new MouseEvent('mousedown', at));
    expect(heard).to.deep.equal(['pointerdown']);
    game.canvas.dispatchEvent(new MouseEvent('mouseup', at));
    expect(heard).to.deep.equal(['pointerdown', 'pointerup']);
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', code: 'Enter', keyCode: 13, bubbles: true }));
    expect(heard).to.deep.equal(['pointerdown', 'pointerup', 'keydown-ENTER']);
  });
});
