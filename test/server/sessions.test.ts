// createSessions behind createTokenHandler (over a fake itch.io): site cookies for the site's own
// pages, game tokens for framed games, and the attacks on each: forgery, tampering, replay after
// expiry, algorithm confusion, CSRF, cookie tossing, carrier swapping, leaks; rotation, renewal,
// revocation with a store, CORS. A real Redis shared by two instances at the end.
import assert from 'node:assert/strict';
import { createServer as createHttpServer } from 'node:http';
import { afterEach, beforeEach, describe, it } from 'node:test';
import * as jose from 'jose';
import { createStorage, type Storage } from 'unstorage';
import memoryDriver from 'unstorage/drivers/memory';
import { createSessions, createTokenHandler, type Session, type Sessions, type SessionsOptions } from '../../src/server/index.js';
import { redisMissing, useRedis } from './support/redis.js';
import { fakeItch as fakeItchFor } from './support/fake-itch.js';

const SITE = 'https://game.example';
const GAME = 'https://html-classic.itch.zone';
const EVIL = 'https://evil.example';
const SECRET = 'correct horse battery staple, 32+ characters long';
const OTHER_SECRET = 'another deployment entirely, also 32+ characters';
const TOKEN = 'ItchAccessToken0123456789abcdefghijklmno';
const user = { id: 1, username: 'leafo', url: 'https://leafo.itch.io', gamer: true, developer: true, press_user: false };

const fakeItch = fakeItchFor(TOKEN, user);

/**
 * Sessions and the token handler that logs in with them, on `site`. Under `dpop: 'optional'`, so
 * that the game tokens here are the unbound kind that the attacks below forge and tamper with
 * as Bearer; tokens bound to a key (the default) are attacked in sessions-dpop.test.ts.
 */
function setup(options: Partial<SessionsOptions> = {}, site = SITE) {
  const sessions = createSessions({ secrets: [SECRET], allowedOrigins: [GAME], origin: site, dpop: 'optional', ...options });
  const handler = createTokenHandler({
    applicationId: 42,
    origin: site,
    fetch: fakeItch,
    allowedOrigins: [GAME],
    onLogin: sessions.onLogin,
    onError: () => undefined,
  });
  /** A login started from `origin` (the site's own pages by default): the answer, its body and cookie. */
  const login = async (origin: string | null = site) => {
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    if (origin !== null) Object.assign(headers, { Origin: origin, 'Sec-Fetch-Site': origin === site ? 'same-origin' : 'cross-site' });
    const response = await handler(
      new Request(`${site}/auth/itch`, { method: 'POST', headers, body: JSON.stringify({ access_token: TOKEN }) }),
    );
    const body = (await response.json()) as { user: unknown; gameToken?: string; owns?: unknown };
    const setCookie = response.headers.get('set-cookie');
    return { response, body, setCookie, cookie: setCookie?.split(';')[0] };
  };
  return { sessions, handler, login };
}

/** A request to the site's API, same-origin GET by default. */
function request(
  init: {
    cookie?: string | undefined;
    bearer?: string | undefined;
    method?: string | undefined;
    origin?: string | undefined;
    site?: string | undefined;
    url?: string | undefined;
  } = {},
): Request {
  const headers = new Headers();
  if (init.cookie !== undefined) headers.set('Cookie', init.cookie);
  if (init.bearer !== undefined) headers.set('Authorization', `Bearer ${init.bearer}`);
  if (init.origin !== undefined) headers.set('Origin', init.origin);
  if (init.site !== undefined) headers.set('Sec-Fetch-Site', init.site);
  return new Request(init.url ?? `${SITE}/api/me`, { method: init.method ?? 'GET', headers });
}

const cookieValue = (cookie: string) => cookie.slice(cookie.indexOf('=') + 1);
const withValue = (cookie: string, value: string) => `${cookie.slice(0, cookie.indexOf('='))}=${value}`;
/** Changes one character in the middle of part `index` of a compact JWS/JWE. */
function tamper(compact: string, index: number): string {
  const parts = compact.split('.');
  const part = parts[index]!;
  const at = Math.floor(part.length / 2);
  parts[index] = part.slice(0, at) + (part[at] === 'A' ? 'B' : 'A') + part.slice(at + 1);
  return parts.join('.');
}
/** Runs `body` with the clock (Date.now and new Date()) moved by `shiftS` seconds. */
async function at<T>(shiftS: number, body: () => Promise<T>): Promise<T> {
  const RealDate = Date;
  const shifted = class extends RealDate {
    constructor(...args: unknown[]) {
      if (args.length === 0) super(RealDate.now() + shiftS * 1000);
      else super(...(args as [number]));
    }
    static override now() {
      return RealDate.now() + shiftS * 1000;
    }
  };
  globalThis.Date = shifted as DateConstructor;
  try {
    return await body();
  } finally {
    globalThis.Date = RealDate;
  }
}
const b64 = (part: string) => Buffer.from(part, 'base64url').toString('latin1');

