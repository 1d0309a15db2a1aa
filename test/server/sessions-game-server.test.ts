// examples/game-server: a game server that verifies game tokens with `jose` and the site's JWK Set
// alone (nothing of this package), run as its own process against a site on loopback that serves
// `sessions.jwks()`. It accepts a valid game token with a DPoP proof by its key and answers its
// player and `owns`; it refuses an expired one, one signed by another deployment, one made for
// another site, one whose payload was changed, the site's cookie value, and the token without
// its key: as Bearer, with a proof by another key, with a proof replayed or for another request.
// It gives DPoP nonces of its own (RFC 9449 section 9): a proof without one, with an old one or
// with another server's is refused with use_dpop_nonce, so that a page that could use the
// player's key for a while (another game on itch.io's origin) cannot sign proofs ahead of time.
// It remembers a proof until its `iat` is too old, so one dated ahead counts once too; and one
// player flooding it is answered 429 past its share of that memory, a full memory 503: never the
// 401 that makes a game renew or sign out, and never for the other players.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { getRequestListener } from '@hono/node-server';
import { createSessions, createTokenHandler, type SessionsOptions } from '../../src/server/index.js';
import { dpopKey, dpopProof, serverNonce } from '../support/dpop.js';
import { fakeItch as fakeItchFor } from './support/fake-itch.js';

const GAME = 'https://html-classic.itch.zone';
const SECRET = 'the site of the game server test, 32+ characters';
const OTHER_SECRET = 'another deployment entirely, also 32+ characters';
/** The game server's DPoP nonce secret: its instances given the same one agree. */
const NONCE_SECRET = 'the game server nonce secret, 32+ characters long';
const TOKEN = 'ItchAccessToken0123456789abcdefghijklmno';
const user = { id: 1001, username: 'leafo', url: 'https://leafo.itch.io', gamer: true, developer: true, press_user: false };
const gameServerScript = fileURLToPath(new URL('../../examples/game-server/server.js', import.meta.url));

const fakeItch = fakeItchFor(TOKEN, user);

/** The game's DPoP key: its proofs (RFC 9449) go with each of its requests, as gameSession() makes them. */
const game = await dpopKey();

/**
 * A login on `site` started from `from` (the game by default), of `player` (leafo by default): the
 * game token, or the cookie's value for the site's own pages.
 */
async function login(
  site: string,
  options: Partial<SessionsOptions> = {},
  from = GAME,
  player = user,
): Promise<{ gameToken: string | undefined; cookieValue: string | undefined }> {
  const sessions = createSessions({ secrets: [SECRET], allowedOrigins: [GAME], origin: site, ...options });
  const handler = createTokenHandler({
    applicationId: 42,
    origin: site,
    fetch: player === user ? fakeItch : fakeItchFor(TOKEN, player),
    allowedOrigins: [GAME],
    onLogin: sessions.onLogin,
    onError: () => undefined,
  });
  const answer = await handler(
    new Request(`${site}/auth/itch`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Origin: from,
        'Sec-Fetch-Site': from === site ? 'same-origin' : 'cross-site',
        DPoP: await dpopProof(game, 'POST', `${site}/auth/itch`),
      },
      body: JSON.stringify({ access_token: TOKEN }),
    }),
  );
  assert.equal(answer.status, 200, await answer.clone().text());
  const { gameToken } = (await answer.json()) as { gameToken?: string };
  const cookie = answer.headers.get('set-cookie')?.split(';')[0];
  return { gameToken, cookieValue: cookie?.slice(cookie.indexOf('=') + 1) };
}

/** The example as its own process with `env`, and its origin once it listens. */
async function startGameServer(env: Record<string, string>): Promise<{ process: ChildProcess; origin: string }> {
  const child = spawn(process.execPath, [gameServerScript], {
    env: { ...process.env, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const origin = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/\S+?),/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`the game server exited (${code}): ${out}`)));
  });
  return { process: child, origin };
}

