/*
 * createSessions: the session a site gives after `createTokenHandler` verified a login, without
 * a database. The site's own pages get an encrypted cookie; framed games (which cannot use the
 * site's cookie, third-party in their frame) get a signed game token.
 */
import type { Storage } from 'unstorage';
import { ownOrigin } from '../own-origin.js';
import { misconfigured, noOrigin, unauthorized } from './refusals.js';
import { readAllow, seconds } from './checks.js';
import { parseAllowedOrigins } from '../request-guard.js';
import type { LoginContext, LoginResult } from '../token-handler/index.js';
import { preflight, withCors } from './cors.js';
import { readBearer, signGameToken, verifyGameToken } from './game-token.js';
import { assertSecrets, deriveKeys, type DeploymentKeys } from './keys.js';
import { createRevocations, SessionStoreError } from './revocation.js';
import { newSessionId, sessionOf, type Session, type SessionClaims } from './session.js';
import { createVerifiedCache } from './verified-cache.js';
import {
  clearingCookies,
  cookieMayCount,
  openCookie,
  PLAIN_COOKIE,
  readCookie,
  sealCookie,
  SECURE_COOKIE,
  sessionCookie,
  type CookieClaims,
} from './site-cookie.js';

export interface SessionsOptions {
  /**
   * The deployment's secrets, each at least 32 characters (e.g. `openssl rand -base64 32`). The
   * first encrypts cookies and signs game tokens; all of them are accepted, so a new secret is
   * put first and the old one removed once its sessions have expired (`maxAge`). Every instance
   * given the same secrets derives the same keys.
   */
  secrets: readonly string[];
  /** Site session lifetime in seconds; also the latest a game token can be renewed to after its login. Default 7 days. */
  maxAge?: number | undefined;
  /** Game token lifetime in seconds (renew it with `renew`). Default 1 hour. */
  gameTokenMaxAge?: number | undefined;
  /**
   * Keep the itch.io access token in the site cookie (encrypted with the rest), as
   * `session.token`, for the app's own calls to itch.io. Default `false`: the token is dropped
   * once the login is verified. Never in a game token, which the game can read.
   */
  keepToken?: boolean | undefined;
  /**
   * Any `unstorage` `Storage` (e.g. Redis) that all instances share, making `logout` revoke the
   * session everywhere: every instance then refuses its cookie and its game tokens until they
   * would have expired. `get` and `renew` then ask the store once per call.
   *
   * Without it, sessions are stateless: `logout` only removes the cookie from the browser that
   * asked, and a copy of that cookie, or a game token, stays valid until its `exp` (`maxAge`
   * for a cookie, `gameTokenMaxAge` for a game token; a game token cannot be renewed past
   * `maxAge` after its login).
   */
  store?: Storage | undefined;
  /**
   * Origins whose logins get a game token instead of a cookie, and whose requests `route` and
   * `renew` answer with CORS: the framed games' origins (often the token handler's
   * `allowedOrigins`, without the site's own public origin, whose logins must get a cookie).
   */
  allowedOrigins?: readonly string[] | undefined;
  /**
   * This site's public origin as the browser sees it, e.g. `https://example.com` (as the token
   * handler's): only a login started there gets the cookie, `__Host-` on https (the plain name
   * only on http); the same-origin check of unsafe methods; game tokens' `iss` and `aud`. Never
   * from `request.url` or `Host`; without it, only loopback requests are served.
   */
  origin?: string | undefined;
}

/** Which credentials a request may be authenticated with. */
export type SessionCarrier = Session['via'];