describe('createSessions options', () => {
  it('refuses no secrets, an empty list and a short secret with a TypeError naming no secret', () => {
    assert.throws(() => createSessions({} as SessionsOptions), TypeError);
    assert.throws(() => createSessions({ secrets: [] }), TypeError);
    assert.throws(
      () => createSessions({ secrets: [SECRET, 'short-secret-of-31-characters!!'] }),
      (error: Error) => {
        assert.ok(error instanceof TypeError);
        assert.match(error.message, /secrets\[1\]/);
        assert.doesNotMatch(error.message, /short-secret/);
        return true;
      },
    );
  });
});

describe('site sessions (cookie)', () => {
  it('a login from the site itself answers { user } with a __Host- cookie on https', async () => {
    const { login, sessions } = setup();
    const { response, body, setCookie, cookie } = await login();
    assert.equal(response.status, 200);
    assert.deepEqual(body, { user });
    assert.match(setCookie!, /^__Host-itch-session=[^;]+; Max-Age=604800; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
    const session = await sessions.get(request({ cookie }));
    assert.equal(session?.via, 'cookie');
    assert.deepEqual(session?.user, user);
    assert.deepEqual(session?.scopes, ['profile:me']);
    assert.equal(session?.token, undefined);
    assert.ok(session!.expiresAt.getTime() - session!.issuedAt.getTime() === 604800_000);
  });

  it('on http, the cookie is itch-session without Secure', async () => {
    const { login, sessions } = setup({}, 'http://localhost:5173');
    const { setCookie, cookie } = await login();
    assert.match(setCookie!, /^itch-session=[^;]+; Max-Age=604800; Path=\/; HttpOnly; SameSite=Lax$/);
    assert.ok(await sessions.get(request({ cookie, url: 'http://localhost:5173/api/me' })));
  });

  it('gives a new cookie value at every login', async () => {
    const { login } = setup();
    assert.notEqual((await login()).cookie, (await login()).cookie);
  });

  it('keeps the itch.io token only with keepToken, and only readable through get', async () => {
    const { login, sessions } = setup({ keepToken: true });
    const { cookie } = await login();
    assert.equal((await sessions.get(request({ cookie })))?.token, TOKEN);
    for (const part of cookieValue(cookie!).split('.')) assert.ok(!b64(part).includes(TOKEN) && !part.includes(TOKEN));
  });

  it('maxAge sets Max-Age and the expiry', async () => {
    const { login, sessions } = setup({ maxAge: 600 });
    const { setCookie, cookie } = await login();
    assert.match(setCookie!, /Max-Age=600;/);
    const session = (await sessions.get(request({ cookie })))!;
    assert.equal(session.expiresAt.getTime() - session.issuedAt.getTime(), 600_000);
  });
});

describe('attacks on the cookie', () => {
  let sessions: Sessions;
  let cookie: string;
  beforeEach(async () => {
    const setupped = setup();
    sessions = setupped.sessions;
    cookie = (await setupped.login()).cookie!;
  });
  const none = async (value: string, init: Parameters<typeof request>[0] = {}) =>
    assert.equal(await sessions.get(request({ cookie: withValue(cookie, value), ...init })), undefined);

  it('a tampered cookie (header, IV, ciphertext or tag) is refused', async () => {
    for (const index of [0, 2, 3, 4]) await none(tamper(cookieValue(cookie), index));
  });
  it('a truncated cookie is refused', async () => {
    await none(cookieValue(cookie).slice(0, -3));
    await none(cookieValue(cookie).split('.').slice(0, 4).join('.'));
  });
  it("a cookie of another deployment's secret is refused, even under this deployment's key id", async () => {
    const other = setup({ secrets: [OTHER_SECRET] });
    await none(cookieValue((await other.login()).cookie!));
    const { kid } = jose.decodeProtectedHeader(cookieValue(cookie));
    const forged = await new jose.EncryptJWT({ sub: '1', sid: 'x', scope: 'profile:me', user, auth_time: 1, host: true })
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM', kid: kid!, typ: 'itch-session+jwt' })
      .setIssuedAt()
      .setExpirationTime('1h')
      .encrypt(crypto.getRandomValues(new Uint8Array(32)));
    await none(forged);
  });
  it('an unencrypted cookie (alg none) is refused', async () => {
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'itch-session+jwt' })).toString('base64url');
    const payload = Buffer.from(
      JSON.stringify({ sub: '1', sid: 'x', iat: 1, exp: 9e9, scope: '', user, auth_time: 1, host: true }),
    ).toString('base64url');
    await none(`${header}.${payload}.`);
    await none(`${header}..${payload}..`);
  });
  it('an expired cookie is refused', async () => {
    const old = await at(-8 * 24 * 3600, () => setup().login());
    await none(cookieValue(old.cookie!));
  });
  it('a cookie issued in the future (not yet valid) is refused', async () => {
    const future = await at(3600, () => setup().login());
    await none(cookieValue(future.cookie!));
  });
  it('a __Host- session planted under the plain name (cookie tossing) is refused, even once read under its own', async () => {
    assert.ok(await sessions.get(request({ cookie })));
    assert.equal(await sessions.get(request({ cookie: `itch-session=${cookieValue(cookie)}` })), undefined);
  });
  it('a game token presented as the cookie is refused', async () => {
    const { body } = await setup().login(GAME);
    await none(body.gameToken!);
  });
  it('a cookie presented as a Bearer token is refused', async () => {
    assert.equal(await sessions.get(request({ bearer: cookieValue(cookie) }), { allow: ['game'] }), undefined);
    assert.equal(await sessions.get(request({ bearer: cookieValue(cookie) }), { allow: ['game', 'cookie'] }), undefined);
  });
  it('a cross-site POST with the cookie gets no session (CSRF)', async () => {
    for (const init of [
      { origin: EVIL, site: 'cross-site' },
      { origin: 'https://sub.game.example', site: 'same-site' },
      { origin: EVIL },
      {},
      { origin: 'null' },
    ]) {
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'])
        assert.equal(await sessions.get(request({ cookie, method, ...init })), undefined, `${method} ${JSON.stringify(init)}`);
    }
  });
  it('a same-origin POST with the cookie gets the session', async () => {
    assert.ok(await sessions.get(request({ cookie, method: 'POST', origin: SITE })));
    assert.ok(await sessions.get(request({ cookie, method: 'DELETE', site: 'same-origin' })));
  });
  it('a cross-site GET with the cookie gets the session, as SameSite=Lax sends it', async () => {
    assert.ok(await sessions.get(request({ cookie, site: 'cross-site' })));
  });
  it('the cookie does not count where allow leaves it out', async () => {
    assert.equal(await sessions.get(request({ cookie }), { allow: ['game'] }), undefined);
  });
});

