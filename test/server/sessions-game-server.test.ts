// examples/game-server: a game server that verifies game tokens with `jose` and the site's JWK Set
// alone (nothing of this package), run as its own process against a site on loopback that serves
// `sessions.jwks()`. It accepts a valid game token with a DPoP proof by its key and answers its
// player and `owns`; it refuses an expired one, one signed by another deployment, one made for
// another site, one whose payload was changed, the site's cookie value, and the token without
// its key: as Bearer, with a proof by another key, with a proof replayed or for another request.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { getRequestListener } from '@hono/node-server';
import { createSessions, createTokenHandler, type SessionsOptions } from '../../src/server/index.js';
import { dpopKey, dpopProof } from '../support/dpop.js';
import { fakeItch as fakeItchFor } from './support/fake-itch.js';

const GAME = 'https://html-classic.itch.zone';
const SECRET = 'the site of the game server test, 32+ characters';
const OTHER_SECRET = 'another deployment entirely, also 32+ characters';
const TOKEN = 'ItchAccessToken0123456789abcdefghijklmno';
const user = { id: 1001, username: 'leafo', url: 'https://leafo.itch.io', gamer: true, developer: true, press_user: false };
const gameServerScript = fileURLToPath(new URL('../../examples/game-server/server.js', import.meta.url));

const fakeItch = fakeItchFor(TOKEN, user);

/** The game's DPoP key: its proofs (RFC 9449) go with each of its requests, as gameSession() makes them. */
const game = await dpopKey();

/** A login on `site` started from `from` (the game by default): the game token, or the cookie's value for the site's own pages. */
async function login(
  site: string,
  options: Partial<SessionsOptions> = {},
  from = GAME,
): Promise<{ gameToken: string | undefined; cookieValue: string | undefined }> {
  const sessions = createSessions({ secrets: [SECRET], allowedOrigins: [GAME], origin: site, ...options });
  const handler = createTokenHandler({
    applicationId: 42,
    origin: site,
    fetch: fakeItch,
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

describe('examples/game-server: jose and the JWK Set alone', () => {
  let site: Server;
  let siteOrigin: string;
  let gameServer: ChildProcess;
  let gameServerOrigin: string;
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
    gameServer = spawn(process.execPath, [gameServerScript], {
      env: { ...process.env, SITE_ORIGIN: siteOrigin, PORT: '0' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    gameServerOrigin = await new Promise((resolve, reject) => {
      gameServer.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /listening on (http:\/\/\S+?),/.exec(out);
        if (match) resolve(match[1]!);
      });
      gameServer.once('exit', (code) => reject(new Error(`the game server exited (${code}): ${out}`)));
    });
  });

  after(async () => {
    gameServer?.kill();
    site?.close();
  });

  /** The game's request for its player, with the token and a proof of the request by `key`. */
  const player = async (token: string, key = game) =>
    fetch(`${gameServerOrigin}/player`, {
      headers: { Authorization: `DPoP ${token}`, DPoP: await dpopProof(key, 'GET', `${gameServerOrigin}/player`, { token }) },
    });

  it('refuses the token without its key: as Bearer, with a proof by another key, replayed, for another request', async () => {
    const token = (await login(siteOrigin)).gameToken!;
    const url = `${gameServerOrigin}/player`;
    const call = (headers: Record<string, string>) => fetch(url, { headers });
    const withProof = (dpop: string) => call({ Authorization: `DPoP ${token}`, DPoP: dpop });
    assert.equal((await call({ Authorization: `Bearer ${token}` })).status, 401);
    assert.equal((await player(token, await dpopKey())).status, 401);
    const once = await dpopProof(game, 'GET', url, { token });
    assert.equal((await withProof(once)).status, 200);
    assert.equal((await withProof(once)).status, 401, 'replayed');
    assert.equal((await withProof(await dpopProof(game, 'POST', url, { token }))).status, 401);
    assert.equal((await withProof(await dpopProof(game, 'GET', `${url}x`, { token }))).status, 401);
    assert.equal((await withProof(await dpopProof(game, 'GET', url, { token: 'another token' }))).status, 401);
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
