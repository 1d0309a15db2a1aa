import { expect } from '@open-wc/testing';
import { createBridge, type BridgeResult } from '../../src/bridge/bridge.js';
import { keyStore, newKeyPair } from '../../src/core/dpop-proof.js';
import { ItchOAuthError } from '../../src/core/errors.js';
import type { GameSession } from '../../src/core/game-session.js';
import { gameSession } from '../../src/ui/login.js';

const SITE = 'https://site.example';
const OPTIONS = { clientId: 'abc', redirectUri: `${SITE}/callback.html`, backend: `${SITE}/auth/itch`, renew: `${SITE}/api/renew` };
const KEY = `itch-oauth-game-token ${SITE}/api/renew`;
const USER = { id: 7, username: 'zoé', display_name: 'Zoé Ünal', url: 'https://zoe.itch.io', cover_url: null };

/** The DPoP key the tokens below are bound to (`cnf.jkt`), kept in IndexedDB as an earlier page left it. */
const JKT = 'bridge-test-key';

/** A game token as the site's `createSessions` makes one (the session reads it, never checks its signature). */
function gameToken(owns?: Record<string, boolean>): string {
  const iat = Math.floor(Date.now() / 1000);
  const claims = { sub: '7', iat, exp: iat + 3600, user: USER, ...(owns && { owns }), cnf: { jkt: JKT } };
  const bytes = new TextEncoder().encode(JSON.stringify(claims));
  const payload = btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
  return `eyJhbGciOiJFZERTQSJ9.${payload}.c2ln`;
}

const noLogin = () => Promise.reject(new ItchOAuthError('config_invalid', 'no login in these tests'));

/** Calls `call` with a global callback's name; resolves with what the callback receives, parsed. */
function answerOf(
  call: (callbackName: string) => string,
): Promise<{ returned: string; result: BridgeResult; calledBeforeReturn: boolean }> {
  return new Promise((resolve) => {
    let returned: string | undefined;
    const scope = globalThis as unknown as Record<string, unknown>;
    scope['onBridgeTest'] = (json: string) => {
      delete scope['onBridgeTest'];
      resolve({ returned: returned ?? '', result: JSON.parse(json) as BridgeResult, calledBeforeReturn: returned === undefined });
    };
    returned = call('onBridgeTest');
  });
}