describe('game tokens', () => {
  it('a login from an allowed origin answers { user, gameToken } and no cookie', async () => {
    const { login } = setup();
    const { response, body, setCookie } = await login(GAME);
    assert.equal(response.status, 200);
    assert.equal(setCookie, null);
    assert.deepEqual(Object.keys(body).sort(), ['gameToken', 'user']);
    assert.equal(response.headers.get('access-control-allow-origin'), GAME);
  });

  it('a login confirmed by code or from no browser (startedFrom null) gets a game token', async () => {
    const { login } = setup();
    const { body, setCookie } = await login(null);
    assert.equal(setCookie, null);
    assert.equal(typeof body.gameToken, 'string');
  });

  it('is a JWT with typ, EdDSA, kid, sub, iat, exp and aud, and no itch.io token anywhere', async () => {
    const { body } = await setup({ keepToken: true }).login(GAME);
    const header = jose.decodeProtectedHeader(body.gameToken!);
    assert.deepEqual({ ...header, kid: typeof header.kid }, { alg: 'EdDSA', typ: 'JWT', kid: 'string' });
    const claims = jose.decodeJwt(body.gameToken!);
    assert.equal(claims.sub, '1');
    assert.equal(claims.aud, SITE);
    assert.equal(claims.exp! - claims.iat!, 3600);
    for (const part of body.gameToken!.split('.')) assert.ok(!b64(part).includes(TOKEN));
  });

  it('counts only with allow: game, as Session via game, without the token', async () => {
    const { sessions, login } = setup({ keepToken: true });
    const { body } = await login(GAME);
    assert.equal(await sessions.get(request({ bearer: body.gameToken! })), undefined);
    const session = await sessions.get(request({ bearer: body.gameToken!, method: 'POST', origin: GAME }), { allow: ['game'] });
    assert.equal(session?.via, 'game');
    assert.deepEqual(session?.user, user);
    assert.equal(session?.token, undefined);
  });

  it('verifies with createRemoteJWKSet against a server of jwks() alone, and fails after expiry', async () => {
    const { sessions, login } = setup();
    const { body } = await login(GAME);
    const jwks = JSON.stringify(await sessions.jwks());
    const server = createHttpServer((_, response) => response.writeHead(200, { 'Content-Type': 'application/json' }).end(jwks));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const keySet = jose.createRemoteJWKSet(new URL(`http://127.0.0.1:${(server.address() as { port: number }).port}/jwks.json`));
      const { payload, protectedHeader } = await jose.jwtVerify(body.gameToken!, keySet, { audience: SITE, issuer: SITE, typ: 'JWT' });
      assert.equal(payload.sub, '1');
      assert.equal(protectedHeader.alg, 'EdDSA');
      await assert.rejects(
        jose.jwtVerify(body.gameToken!, keySet, { audience: SITE, currentDate: new Date((payload.exp! + 1) * 1000) }),
        jose.errors.JWTExpired,
      );
    } finally {
      server.close();
    }
  });

  it('has the same keys on every instance sharing the secret', async () => {
    const a = setup();
    const b = setup();
    assert.deepEqual(await a.sessions.jwks(), await b.sessions.jwks());
    const { body } = await a.login(GAME);
    assert.ok(await b.sessions.get(request({ bearer: body.gameToken! }), { allow: ['game'] }));
    assert.ok(!JSON.stringify(await a.sessions.jwks()).includes('"d"'));
  });
});