export interface Sessions {
  /**
   * For `createTokenHandler({ onLogin: sessions.onLogin })`. Decides by `context.startedFrom`
   * alone: a login started from the site's own `origin` is answered 200 `{ user, owns? }` with a
   * new session cookie; one started from one of `allowedOrigins`, or confirmed by code (`null`),
   * 200 `{ user, owns?, gameToken }` and no cookie; any other is refused (403) and logged.
   */
  onLogin(context: LoginContext): Promise<LoginResult>;
  /**
   * The session of a request, or `undefined`. `allow` says which credentials count: the site
   * cookie (default), game tokens (`Authorization: Bearer`), or both. A cookie does not count on
   * a method other than GET, HEAD or OPTIONS unless the request is same-origin. A game token
   * counts only on the origin it was issued by (its `aud`, the site's `origin`).
   * @throws SessionStoreError when the `store` fails; TypeError where the site has no `origin` and the request is not on loopback.
   */
  get(request: Request, options?: { allow?: readonly SessionCarrier[] | undefined }): Promise<Session | undefined>;
  /**
   * POST (or DELETE): 204, removing the cookie; with `store`, revokes the session of the cookie
   * or of the game token (`Authorization: Bearer`) everywhere. A cross-site request is refused
   * (403), another method too (405).
   */
  logout(request: Request): Promise<Response>;
  /** The public keys that verify game tokens, of every secret: serve them as JSON (`Response.json(await sessions.jwks())`). */
  jwks(): Promise<{ keys: JsonWebKey[] }>;
  /**
   * For a valid game token in `Authorization: Bearer`: 200 `{ gameToken }`, a new one that expires
   * `gameTokenMaxAge` from now but never later than `maxAge` after the login, and never for a
   * revoked session; else 401. Answers CORS preflights and adds CORS headers for `allowedOrigins`.
   */
  renew(request: Request): Promise<Response>;
  /**
   * An endpoint of the app's API: answers CORS preflights for `allowedOrigins`, answers 401
   * `{ errors }` (with CORS headers) without a session that `allow` accepts, else calls
   * `handler(request, session)` and adds the CORS headers to its answer.
   */
  route(
    options: { allow?: readonly SessionCarrier[] | undefined },
    handler: (request: Request, session: Session) => Response | Promise<Response>,
  ): (request: Request) => Promise<Response>;
}

const DAY_S = 24 * 60 * 60;
/** Seconds of clock difference tolerated between instances (RFC 7519 section 4.1.4 "small leeway"). */
const CLOCK_TOLERANCE_S = 30;
/** Browsers keep at least 4096 bytes per cookie (RFC 6265bis section 5.7); beyond, they drop it silently. */
const MAX_COOKIE_BYTES = 4096;

/**
 * Creates the sessions of a site: stateless encrypted cookies for its pages, signed game tokens
 * for framed games, rotation of secrets and, with a `store`, logout everywhere. Web Crypto only.
 *
 * @throws TypeError for bad options.
 * @see https://www.rfc-editor.org/rfc/rfc7516 (cookies), https://www.rfc-editor.org/rfc/rfc7519 (game tokens), https://www.rfc-editor.org/rfc/rfc8725
 */
