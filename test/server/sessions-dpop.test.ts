// Game tokens bound to the game's key (DPoP, RFC 9449), attacked: a copy of the token without the
// key (as Bearer, or as DPoP with a proof by another key), a proof replayed, for another URL, method,
// origin or token, too old or too far ahead, a login without a proof; and the same proof on two
// instances that share a real Redis, accepted once.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import * as jose from 'jose';
import { createSessions, createTokenHandler, type SessionsOptions } from '../../src/server/index.js';
import { DPOP_WINDOW_S } from '../../src/server/sessions/dpop.js';
import { dpopKey, dpopProof, type DpopKey } from '../support/dpop.js';
import { fakeItch as fakeItchFor } from './support/fake-itch.js';
import { redisMissing, useRedis } from './support/redis.js';

const SITE = 'https://game.example';
const GAME = 'https://html-classic.itch.zone';
const SECRET = 'correct horse battery staple, 32+ characters long';
const TOKEN = 'ItchAccessToken0123456789abcdefghijklmno';
const user = { id: 1, username: 'leafo', url: 'https://leafo.itch.io', gamer: true, developer: true, press_user: false };
const fakeItch = fakeItchFor(TOKEN, user);

function setup(options: Partial<SessionsOptions> = {}) {
  const sessions = createSessions({ secrets: [SECRET], allowedOrigins: [GAME], origin: SITE, ...options });
  const handler = createTokenHandler({
    applicationId: 42,
    origin: SITE,
    fetch: fakeItch,
    allowedOrigins: [GAME],
    onLogin: sessions.onLogin,
    onError: () => undefined,
  });
  /** A game's login at the token endpoint, with the proof given (or none). */
  const login = async (dpop?: string) => {
    const headers: Record<string, string> = { 'Content-Type': 'application/json', Origin: GAME, 'Sec-Fetch-Site': 'cross-site' };
    if (dpop !== undefined) headers['DPoP'] = dpop;
    const response = await handler(
      new Request(`${SITE}/auth/itch`, { method: 'POST', headers, body: JSON.stringify({ access_token: TOKEN }) }),
    );
    return { response, body: (await response.json()) as { gameToken?: string; errors?: string[] } };
  };
  /** A bound game token of `key`. */
  const loginWith = async (key: DpopKey) => {
    const { body } = await login(await dpopProof(key, 'POST', `${SITE}/auth/itch`));
    return body.gameToken!;
  };
  const me = sessions.route({ allow: ['game'] }, (_request, session) => Response.json(session.user));
  return { sessions, handler, login, loginWith, me };
}

/** A request from the game to `path`, with these Authorization and DPoP headers. */
function call(path: string, authorization?: string, dpop?: string, method = 'GET', base = SITE): Request {
  const headers: Record<string, string> = { Origin: GAME };
  if (authorization !== undefined) headers['Authorization'] = authorization;
  if (dpop !== undefined) headers['DPoP'] = dpop;
  return new Request(`${base}${path}`, { method, headers });
}

/** `response` is the 401 of RFC 9449 section 7.1 with `error`, readable by the game. */
function assertRefused(response: Response, error: 'invalid_token' | 'invalid_dpop_proof') {
  assert.equal(response.status, 401);
  const challenge = response.headers.get('www-authenticate') ?? '';
  assert.match(challenge, /^DPoP /);
  assert.match(challenge, new RegExp(`error="${error}"`));
  assert.equal(response.headers.get('access-control-allow-origin'), GAME);
  assert.match(response.headers.get('access-control-expose-headers') ?? '', /WWW-Authenticate/);
}