describe('attacks on game tokens', () => {
  let sessions: Sessions;
  let gameToken: string;
  beforeEach(async () => {
    const setupped = setup();
    sessions = setupped.sessions;
    gameToken = (await setupped.login(GAME)).body.gameToken!;
  });
  const none = async (token: string, url?: string) =>
    assert.equal(await sessions.get(request({ bearer: token, url }), { allow: ['game'] }), undefined);

  it('a tampered token (header, payload or signature) is refused', async () => {
    for (const index of [0, 1, 2]) await none(tamper(gameToken, index));
  });
  it('a truncated token is refused', async () => {
    await none(gameToken.slice(0, -4));
    await none(gameToken.split('.').slice(0, 2).join('.'));
  });
  it("a token signed with another deployment's secret is refused, even with this deployment's kid", async () => {
    const other = setup({ secrets: [OTHER_SECRET] });
    await none((await other.login(GAME)).body.gameToken!);
    const { kid } = jose.decodeProtectedHeader(gameToken);
    const { privateKey } = await jose.generateKeyPair('EdDSA');
    await none(
      await new jose.SignJWT(jose.decodeJwt(gameToken)).setProtectedHeader({ alg: 'EdDSA', typ: 'JWT', kid: kid! }).sign(privateKey),
    );
  });
  it('an unsigned token (alg none) is refused', async () => {
    const [, payload] = gameToken.split('.');
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT', kid: jose.decodeProtectedHeader(gameToken).kid })).toString(
      'base64url',
    );
    await none(`${header}.${payload}.`);
    await none(`${header}.${payload}.AAAA`);
  });
  it('an HS256 token signed with the public key (algorithm confusion) is refused', async () => {
    const { keys } = await sessions.jwks();
    const jwk = keys[0] as jose.JWK;
    const claims = jose.decodeJwt(gameToken);
    const spki = await jose.exportSPKI((await jose.importJWK(jwk, 'EdDSA')) as CryptoKey);
    for (const secret of [
      Buffer.from(jwk.x!, 'base64url'),
      new TextEncoder().encode(jwk.x!),
      new TextEncoder().encode(spki),
      new TextEncoder().encode(JSON.stringify(jwk)),
    ]) {
      await none(await new jose.SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: jwk.kid! }).sign(secret));
    }
  });
  it('an expired token is refused', async () => {
    const old = await at(-2 * 3600, () => setup().login(GAME));
    await none(old.body.gameToken!);
  });
  it('a token issued in the future (not yet valid) is refused', async () => {
    const future = await at(3600, () => setup().login(GAME));
    await none(future.body.gameToken!);
  });
  it('a token issued for another origin (aud) is refused by a site of the same secret, even once read on its own', async () => {
    assert.ok(await sessions.get(request({ bearer: gameToken }), { allow: ['game'] }));
    const other = createSessions({ secrets: [SECRET], origin: 'https://other-site.example', dpop: 'optional' });
    const elsewhere = request({ bearer: gameToken, url: 'https://other-site.example/api/me' });
    assert.equal(await other.get(elsewhere, { allow: ['game'] }), undefined);
  });
  it("the audience is the configured origin, whatever Host the request came with (a TLS-ending proxy passes the client's)", async () => {
    const { setCookie } = await setup().login();
    assert.match(setCookie!, /^__Host-itch-session=/);
    const [, payload] = gameToken.split('.');
    assert.equal(JSON.parse(b64(payload!)).aud, SITE);
    // The same token is read wherever the proxy says the request went: the site's origin is configuration.
    assert.ok(await sessions.get(request({ bearer: gameToken, url: 'http://attacker.example/api/me' }), { allow: ['game'] }));
  });
  it('a bad Bearer token is not made up for by a valid cookie', async () => {
    const { cookie } = await setup().login();
    assert.equal(await sessions.get(request({ bearer: tamper(gameToken, 2), cookie }), { allow: ['game', 'cookie'] }), undefined);
  });
});