describe('createBridge(): restore', () => {
  const realFetch = window.fetch;
  let renewals: Request[] = [];
  let renewAnswer: () => Response = () => Response.json({ gameToken: gameToken({ 42: true }) });
  beforeEach(async () => {
    const pair = await newKeyPair();
    await keyStore((store) => store.put(pair, JKT), true);
    renewals = [];
    window.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      renewals.push(new Request(input, init));
      return renewAnswer();
    }) as typeof window.fetch;
  });
  afterEach(() => {
    window.fetch = realFetch;
    renewAnswer = () => Response.json({ gameToken: gameToken({ 42: true }) });
    sessionStorage.clear();
  });

  it('answers null when this frame kept no login, and asks the site nothing', async () => {
    const bridge = createBridge(noLogin, gameSession);
    const { returned, result, calledBeforeReturn } = await answerOf((name) => bridge.restore(JSON.stringify(OPTIONS), name));
    expect(calledBeforeReturn).to.equal(false);
    expect(result).to.deep.equal({ id: returned, ok: true, response: null });
    expect(renewals).to.have.length(0);
  });

  it('answers the user and owns of a kept login, renewed at once', async () => {
    const kept = gameToken({ 42: true });
    sessionStorage.setItem(KEY, kept);
    const bridge = createBridge(noLogin, gameSession);
    const { result } = await answerOf((name) => bridge.restore(JSON.stringify(OPTIONS), name));
    expect(result).to.deep.equal({ id: '1', ok: true, response: { user: USER, owns: { 42: true } } });
    expect(renewals.map((request) => [request.url, request.headers.get('Authorization')])).to.deep.equal([
      [`${SITE}/api/renew`, `DPoP ${kept}`],
    ]);
  });

  it('answers no owns when the game token has none, as a login does', async () => {
    sessionStorage.setItem(KEY, gameToken());
    renewAnswer = () => Response.json({ gameToken: gameToken() });
    const bridge = createBridge(noLogin, gameSession);
    const { result } = await answerOf((name) => bridge.restore(JSON.stringify(OPTIONS), name));
    expect(result).to.deep.equal({ id: '1', ok: true, response: { user: USER } });
  });

  it('answers null when the site refuses the kept login (signed out elsewhere), and forgets it', async () => {
    sessionStorage.setItem(KEY, gameToken());
    renewAnswer = () => new Response(null, { status: 401 });
    const bridge = createBridge(noLogin, gameSession);
    const { result } = await answerOf((name) => bridge.restore(JSON.stringify(OPTIONS), name));
    expect(result).to.deep.equal({ id: '1', ok: true, response: null });
    expect(sessionStorage.getItem(KEY)).to.equal(null);
  });

  it('sends the API calls with the restored login', async () => {
    sessionStorage.setItem(KEY, gameToken());
    const renewed = gameToken();
    renewAnswer = () => Response.json({ gameToken: renewed });
    const bridge = createBridge(noLogin, gameSession);
    await answerOf((name) => bridge.restore(JSON.stringify(OPTIONS), name));
    renewAnswer = () => new Response('{"stars":3}');
    const { result } = await answerOf((name) => bridge.fetch(`${SITE}/api/progress`, '', name));
    expect(result).to.deep.equal({ id: '2', ok: true, response: { status: 200, body: '{"stars":3}' } });
    expect(renewals.at(-1)!.headers.get('Authorization')).to.equal(`DPoP ${renewed}`);
  });

  it('without renew: config_invalid, and no session is made for the login that follows', async () => {
    const made: object[] = [];
    const bridge = createBridge(noLogin, (options) => {
      made.push(options);
      return gameSession(options);
    });
    const { renew: _, ...withoutRenew } = OPTIONS;
    const { result } = await answerOf((name) => bridge.restore(JSON.stringify(withoutRenew), name));
    expect(result).to.include({ ok: false, code: 'config_invalid', message: 'restore() needs renew' });
    expect(made).to.have.length(0);
    sessionStorage.setItem(KEY, gameToken());
    const { result: again } = await answerOf((name) => bridge.restore(JSON.stringify(OPTIONS), name));
    expect(again).to.deep.include({ ok: true, response: { user: USER, owns: { 42: true } } });
    expect(made).to.deep.equal([OPTIONS]);
  });

  it('options that are not a JSON object of known strings: config_invalid through the callback', async () => {
    const bridge = createBridge(noLogin, gameSession);
    for (const options of ['{', 'null', '{"renew":7}', '{"renew":"https://site.example/api/renew","signal":"x"}']) {
      const { result } = await answerOf((name) => bridge.restore(options, name));
      expect(result, options).to.include({ ok: false, code: 'config_invalid' });
    }
  });

  it('a session signed in by a login of this page answers its user, also where the frame could not keep the token', async () => {
    const signedIn = {
      signedIn: true,
      user: USER,
      owns: { 42: true },
      restore: () => Promise.resolve(false),
    } as unknown as GameSession;
    const bridge = createBridge(noLogin, () => signedIn);
    const { result } = await answerOf((name) => bridge.restore(JSON.stringify(OPTIONS), name));
    expect(result).to.deep.include({ ok: true, response: { user: USER, owns: { 42: true } } });
  });

  it('a callback name that names no function throws at once', () => {
    const bridge = createBridge(noLogin, gameSession);
    expect(() => bridge.restore(JSON.stringify(OPTIONS), 'nowhere')).to.throw(TypeError, /nowhere is not a global function/);
  });
});