export function createSessions(options: SessionsOptions): Sessions {
  const secrets = assertSecrets(options?.secrets);
  const maxAge = seconds(options.maxAge ?? 7 * DAY_S, 'maxAge');
  const gameTokenMaxAge = seconds(options.gameTokenMaxAge ?? 60 * 60, 'gameTokenMaxAge');
  const keepToken = options.keepToken ?? false;
  if (typeof keepToken !== 'boolean') throw new TypeError('keepToken must be a boolean');
  const gameOrigins = parseAllowedOrigins(options.allowedOrigins ?? []);
  const ownOf = ownOrigin(options.origin, 'createSessions');
  /** The site's origin for this request; throws where it is neither configured nor loopback. */
  const own = (request: Request): string => ownOf(request) ?? noOrigin();
  const revocations = createRevocations(options.store);

  // Web Crypto is asynchronous: the keys are derived once, on first use.
  let derived: Promise<DeploymentKeys> | undefined;
  const keys = () => (derived ??= deriveKeys(secrets));
  const now = () => Math.floor(Date.now() / 1000);
  const revoked = async (sid: string) => revocations !== undefined && (await revocations.isRevoked(sid));

  const openedCookies = createVerifiedCache<CookieClaims>();
  const cookieClaims = async (request: Request): Promise<CookieClaims | undefined> => {
    const host = own(request).startsWith('https:');
    const value = readCookie(request, host);
    if (value === undefined) return undefined;
    // The cookie's name is part of the key: a __Host- value planted under the plain name is not found.
    const key = `${host ? SECURE_COOKIE : PLAIN_COOKIE}=${value}`;
    const known = openedCookies.get(key);
    if (known !== undefined) return known;
    const claims = await openCookie(value, (await keys()).cookie, { host, maxAge, clockTolerance: CLOCK_TOLERANCE_S });
    if (claims !== undefined) openedCookies.set(key, claims);
    return claims;
  };
  const verifiedTokens = createVerifiedCache<SessionClaims>();
  const gameClaims = async (request: Request): Promise<SessionClaims | undefined> => {
    const token = readBearer(request);
    if (token === undefined) return undefined;
    // The origin is part of the key: a token is valid only where its `aud` is.
    const origin = own(request);
    const key = `${origin} ${token}`;
    const known = verifiedTokens.get(key);
    if (known !== undefined) return known;
    const claims = await verifyGameToken(token, (await keys()).signing, {
      origin,
      maxAge: gameTokenMaxAge,
      clockTolerance: CLOCK_TOLERANCE_S,
    });
    if (claims !== undefined) verifiedTokens.set(key, claims);
    return claims;
  };

  const get: Sessions['get'] = async (request, { allow } = {}) => {
    const carriers = readAllow(allow ?? ['cookie']);
    if (carriers.has('game') && request.headers.has('authorization')) {
      // A Bearer credential decides alone: a bad one is not made up for by a cookie.
      const claims = await gameClaims(request);
      return claims === undefined || (await revoked(claims.sid)) ? undefined : sessionOf(claims, 'game');
    }
    if (!carriers.has('cookie') || !cookieMayCount(request, own(request))) return undefined;
    const claims = await cookieClaims(request);
    if (claims === undefined || (await revoked(claims.sid))) return undefined;
    return sessionOf(claims, 'cookie', keepToken ? claims.itch_token : undefined);
  };

  const onLogin: Sessions['onLogin'] = async ({ user, scopes, token, request, owns, startedFrom }) => {
    const site = own(request);
    const iat = now();
    const claims: SessionClaims = { sub: String(user.id), iat, exp: 0, sid: newSessionId(), auth_time: iat, scope: scopes.join(' '), user };
    if (owns !== undefined) claims.owns = owns;
    const answer = owns === undefined ? { user } : { user, owns };

    if (startedFrom !== site) {
      // Fails closed: a game token only for the games' origins and a code-confirmed login, no
      // session at all for a login started anywhere else.
      if (startedFrom !== null && !gameOrigins.has(startedFrom)) {
        const why = `a login started from ${startedFrom} gets no session: it is neither this site (${site}) nor in createSessions' allowedOrigins`;
        console.warn(`itch-oauth-widget: refused (403): ${why}`);
        return Response.json({ errors: [why] }, { status: 403, headers: { 'Cache-Control': 'no-store' } });
      }
      const gameToken = await signGameToken({ ...claims, exp: iat + Math.min(gameTokenMaxAge, maxAge) }, site, (await keys()).signing);
      return Response.json({ ...answer, gameToken }, { headers: { 'Cache-Control': 'no-store' } });
    }

    // A new session id at every login (no session fixation); with a store, the one this browser had ends.
    if (revocations !== undefined) {
      const previous = await cookieClaims(request);
      if (previous !== undefined) await revocations.revoke(previous.sid, previous.exp);
    }
    const host = site.startsWith('https:');
    const sealed: CookieClaims = { ...claims, exp: iat + maxAge, host };
    if (keepToken) sealed.itch_token = token;
    const cookie = sessionCookie(await sealCookie(sealed, (await keys()).cookie), host, maxAge);
    if (cookie.length > MAX_COOKIE_BYTES) {
      throw new Error(
        `the session cookie would be ${cookie.length} bytes, more than browsers keep (${MAX_COOKIE_BYTES}): the user's profile or ownership list is too large`,
      );
    }
    return { headers: { 'Set-Cookie': cookie } };
  };

  const logout: Sessions['logout'] = async (request) => {
    if (ownOf(request) === undefined) return misconfigured();
    const early = preflight(request, gameOrigins);
    if (early !== undefined) return early;
    if (request.method !== 'POST' && request.method !== 'DELETE') {
      return withCors(
        request,
        gameOrigins,
        own(request),
        Response.json(
          { errors: [`method ${request.method} not allowed: POST to log out`] },
          { status: 405, headers: { Allow: 'POST, DELETE' } },
        ),
      );
    }
    const bearer = request.headers.has('authorization');
    if (!bearer && !cookieMayCount(request, own(request))) return Response.json({ errors: ['cross-site logout refused'] }, { status: 403 });
    const claims = bearer ? await gameClaims(request) : await cookieClaims(request);
    if (claims !== undefined && revocations !== undefined)
      await revocations.revoke(claims.sid, Math.max(claims.exp, claims.auth_time + maxAge));
    const headers = new Headers({ 'Cache-Control': 'no-store' });
    for (const cookie of clearingCookies(own(request))) headers.append('Set-Cookie', cookie);
    return withCors(request, gameOrigins, own(request), new Response(null, { status: 204, headers }));
  };

  const renew: Sessions['renew'] = async (request) => {
    if (ownOf(request) === undefined) return misconfigured();
    const early = preflight(request, gameOrigins);
    if (early !== undefined) return early;
    const claims = await gameClaims(request);
    const exp = claims === undefined ? 0 : Math.min(now() + gameTokenMaxAge, claims.auth_time + maxAge);
    if (claims === undefined || exp <= now() || (await revoked(claims.sid)))
      return withCors(request, gameOrigins, own(request), unauthorized('a valid game token is required to renew it'));
    const fresh: SessionClaims = { ...pick(claims), iat: now(), exp };
    const gameToken = await signGameToken(fresh, own(request), (await keys()).signing);
    return withCors(request, gameOrigins, own(request), Response.json({ gameToken }, { headers: { 'Cache-Control': 'no-store' } }));
  };

  const route: Sessions['route'] = ({ allow } = {}, handler) => {
    readAllow(allow ?? ['cookie']);
    return async (request) => {
      if (ownOf(request) === undefined) return misconfigured();
      const early = preflight(request, gameOrigins);
      if (early !== undefined) return early;
      let session: Session | undefined;
      try {
        session = await get(request, { allow });
      } catch (error) {
        if (!(error instanceof SessionStoreError)) throw error;
        return withCors(
          request,
          gameOrigins,
          own(request),
          Response.json({ errors: [error.message] }, { status: 503, headers: { 'Retry-After': '1' } }),
        );
      }
      if (session === undefined) return withCors(request, gameOrigins, own(request), unauthorized('not signed in'));
      return withCors(request, gameOrigins, own(request), await handler(request, session));
    };
  };

  const jwks: Sessions['jwks'] = async () => ({ keys: (await keys()).signing.map(({ jwk }) => ({ ...jwk }) as JsonWebKey) });

  return { onLogin, get, logout, jwks, renew, route };
}

/** The claims a renewal carries over: the session's, and no other that a verified token may hold (`iss`, `aud`, `jti` are set anew). */
function pick({ sub, sid, auth_time, scope, user, owns }: Omit<SessionClaims, 'iat' | 'exp'>): Omit<SessionClaims, 'iat' | 'exp'> {
  return owns === undefined ? { sub, sid, auth_time, scope, user } : { sub, sid, auth_time, scope, user, owns };
}