describe('rotation', () => {
  it('a cookie and a game token of the old secret still count while it is listed, and not once removed', async () => {
    const old = setup();
    const { cookie } = await old.login();
    const { gameToken } = (await old.login(GAME)).body;
    const rotated = createSessions({ secrets: [OTHER_SECRET, SECRET], origin: SITE, dpop: 'optional' });
    assert.ok(await rotated.get(request({ cookie })));
    assert.ok(await rotated.get(request({ bearer: gameToken! }), { allow: ['game'] }));
    assert.equal((await rotated.jwks()).keys.length, 2);
    const removed = createSessions({ secrets: [OTHER_SECRET], origin: SITE, dpop: 'optional' });
    assert.equal(await removed.get(request({ cookie })), undefined);
    assert.equal(await removed.get(request({ bearer: gameToken! }), { allow: ['game'] }), undefined);
  });
  it('the first secret makes new sessions', async () => {
    const rotated = setup({ secrets: [OTHER_SECRET, SECRET] });
    const { cookie } = await rotated.login();
    assert.ok(await createSessions({ secrets: [OTHER_SECRET], origin: SITE }).get(request({ cookie })));
    assert.equal(await createSessions({ secrets: [SECRET], origin: SITE }).get(request({ cookie })), undefined);
  });
});

describe('renew', () => {
  const renewRequest = (bearer?: string) =>
    new Request(`${SITE}/auth/renew`, {
      method: 'POST',
      headers: { Origin: GAME, ...(bearer === undefined ? {} : { Authorization: `Bearer ${bearer}` }) },
    });

  it('answers a fresh game token for a valid one, with CORS for the game', async () => {
    const { sessions, login } = setup();
    const { gameToken } = (await login(GAME)).body;
    const response = await at(60, () => sessions.renew(renewRequest(gameToken)));
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('access-control-allow-origin'), GAME);
    const fresh = ((await response.json()) as { gameToken: string }).gameToken;
    assert.notEqual(fresh, gameToken);
    assert.equal(jose.decodeJwt(fresh).sid, jose.decodeJwt(gameToken!).sid);
    assert.ok(jose.decodeJwt(fresh).exp! > jose.decodeJwt(gameToken!).exp!);
  });
  it('never renews past maxAge after the login', async () => {
    const { sessions, login } = setup({ maxAge: 3 * 3600, gameTokenMaxAge: 3600 });
    const { gameToken } = (await login(GAME)).body;
    const login0 = jose.decodeJwt(gameToken!).auth_time as number;
    // Renewed every 50 minutes, it never outlives the 3-hour session; past it, renewal is refused.
    let token = gameToken!;
    let shift = 0;
    for (let renewals = 0; renewals < 10; renewals++) {
      shift += 50 * 60;
      const response = await at(shift, () => sessions.renew(renewRequest(token)));
      if (response.status !== 200) {
        assert.equal(response.status, 401);
        break;
      }
      token = ((await response.json()) as { gameToken: string }).gameToken;
      assert.ok((jose.decodeJwt(token).exp as number) <= login0 + 3 * 3600, `renewed at +${shift}s past the session's end`);
    }
    assert.ok(shift >= 3 * 3600 - 50 * 60 && shift <= 3 * 3600 + 50 * 60, `refused at +${shift}s`);
  });
  it('refuses no token, a cookie and a tampered token (401)', async () => {
    const { sessions, login } = setup();
    const { cookie } = await login();
    for (const bearer of [undefined, cookieValue(cookie!), tamper((await login(GAME)).body.gameToken!, 1)]) {
      const response = await sessions.renew(renewRequest(bearer));
      assert.equal(response.status, 401);
      assert.equal(response.headers.get('access-control-allow-origin'), GAME);
    }
  });
  it('refuses a revoked session, and get refuses its game tokens', async () => {
    const { sessions, login } = setup({ store: createStorage({ driver: memoryDriver() }) });
    const { gameToken } = (await login(GAME)).body;
    const renewed = ((await (await sessions.renew(renewRequest(gameToken))).json()) as { gameToken: string }).gameToken;
    assert.equal((await sessions.logout(renewRequest(gameToken))).status, 204);
    assert.equal((await sessions.renew(renewRequest(gameToken))).status, 401);
    assert.equal((await sessions.renew(renewRequest(renewed))).status, 401);
    assert.equal(await sessions.get(request({ bearer: renewed }), { allow: ['game'] }), undefined);
  });
});