/** The DPoP nonce the game server at `server` gives now, learnt from an answer to a request with a proof. */
const nonceOf = (server: string) => serverNonce(`${server}/player`);

describe('examples/game-server: jose and the JWK Set alone', () => {
  let site: Server;
  let siteOrigin: string;
  let gameServer: ChildProcess;
  let gameServerOrigin: string;
  /**
   * Instances beside it: one with its nonce secret, one with a secret of its own, one whose nonces
   * last 2 s, one that accepts proofs within 3 s of its clock (not 300), one that remembers 200
   * proofs (2 per player), one that remembers 5 (1 per player).
   */
  let twin: { process: ChildProcess; origin: string };
  let stranger: { process: ChildProcess; origin: string };
  let quick: { process: ChildProcess; origin: string };
  let short: { process: ChildProcess; origin: string };
  let small: { process: ChildProcess; origin: string };
  let tiny: { process: ChildProcess; origin: string };
  let jwksRequests = 0;

  before(async () => {
    // The site: only its JWK Set, from the same secret as the logins below.
    const sessions = createSessions({ secrets: [SECRET], allowedOrigins: [GAME] });
    site = createServer(
      getRequestListener(async (request) => {
        if (new URL(request.url).pathname !== '/.well-known/jwks.json') return new Response(null, { status: 404 });
        jwksRequests++;
        return Response.json(await sessions.jwks());
      }),
    );
    site.listen(0, '127.0.0.1');
    await once(site, 'listening');
    siteOrigin = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
    const env = { SITE_ORIGIN: siteOrigin, GAME_ORIGIN: GAME };
    let main;
    [main, twin, stranger, quick, short, small, tiny] = await Promise.all([
      startGameServer({ ...env, DPOP_NONCE_SECRET: NONCE_SECRET }),
      startGameServer({ ...env, DPOP_NONCE_SECRET: NONCE_SECRET }),
      startGameServer(env),
      startGameServer({ ...env, DPOP_NONCE_SECONDS: '2' }),
      startGameServer({ ...env, DPOP_WINDOW_SECONDS: '3' }),
      startGameServer({ ...env, DPOP_MAX_SEEN_PROOFS: '200' }),
      startGameServer({ ...env, DPOP_MAX_SEEN_PROOFS: '5' }),
    ]);
    ({ process: gameServer, origin: gameServerOrigin } = main);
  });

  after(async () => {
    for (const child of [gameServer, ...[twin, stranger, quick, short, small, tiny].map((one) => one?.process)]) child?.kill();
    site?.close();
  });

  /** The game's request for its player, with the token and a proof of the request by `key` with the server's nonce. */
  const player = async (token: string, key = game) =>
    fetch(`${gameServerOrigin}/player`, {
      headers: {
        Authorization: `DPoP ${token}`,
        DPoP: await dpopProof(key, 'GET', `${gameServerOrigin}/player`, { token, nonce: await nonceOf(gameServerOrigin) }),
      },
    });

  it('refuses the token without its key: as Bearer, with a proof by another key, replayed, for another request', async () => {
    const token = (await login(siteOrigin)).gameToken!;
    const url = `${gameServerOrigin}/player`;
    const call = (headers: Record<string, string>) => fetch(url, { headers });
    const withProof = (dpop: string) => call({ Authorization: `DPoP ${token}`, DPoP: dpop });
    assert.equal((await call({ Authorization: `Bearer ${token}` })).status, 401);
    assert.equal((await player(token, await dpopKey())).status, 401);
    const nonce = await nonceOf(gameServerOrigin);
    const once = await dpopProof(game, 'GET', url, { token, nonce });
    assert.equal((await withProof(once)).status, 200);
    assert.equal((await withProof(once)).status, 401, 'replayed');
    assert.equal((await withProof(await dpopProof(game, 'POST', url, { token, nonce }))).status, 401);
    assert.equal((await withProof(await dpopProof(game, 'GET', `${url}x`, { token, nonce }))).status, 401);
    assert.equal((await withProof(await dpopProof(game, 'GET', url, { token: 'another token', nonce }))).status, 401);
  });

  describe('DPoP nonces: no proof signed ahead of time', () => {
    /** `GET /player` of `server` from the game's page, with the token and `proof`. */
    const call = (server: string, token: string, proof: string) =>
      fetch(`${server}/player`, { headers: { Origin: GAME, Authorization: `DPoP ${token}`, DPoP: proof } });
    /** A proof of `GET /player` of `server` by the game's key, with `nonce` (`null`: none). */
    const proofFor = (server: string, token: string, nonce: string | null, options: { jti?: string; iat?: number } = {}) =>
      dpopProof(game, 'GET', `${server}/player`, { token, nonce, ...options });
    /** `answer` asks for the nonce: 401 use_dpop_nonce, with a DPoP-Nonce the game's page can read; answers it. */
    const asksForNonce = async (answer: Response) => {
      assert.equal(answer.status, 401);
      assert.match(answer.headers.get('www-authenticate') ?? '', /^DPoP error="use_dpop_nonce"/);
      assert.equal(answer.headers.get('access-control-allow-origin'), GAME);
      assert.deepEqual(
        answer.headers
          .get('access-control-expose-headers')
          ?.split(',')
          .map((name) => name.trim().toLowerCase())
          .sort(),
        ['dpop-nonce', 'retry-after', 'www-authenticate'],
      );
      await answer.body?.cancel();
      return answer.headers.get('dpop-nonce')!;
    };

    it('asks for its nonce; the same request with it is accepted, and the refused proof used up nothing', async () => {
      const token = (await login(siteOrigin)).gameToken!;
      const jti = `asked-${Date.now()}`;
      const nonce = await asksForNonce(await call(gameServerOrigin, token, await proofFor(gameServerOrigin, token, null, { jti })));
      assert.match(nonce, /^[\w-]{43}$/);
      // The same jti again: the refusal did not remember it.
      const answer = await call(gameServerOrigin, token, await proofFor(gameServerOrigin, token, nonce, { jti }));
      assert.equal(answer.status, 200);
      assert.equal(answer.headers.get('dpop-nonce'), nonce, 'an accepted request says the nonce too');
      assert.equal(((await answer.json()) as { id: number }).id, user.id);
    });

    it('refuses a value that is not its nonce, and a nonce of another server; accepts the one of an instance with its secret', async () => {
      const token = (await login(siteOrigin)).gameToken!;
      const ownNonce = await nonceOf(gameServerOrigin);
      const notOne = [`${ownNonce.slice(0, -1)}${ownNonce.endsWith('A') ? 'B' : 'A'}`, 'x'.repeat(43), 'é'.repeat(43), ''];
      for (const nonce of notOne) await asksForNonce(await call(gameServerOrigin, token, await proofFor(gameServerOrigin, token, nonce)));
      const notAString = await dpopProof(game, 'GET', `${gameServerOrigin}/player`, { token, nonce: null, payload: { nonce: 42 } });
      await asksForNonce(await call(gameServerOrigin, token, notAString));
      const strangers = await nonceOf(stranger.origin);
      assert.notEqual(strangers, ownNonce);
      await asksForNonce(await call(gameServerOrigin, token, await proofFor(gameServerOrigin, token, strangers)));
      const twins = await nonceOf(twin.origin);
      assert.equal((await call(gameServerOrigin, token, await proofFor(gameServerOrigin, token, twins))).status, 200);
    });

    it('attack: a proof signed ahead, with the nonce of the moment it was signed, is refused once that nonce is old', async () => {
      // The hostile game, while it runs, has the player's key (through the page's APIs) and the
      // game server's nonce. It signs two proofs: one to check it works now, one dated 5 s ahead,
      // to send then, after it is gone. This instance's nonces are new every 2 s and accepted for
      // the period after: 5 s later the nonce is at least two periods old.
      const token = (await login(siteOrigin)).gameToken!;
      const nonce = await nonceOf(quick.origin);
      const signedAt = Date.now();
      const now = await proofFor(quick.origin, token, nonce);
      const ahead = await proofFor(quick.origin, token, nonce, { iat: Math.floor(signedAt / 1000) + 5 });
      assert.equal((await call(quick.origin, token, now)).status, 200, 'the nonce works while it is new');
      await new Promise((resolve) => setTimeout(resolve, signedAt + 5000 - Date.now()));
      const later = await call(quick.origin, token, ahead);
      assert.notEqual(await asksForNonce(later), nonce, 'the server names its newer nonce');
      // A fresh proof with the newer nonce works: the refusal was the nonce's age alone.
      assert.equal((await call(quick.origin, token, await proofFor(quick.origin, token, await nonceOf(quick.origin)))).status, 200);
    });

    it('attack: a proof dated ahead counts once, remembered until its iat is too old, not for the window from its use', async () => {
      // This instance accepts an `iat` within 3 s of its clock (300 s by default) and its nonces
      // last a minute or two. The proof says it was made 2 to 3 s ahead; it is used now, and sent
      // again once 3 s have passed since: its iat is still acceptable, and so is its nonce.
      const token = (await login(siteOrigin)).gameToken!;
      const nonce = await nonceOf(short.origin);
      const ahead = await proofFor(short.origin, token, nonce, { iat: Math.ceil(Date.now() / 1000) + 2 });
      const usedAt = Date.now();
      assert.equal((await call(short.origin, token, ahead)).status, 200);
      await new Promise((resolve) => setTimeout(resolve, usedAt + 3300 - Date.now()));
      const again = await call(short.origin, token, ahead);
      assert.equal(again.status, 401, 'replayed');
      assert.match(again.headers.get('www-authenticate') ?? '', /^DPoP error="invalid_dpop_proof"/);
      // A fresh proof with the same nonce works: the refusal was the replay alone.
      assert.equal((await call(short.origin, token, await proofFor(short.origin, token, nonce))).status, 200);
    });

    it('refuses to start with nonces that would outlive the memory of used proofs (DPOP_NONCE_SECONDS above 120)', async () => {
      const child = spawn(process.execPath, [gameServerScript], {
        env: { ...process.env, PORT: '0', SITE_ORIGIN: siteOrigin, DPOP_NONCE_SECONDS: '121' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      // One that starts says so on stdout: stopped then, and the test fails below.
      child.stdout!.once('data', () => child.kill());
      let errors = '';
      child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
      const [code] = (await once(child, 'close')) as [number | null];
      assert.equal(code, 1);
      assert.match(errors, /DPOP_NONCE_SECONDS must be a number from 1 to 120/);
      // 120 is allowed.
      const longest = await startGameServer({ SITE_ORIGIN: siteOrigin, DPOP_NONCE_SECONDS: '120' });
      longest.process.kill();
    });
  });

  describe('the memory of used proofs: bounded per player, and never a 401 when full', () => {
    /** A fresh proof of `GET /player` of `server` for `token`, sent from the game's page. */
    const fresh = async (server: string, token: string) =>
      fetch(`${server}/player`, {
        headers: {
          Origin: GAME,
          Authorization: `DPoP ${token}`,
          DPoP: await dpopProof(game, 'GET', `${server}/player`, { token, nonce: await nonceOf(server) }),
        },
      });
    /** `answer` is `status` with a Retry-After of 1 s to `most`, which the game's page can read. */
    const waitFor = async (answer: Response, status: number, most: number) => {
      assert.equal(answer.status, status);
      const retryAfter = Number(answer.headers.get('retry-after'));
      assert.ok(retryAfter >= 1 && retryAfter <= most, `Retry-After: ${retryAfter}`);
      assert.match(answer.headers.get('access-control-expose-headers') ?? '', /Retry-After/);
      assert.equal(answer.headers.get('www-authenticate'), null, 'not a 401: the game neither renews nor signs out');
      await answer.body?.cancel();
    };
    const other = (id: number) => ({ ...user, id, username: `player${id}` });

    it('attack: one player flooding past its share is answered 429 with Retry-After; another player is still served', async () => {
      const flooder = (await login(siteOrigin)).gameToken!;
      const bystander = (await login(siteOrigin, {}, GAME, other(1002))).gameToken!;
      for (let i = 0; i < 2; i++) assert.equal((await fresh(small.origin, flooder)).status, 200);
      await waitFor(await fresh(small.origin, flooder), 429, 300);
      await waitFor(await fresh(small.origin, flooder), 429, 300);
      const served = await fresh(small.origin, bystander);
      assert.equal(served.status, 200);
      assert.equal(((await served.json()) as { id: number }).id, 1002);
    });

    it('a full memory answers 503 with Retry-After, not 401', async () => {
      const tokens = await Promise.all(
        [1, 2, 3, 4, 5, 6].map(async (n) => (await login(siteOrigin, {}, GAME, other(2000 + n))).gameToken!),
      );
      for (const token of tokens.slice(0, 5)) assert.equal((await fresh(tiny.origin, token)).status, 200);
      await waitFor(await fresh(tiny.origin, tokens[5]!), 503, 300);
    });
  });

  it('accepts a game token of the site: the player and what they own', async () => {
    const { gameToken } = await login(siteOrigin);
    const answer = await player(gameToken!);
    assert.equal(answer.status, 200);
    assert.deepEqual(await answer.json(), { id: user.id, username: user.username, owns: {} });
    assert.ok(jwksRequests >= 1, 'it fetched the JWK Set');
  });

  it('refuses a request without a token', async () => {
    const answer = await fetch(`${gameServerOrigin}/player`);
    assert.equal(answer.status, 401);
    assert.equal(answer.headers.get('www-authenticate'), 'DPoP algs="ES256"');
  });

  it('refuses an expired game token', async () => {
    // 3 s: `iat` counts whole seconds, so the token lives 2 to 3 s, time to be accepted once.
    const { gameToken } = await login(siteOrigin, { gameTokenMaxAge: 3 });
    assert.equal((await player(gameToken!)).status, 200, 'accepted while it is valid');
    const { exp } = JSON.parse(Buffer.from(gameToken!.split('.')[1]!, 'base64url').toString()) as { exp: number };
    await new Promise((resolve) => setTimeout(resolve, exp * 1000 + 1000 - Date.now()));
    assert.equal((await player(gameToken!)).status, 401);
  });

  it('refuses a game token signed by another deployment (another secret), for the same origin', async () => {
    const { gameToken } = await login(siteOrigin, { secrets: [OTHER_SECRET] });
    assert.equal((await player(gameToken!)).status, 401);
  });

  it('refuses a game token the same keys signed for another site (its iss and aud)', async () => {
    const { gameToken } = await login('https://another-site.example');
    assert.equal((await player(gameToken!)).status, 401);
  });

  it('refuses a game token whose payload was changed (another player)', async () => {
    const { gameToken } = await login(siteOrigin);
    const [header, payload, signature] = gameToken!.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: '1', owns: { 2001: true } })).toString('base64url');
    assert.equal((await player(`${header}.${forged}.${signature}`)).status, 401);
  });

  it("refuses the site's cookie value presented as a game token", async () => {
    const { cookieValue } = await login(siteOrigin, {}, siteOrigin);
    assert.ok(cookieValue && cookieValue.split('.').length === 5, 'a JWE cookie');
    assert.equal((await player(cookieValue)).status, 401);
  });
});