describe('issuing bound game tokens', () => {
  it('a game login without a proof learns who logged in and gets no game token, by default', async () => {
    const { login } = setup();
    const { response, body } = await login();
    assert.equal(response.status, 200);
    assert.equal(body.gameToken, undefined);
    assert.ok((body as { user?: unknown }).user, 'the answer still says who logged in');
    assert.equal(response.headers.get('set-cookie'), null);
  });
  it("a login with a proof gets a token bound to the proof's key (cnf.jkt, RFC 7638)", async () => {
    const { loginWith } = setup();
    const key = await dpopKey();
    const claims = jose.decodeJwt(await loginWith(key));
    assert.deepEqual(claims['cnf'], { jkt: key.jkt });
  });
  it('a login with a bad proof is refused, under dpop: optional too', async () => {
    for (const dpop of ['required', 'optional'] as const) {
      const { login } = setup({ dpop });
      const key = await dpopKey();
      const bad = [
        await dpopProof(key, 'POST', `${SITE}/other`),
        await dpopProof(key, 'GET', `${SITE}/auth/itch`),
        await dpopProof(key, 'POST', `${SITE}/auth/itch`, { token: 'any' }),
        await dpopProof(key, 'POST', `${SITE}/auth/itch`, { iat: Math.floor(Date.now() / 1000) - DPOP_WINDOW_S - 5 }),
        'not.a.proof',
      ];
      for (const dpopProof of bad) {
        const { response, body } = await login(dpopProof);
        assert.equal(response.status, 401, dpop);
        assert.equal(body.gameToken, undefined);
      }
    }
  });
  it('a proof whose header carries the private key, or another typ or alg, is refused', async () => {
    const { login } = setup();
    const key = await dpopKey();
    const privateJwk = await jose.exportJWK(key.privateKey);
    const url = `${SITE}/auth/itch`;
    assert.equal((await login(await dpopProof(key, 'POST', url, { header: { jwk: privateJwk } }))).response.status, 401);
    assert.equal((await login(await dpopProof(key, 'POST', url, { header: { typ: 'JWT' } }))).response.status, 401);
    // Signed with a secret instead: anyone who knows the secret could make it.
    const hmac = await dpopProof({ privateKey: randomBytes(32), jwk: key.jwk }, 'POST', url, { header: { alg: 'HS256' } });
    assert.equal((await login(hmac)).response.status, 401);
  });
  it('under dpop: optional, a login without a proof gets an unbound token that counts as Bearer', async () => {
    const { login, me } = setup({ dpop: 'optional' });
    const { body } = await login();
    assert.equal(jose.decodeJwt(body.gameToken!)['cnf'], undefined);
    assert.equal((await me(call('/api/me', `Bearer ${body.gameToken}`))).status, 200);
  });
  it('by default, an unbound token (issued under optional) counts nowhere', async () => {
    const { body } = await setup({ dpop: 'optional' }).login();
    const { me } = setup();
    assertRefused(await me(call('/api/me', `Bearer ${body.gameToken}`)), 'invalid_token');
    assertRefused(
      await me(call('/api/me', `DPoP ${body.gameToken}`, await dpopProof(await dpopKey(), 'GET', `${SITE}/api/me`))),
      'invalid_token',
    );
  });
});