describe('logout', () => {
  const logoutRequest = (cookie: string | undefined, origin = SITE) =>
    new Request(`${SITE}/logout`, { method: 'POST', headers: { Origin: origin, ...(cookie === undefined ? {} : { Cookie: cookie }) } });

  it('answers 204 clearing the cookie', async () => {
    const { sessions, login } = setup();
    const { cookie } = await login();
    const response = await sessions.logout(logoutRequest(cookie));
    assert.equal(response.status, 204);
    const cleared = response.headers.getSetCookie();
    assert.ok(cleared.some((line) => /^__Host-itch-session=; Max-Age=0; Path=\/; HttpOnly; Secure; SameSite=Lax$/.test(line)));
    assert.ok(cleared.some((line) => /^itch-session=; Max-Age=0;/.test(line)));
  });
  it('without a store, a copy of the cookie still counts (stateless, as documented)', async () => {
    const { sessions, login } = setup();
    const { cookie } = await login();
    await sessions.logout(logoutRequest(cookie));
    assert.ok(await sessions.get(request({ cookie })));
  });
  it('with a store, the cookie counts no more, and a new login is a new session', async () => {
    const { sessions, login } = setup({ store: createStorage({ driver: memoryDriver() }) });
    const { cookie } = await login();
    await sessions.logout(logoutRequest(cookie));
    assert.equal(await sessions.get(request({ cookie })), undefined);
    assert.ok(await sessions.get(request({ cookie: (await login()).cookie })));
  });
  it('a new login revokes the session the browser had, with a store', async () => {
    const { sessions, handler } = setup({ store: createStorage({ driver: memoryDriver() }) });
    const login = async (cookie?: string) => {
      const response = await handler(
        new Request(`${SITE}/auth/itch`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Origin: SITE, ...(cookie ? { Cookie: cookie } : {}) },
          body: JSON.stringify({ access_token: TOKEN }),
        }),
      );
      return response.headers.get('set-cookie')!.split(';')[0]!;
    };
    const before = await login();
    const after = await login(before);
    assert.equal(await sessions.get(request({ cookie: before })), undefined);
    assert.ok(await sessions.get(request({ cookie: after })));
  });
  it('refuses a cross-site logout (403) and a GET (405)', async () => {
    const { sessions, login } = setup({ store: createStorage({ driver: memoryDriver() }) });
    const { cookie } = await login();
    assert.equal((await sessions.logout(logoutRequest(cookie, EVIL))).status, 403);
    assert.equal((await sessions.logout(request({ cookie, url: `${SITE}/logout` }))).status, 405);
    assert.ok(await sessions.get(request({ cookie })));
  });
});