describe('using bound game tokens', () => {
  it('counts as Authorization: DPoP with a proof of this request by its key', async () => {
    const { loginWith, me, sessions } = setup();
    const key = await dpopKey();
    const token = await loginWith(key);
    const response = await me(call('/api/me', `DPoP ${token}`, await dpopProof(key, 'GET', `${SITE}/api/me`, { token })));
    assert.equal(response.status, 200);
    assert.equal(((await response.json()) as { id: number }).id, 1);
    const session = await sessions.get(
      call('/api/save', `DPoP ${token}`, await dpopProof(key, 'PUT', `${SITE}/api/save`, { token }), 'PUT'),
      {
        allow: ['game'],
      },
    );
    assert.equal(session?.user.id, 1);
  });
  it('as Bearer it is refused (invalid_token)', async () => {
    const { loginWith, me, sessions } = setup();
    const key = await dpopKey();
    const token = await loginWith(key);
    assertRefused(await me(call('/api/me', `Bearer ${token}`)), 'invalid_token');
    // With a valid proof beside it too: the scheme says how the token is bound.
    assertRefused(await me(call('/api/me', `Bearer ${token}`, await dpopProof(key, 'GET', `${SITE}/api/me`, { token }))), 'invalid_token');
    assertRefused(await sessions.renew(call('/auth/renew', `Bearer ${token}`, undefined, 'POST')), 'invalid_token');
  });
  it('without a proof, or with a proof by another key, it is refused (invalid_dpop_proof)', async () => {
    const { loginWith, me, sessions } = setup();
    const token = await loginWith(await dpopKey());
    const thief = await dpopKey();
    assertRefused(await me(call('/api/me', `DPoP ${token}`)), 'invalid_dpop_proof');
    assertRefused(
      await me(call('/api/me', `DPoP ${token}`, await dpopProof(thief, 'GET', `${SITE}/api/me`, { token }))),
      'invalid_dpop_proof',
    );
    const renew = call('/auth/renew', `DPoP ${token}`, await dpopProof(thief, 'POST', `${SITE}/auth/renew`, { token }), 'POST');
    assertRefused(await sessions.renew(renew), 'invalid_dpop_proof');
  });
  it("a proof that names the game's public key in its header but is signed by another key is refused, the key already known", async () => {
    const { loginWith, me } = setup();
    const key = await dpopKey();
    const token = await loginWith(key);
    // The server has seen (and keeps imported) the game's key; its public JWK is no secret.
    assert.equal((await me(call('/api/me', `DPoP ${token}`, await dpopProof(key, 'GET', `${SITE}/api/me`, { token })))).status, 200);
    const thief = await dpopKey();
    const forged = await dpopProof({ ...thief, jwk: key.jwk }, 'GET', `${SITE}/api/me`, { token });
    assertRefused(await me(call('/api/me', `DPoP ${token}`, forged)), 'invalid_dpop_proof');
    // Members beside the public point change nothing: the same key, the same check.
    const padded = await dpopProof({ ...thief, jwk: { ...key.jwk, kid: 'x', alg: 'ES256' } }, 'GET', `${SITE}/api/me`, { token });
    assertRefused(await me(call('/api/me', `DPoP ${token}`, padded)), 'invalid_dpop_proof');
  });
  it('a proof is accepted once: replayed, it is refused', async () => {
    const { loginWith, me } = setup();
    const key = await dpopKey();
    const token = await loginWith(key);
    const once = await dpopProof(key, 'GET', `${SITE}/api/me`, { token });
    assert.equal((await me(call('/api/me', `DPoP ${token}`, once))).status, 200);
    assertRefused(await me(call('/api/me', `DPoP ${token}`, once)), 'invalid_dpop_proof');
  });
  it('a proof for another URL, method, origin or token is refused', async () => {
    const { loginWith, me } = setup();
    const key = await dpopKey();
    const token = await loginWith(key);
    const other = await loginWith(key);
    const wrong = [
      await dpopProof(key, 'GET', `${SITE}/api/other`, { token }),
      await dpopProof(key, 'POST', `${SITE}/api/me`, { token }),
      await dpopProof(key, 'GET', `https://evil.example/api/me`, { token }),
      await dpopProof(key, 'GET', `${SITE}/api/me?x=1`, { token }),
      await dpopProof(key, 'GET', `${SITE}/api/me`, { token: other }),
      await dpopProof(key, 'GET', `${SITE}/api/me`),
    ];
    for (const dpop of wrong) assertRefused(await me(call('/api/me', `DPoP ${token}`, dpop)), 'invalid_dpop_proof');
  });
  it("htu is the configured origin, never the request URL's (which a proxy or client sets)", async () => {
    const { loginWith, me } = setup();
    const key = await dpopKey();
    const token = await loginWith(key);
    // Behind a TLS-ending proxy the request URL is http://<Host the client sent>.
    const proxied = (dpop: string) => call('/api/me', `DPoP ${token}`, dpop, 'GET', 'http://evil.example');
    assertRefused(await me(proxied(await dpopProof(key, 'GET', 'http://evil.example/api/me', { token }))), 'invalid_dpop_proof');
    assert.equal((await me(proxied(await dpopProof(key, 'GET', `${SITE}/api/me`, { token })))).status, 200);
  });
  it('a proof more than 300 s old or ahead is refused; within, accepted', async () => {
    assert.equal(DPOP_WINDOW_S, 300);
    const { loginWith, me } = setup();
    const key = await dpopKey();
    const token = await loginWith(key);
    const now = Math.floor(Date.now() / 1000);
    for (const iat of [now - DPOP_WINDOW_S - 2, now + DPOP_WINDOW_S + 2]) {
      assertRefused(
        await me(call('/api/me', `DPoP ${token}`, await dpopProof(key, 'GET', `${SITE}/api/me`, { token, iat }))),
        'invalid_dpop_proof',
      );
    }
    for (const iat of [now - DPOP_WINDOW_S + 5, now + DPOP_WINDOW_S - 5]) {
      assert.equal((await me(call('/api/me', `DPoP ${token}`, await dpopProof(key, 'GET', `${SITE}/api/me`, { token, iat })))).status, 200);
    }
  });
  it('a jti of fewer than 16 or more than 64 printable ASCII characters is refused: a store key stays small', async () => {
    const { loginWith, me } = setup();
    const key = await dpopKey();
    const token = await loginWith(key);
    // 64 characters of 3 bytes each would be a 192-byte key part in Redis.
    for (const jti of ['short', 'é'.repeat(32), '€'.repeat(64), 'a'.repeat(65), 'with space 0123456789']) {
      assertRefused(
        await me(call('/api/me', `DPoP ${token}`, await dpopProof(key, 'GET', `${SITE}/api/me`, { token, jti }))),
        'invalid_dpop_proof',
      );
    }
    const longest = 'a'.repeat(64);
    assert.equal(
      (await me(call('/api/me', `DPoP ${token}`, await dpopProof(key, 'GET', `${SITE}/api/me`, { token, jti: longest })))).status,
      200,
    );
  });
  it('renew answers a token bound to the same key, and needs a proof by it', async () => {
    const { loginWith, sessions } = setup();
    const key = await dpopKey();
    const token = await loginWith(key);
    const response = await sessions.renew(
      call('/auth/renew', `DPoP ${token}`, await dpopProof(key, 'POST', `${SITE}/auth/renew`, { token }), 'POST'),
    );
    assert.equal(response.status, 200);
    const fresh = ((await response.json()) as { gameToken: string }).gameToken;
    assert.deepEqual(jose.decodeJwt(fresh)['cnf'], { jkt: key.jkt });
  });
  it('CORS preflights allow the DPoP header, on the token endpoint and the routes', async () => {
    const { handler, me } = setup();
    const preflight = (url: string) =>
      new Request(url, {
        method: 'OPTIONS',
        headers: { Origin: GAME, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization,dpop' },
      });
    for (const answer of [await handler(preflight(`${SITE}/auth/itch`)), await me(preflight(`${SITE}/api/me`))]) {
      assert.match(answer.headers.get('access-control-allow-headers') ?? '', /\bDPoP\b/);
      assert.equal(answer.headers.get('access-control-allow-origin'), GAME);
    }
  });
});

describe('a proof on two instances that share a real Redis', { skip: redisMissing }, () => {
  const redis = useRedis('itch-dpop-test');
  it('the same proof on two instances is accepted once', async () => {
    const a = setup({ store: (await redis.store()).store });
    const b = setup({ store: (await redis.store()).store });
    const key = await dpopKey();
    const token = await a.loginWith(key);
    const once = await dpopProof(key, 'GET', `${SITE}/api/me`, { token });
    const answers = await Promise.all([a.me(call('/api/me', `DPoP ${token}`, once)), b.me(call('/api/me', `DPoP ${token}`, once))]);
    assert.deepEqual(answers.map((answer) => answer.status).sort(), [200, 401]);
    assertRefused(await a.me(call('/api/me', `DPoP ${token}`, once)), 'invalid_dpop_proof');
    // Each instance takes a fresh proof.
    assert.equal((await b.me(call('/api/me', `DPoP ${token}`, await dpopProof(key, 'GET', `${SITE}/api/me`, { token })))).status, 200);
  });
});