describe('route', () => {
  const handler = (_: Request, session: Session) => Response.json({ id: session.user.id, via: session.via });

  it('answers a preflight from an allowed origin with Authorization, Content-Type and DPoP allowed', async () => {
    const api = setup().sessions.route({ allow: ['game'] }, handler);
    const response = await api(
      new Request(`${SITE}/api/save`, {
        method: 'OPTIONS',
        headers: { Origin: GAME, 'Access-Control-Request-Method': 'PUT', 'Access-Control-Request-Headers': 'authorization,content-type' },
      }),
    );
    assert.equal(response.status, 204);
    assert.equal(response.headers.get('access-control-allow-origin'), GAME);
    assert.equal(response.headers.get('access-control-allow-headers'), 'Authorization, Content-Type, DPoP');
    assert.match(response.headers.get('access-control-allow-methods')!, /PUT/);
    assert.equal(response.headers.get('access-control-allow-credentials'), null);
  });
  it('refuses a preflight from another origin', async () => {
    const api = setup().sessions.route({ allow: ['game'] }, handler);
    const response = await api(
      new Request(`${SITE}/api/save`, { method: 'OPTIONS', headers: { Origin: EVIL, 'Access-Control-Request-Method': 'PUT' } }),
    );
    assert.equal(response.status, 403);
    assert.equal(response.headers.get('access-control-allow-origin'), null);
  });
  it('answers 401 { errors } with CORS headers without a session, and never calls the handler', async () => {
    let called = false;
    const api = setup().sessions.route({ allow: ['game'] }, () => ((called = true), new Response()));
    const response = await api(request({ method: 'PUT', origin: GAME }));
    assert.equal(response.status, 401);
    assert.equal(response.headers.get('access-control-allow-origin'), GAME);
    assert.deepEqual(await response.json(), { errors: ['not signed in'] });
    assert.equal(called, false);
  });
  it('calls the handler with the session and adds CORS headers to its answer', async () => {
    const { sessions, login } = setup();
    const { gameToken } = (await login(GAME)).body;
    const response = await sessions.route({ allow: ['game'] }, handler)(request({ bearer: gameToken!, method: 'PUT', origin: GAME }));
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('access-control-allow-origin'), GAME);
    assert.deepEqual(await response.json(), { id: 1, via: 'game' });
  });
  it('gives no CORS headers to an origin not listed', async () => {
    const { sessions, login } = setup();
    const { gameToken } = (await login(GAME)).body;
    const response = await sessions.route({ allow: ['game'] }, handler)(request({ bearer: gameToken!, origin: EVIL }));
    assert.equal(response.headers.get('access-control-allow-origin'), null);
  });
  it('with allow: cookie (the default), a site page gets its session and a game token is refused', async () => {
    const { sessions, login } = setup();
    const api = sessions.route({}, handler);
    assert.deepEqual(await (await api(request({ cookie: (await login()).cookie }))).json(), { id: 1, via: 'cookie' });
    assert.equal((await api(request({ bearer: (await login(GAME)).body.gameToken! }))).status, 401);
  });
});

describe('nothing secret leaks', () => {
  const lines: string[] = [];
  const originals = { log: console.log, warn: console.warn, error: console.error, info: console.info, debug: console.debug };
  beforeEach(() => {
    for (const name of Object.keys(originals) as (keyof typeof originals)[])
      console[name] = (...args: unknown[]) => void lines.push(args.map(String).join(' '));
  });
  afterEach(() => Object.assign(console, originals));

  it('no error, log line or answer holds the secret, the itch.io token, a cookie or a game token', async () => {
    const store = createStorage({ driver: memoryDriver() });
    const failing = {
      ...store,
      getItem: () => Promise.reject(new Error(`connection lost: GET itch-session:revoked:${SECRET} ${TOKEN}`)),
      setItem: () => Promise.reject(new Error(`OOM ${TOKEN}`)),
    } as unknown as Storage;
    const { sessions, login } = setup({ keepToken: true });
    const broken = setup({ keepToken: true, store: failing }).sessions;
    const { cookie } = await login();
    const { gameToken } = (await login(GAME)).body;
    const secrets = [SECRET, TOKEN, cookieValue(cookie!), gameToken!];
    const texts: string[] = [];
    const record = async (response: Response) =>
      texts.push(JSON.stringify([...response.headers].filter(([name]) => name !== 'set-cookie')), await response.text());
    const caught = async (promise: Promise<unknown>) => {
      try {
        const value = await promise;
        if (value instanceof Response) await record(value);
      } catch (error) {
        texts.push(String(error), (error as Error).stack ?? '', JSON.stringify(error));
      }
    };
    await caught(broken.get(request({ cookie })));
    await caught(broken.get(request({ bearer: gameToken! }), { allow: ['game'] }));
    await caught(broken.renew(request({ bearer: gameToken! })));
    await caught(broken.logout(request({ cookie, method: 'POST', origin: SITE })));
    await caught(broken.route({ allow: ['game'] }, () => new Response())(request({ bearer: gameToken! })));
    await caught(sessions.renew(request({ bearer: tamper(gameToken!, 1) })));
    await caught(sessions.route({}, () => new Response())(request({ cookie: tamper(cookie!, 3) })));
    await caught(Promise.resolve().then(() => createSessions({ secrets: [SECRET.slice(0, 31)] })));
    assert.ok(
      texts.some((text) => /session store failed \(Error OOM\)|session store failed \(Error\)/.test(text)),
      texts.join('\n'),
    );
    for (const text of [...texts, ...lines])
      for (const secret of secrets)
        assert.ok(!text.includes(secret) && !text.includes(secret.slice(0, 31)), `leaked in: ${text.slice(0, 200)}`);
  });

  it('without keepToken, no part of the cookie or game token holds the itch.io token, even decrypted', async () => {
    const { sessions, login } = setup();
    const { cookie } = await login();
    const { gameToken } = (await login(GAME)).body;
    for (const part of [...cookieValue(cookie!).split('.'), ...gameToken!.split('.')]) assert.ok(!b64(part).includes(TOKEN));
    const session = await sessions.get(request({ cookie }));
    assert.ok(session && !JSON.stringify(session).includes(TOKEN));
    // Decrypted with the key derived as keys.ts documents it: the token is not inside either.
    const material = await crypto.subtle.importKey('raw', new TextEncoder().encode(SECRET), 'HKDF', false, ['deriveBits']);
    const bits = await crypto.subtle.deriveBits(
      {
        name: 'HKDF',
        hash: 'SHA-256',
        salt: new TextEncoder().encode('itch-oauth-widget sessions'),
        info: new TextEncoder().encode('cookie A256GCM key'),
      },
      material,
      256,
    );
    const { payload } = await jose.jwtDecrypt(cookieValue(cookie!), new Uint8Array(bits));
    assert.equal(payload['sub'], '1');
    assert.ok(!JSON.stringify(payload).includes(TOKEN));
  });
});

describe('logout everywhere through a real Redis shared by two instances', { skip: redisMissing }, () => {
  const redis = useRedis('itch-sessions-test');
  let ttlOf: (key: string) => Promise<number>;
  const redisStore = async () => {
    const { store, client } = await redis.store();
    ttlOf = (key) => client.ttl(`itch-sessions-test:${key}`);
    return store;
  };

  it('a logout on one instance ends the cookie session and the game tokens on the other', async () => {
    const a = setup({ store: await redisStore() });
    const b = setup({ store: await redisStore() });
    const { cookie } = await a.login();
    const { gameToken } = (await a.login(GAME)).body;
    assert.ok(await b.sessions.get(request({ cookie })));
    assert.ok(await b.sessions.get(request({ bearer: gameToken! }), { allow: ['game'] }));

    assert.equal((await a.sessions.logout(request({ cookie, method: 'POST', origin: SITE }))).status, 204);
    assert.equal((await a.sessions.logout(request({ bearer: gameToken!, method: 'POST', origin: GAME }))).status, 204);
    assert.equal(await b.sessions.get(request({ cookie })), undefined);
    assert.equal(await b.sessions.get(request({ bearer: gameToken! }), { allow: ['game'] }), undefined);
    assert.equal((await b.sessions.renew(request({ bearer: gameToken! }))).status, 401);
    // Kept only until the session would have expired anyway.
    const ttl = await ttlOf(`itch-session:revoked:${jose.decodeJwt(gameToken!).sid}`);
    assert.ok(ttl > 6 * 24 * 3600 && ttl <= 7 * 24 * 3600, `TTL ${ttl}`);
  });
});

describe('with the store down', () => {
  it('logout and renew answer 503 with Retry-After (nothing revoked, the cookie kept), as a route does, and work again once it is back', async () => {
    const store = createStorage({ driver: memoryDriver() });
    let down = true;
    const flaky = {
      ...store,
      getItem: (...args: Parameters<Storage['getItem']>) => (down ? Promise.reject(new Error('ECONNREFUSED')) : store.getItem(...args)),
      setItem: (...args: Parameters<Storage['setItem']>) => (down ? Promise.reject(new Error('ECONNREFUSED')) : store.setItem(...args)),
    } as unknown as Storage;
    const { sessions, login } = setup({ store: flaky });
    const { cookie } = await login();
    const { gameToken } = (await login(GAME)).body;
    const logout = await sessions.logout(request({ cookie, method: 'POST', origin: SITE, site: 'same-origin' }));
    assert.equal(logout.status, 503);
    assert.equal(logout.headers.get('retry-after'), '1');
    assert.equal(logout.headers.get('set-cookie'), null, 'the cookie is kept: the session was not revoked');
    const renewed = await sessions.renew(request({ bearer: gameToken!, method: 'POST', origin: GAME }));
    assert.equal(renewed.status, 503);
    assert.equal(renewed.headers.get('retry-after'), '1');
    assert.equal(renewed.headers.get('access-control-allow-origin'), GAME, 'with CORS, so the game can read it');
    const routed = await sessions.route({ allow: ['game'] }, () => new Response())(request({ bearer: gameToken!, origin: GAME }));
    assert.equal(routed.status, 503);

    down = false;
    assert.equal((await sessions.logout(request({ cookie, method: 'POST', origin: SITE, site: 'same-origin' }))).status, 204);
    assert.equal(await sessions.get(request({ cookie })), undefined, 'revoked once the store is back');
    assert.equal((await sessions.renew(request({ bearer: gameToken!, method: 'POST', origin: GAME }))).status, 200);
  });
});
