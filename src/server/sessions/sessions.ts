/*
 * createSessions: the session a site gives after `createTokenHandler` verified a login, without
 * a database. The site's own pages get an encrypted cookie; framed games (which cannot use the
 * site's cookie, third-party in their frame) get a signed game token. The options are read once
 * (./options.ts); the request's credentials in ./credentials.ts; a login's session in
 * ./login.ts; logout, renew and route in ./endpoints.ts.
 */
import type { LoginContext, OnLoginResult } from '../token-handler/on-login.js';
import { createCredentials } from './credentials.js';
import { TooManyProofs } from './dpop.js';
import { createLogout, createRenew, createRoute, readAllow, type Refused } from './endpoints.js';
import { createOnLogin } from './login.js';
import { readSessionsOptions, type SessionsOptions } from './options.js';
import { sessionOf, type Session } from './session.js';
import { cookieMayCount } from './site-cookie.js';

export type { SessionsOptions } from './options.js';

/**
 * Which credentials a request may be authenticated with.
 * @group Sessions
 */
export type SessionCarrier = Session['via'];

/**
 * What `createSessions` returns: `onLogin` for the token handler, and the site's ways to read, end,
 * renew and guard a session.
 * @group Sessions
 */
export interface Sessions {
  /**
   * For `createTokenHandler({ onLogin: sessions.onLogin })`. Decides by `context.startedFrom`
   * alone: a login started from the site's own `origin` is answered 200 `{ user, owns? }` with a
   * new session cookie; one started from one of `allowedOrigins`, or confirmed by code (`null`),
   * 200 `{ user, owns?, gameToken }` and no cookie; any other is refused (403) and logged.
   */
  onLogin(context: LoginContext): Promise<OnLoginResult>;
  /**
   * The session of a request, or `undefined`. `allow` says which credentials count: the site
   * cookie (default), game tokens, or both. A cookie does not count on a method other than GET,
   * HEAD or OPTIONS unless the request is same-origin. A game token counts only on the origin it
   * was issued by (its `aud`, the site's `origin`), and, bound to a key, only as
   * `Authorization: DPoP` with the `DPoP` proof of this request (RFC 9449): signed by that key,
   * for this method and this path of `origin`, at most 5 minutes from the server's clock, never
   * seen before (with a `store` of Redis or the Durable Object, by any instance), for this token,
   * and carrying a nonce of this deployment from the last minutes (RFC 9449 section 9). Without
   * one it has no session here: serve game APIs with `route`, whose 401 says `use_dpop_nonce` and
   * gives the nonce in `DPoP-Nonce`, so that `gameSession()` sends again at once (after a bare 401
   * it renews its token first). A player past its share of remembered proofs (with such a `store`, 300 game requests a
   * minute) has no session here until it has room again; `route` and `renew` answer it 429 with
   * `Retry-After`.
   * @throws SessionStoreError when the `store` fails; TypeError where the site has no `origin` and the request is not on loopback.
   */
  get(request: Request, options?: { allow?: readonly SessionCarrier[] | undefined }): Promise<Session | undefined>;
  /**
   * POST (or DELETE): 204, removing the cookie; with `store`, revokes the session of the cookie
   * or of the game token (`Authorization: DPoP` with its proof, as `get`) everywhere. A cross-site
   * request is refused (403), another method too (405). When the `store` fails: 503 with
   * `Retry-After`, the cookie kept (the session was not revoked).
   */
  logout(request: Request): Promise<Response>;
  /** The public keys that verify game tokens, of every secret: serve them as JSON (`Response.json(await sessions.jwks())`). */
  jwks(): Promise<{ keys: JsonWebKey[] }>;
  /**
   * For a valid game token (with its proof, as `get`): 200 `{ gameToken }`, a new one bound to the
   * same key, that expires `gameTokenMaxAge` from now but never later than `maxAge` after the
   * login, and never for a revoked session; else 401 (`WWW-Authenticate: DPoP` says why, e.g.
   * `use_dpop_nonce` for a proof without this deployment's nonce); 503
   * with `Retry-After` when the `store` fails. Answers CORS preflights and adds CORS headers for
   * `allowedOrigins`.
   */
  renew(request: Request): Promise<Response>;
  /**
   * An endpoint of the app's API: answers CORS preflights for `allowedOrigins` (allowing the
   * `Authorization` and `DPoP` headers), answers 401 `{ errors }` (with CORS headers, and
   * `WWW-Authenticate: DPoP error=…` for a refused game token or proof) without a session that
   * `allow` accepts, 503 with `Retry-After` when the `store` fails, else calls
   * `handler(request, session)` and adds the CORS headers to its answer. Every answer to a request
   * with a `DPoP` proof carries the nonce of the next proofs in `DPoP-Nonce` (RFC 9449 section 9),
   * which CORS exposes.
   */
  route(
    options: { allow?: readonly SessionCarrier[] | undefined },
    handler: (request: Request, session: Session) => Response | Promise<Response>,
  ): (request: Request) => Promise<Response>;
}

/**
 * Creates the sessions of a site: stateless encrypted cookies for its pages, signed game tokens
 * for framed games, rotation of secrets and, with a `store`, logout everywhere. Web Crypto only.
 *
 * @example
 * const sessions = createSessions({ secrets: [process.env.SESSION_SECRET!], origin: 'https://example.com' });
 * const handler = createTokenHandler({ applicationId: 1234, origin: 'https://example.com', onLogin: sessions.onLogin });
 * const me = sessions.route({ allow: ['cookie'] }, (_request, session) => Response.json(session.user));
 *
 * @throws TypeError for bad options, naming the option.
 * @see https://www.rfc-editor.org/rfc/rfc7516 (cookies), https://www.rfc-editor.org/rfc/rfc7519 (game tokens), https://www.rfc-editor.org/rfc/rfc8725
 * @group Sessions
 */
export function createSessions(options: SessionsOptions): Sessions {
  const settings = readSessionsOptions(options);
  const credentials = createCredentials(settings);

  /** The request's session, or why its game token does not count (a bad one is not made up for by a cookie). */
  const find = async (request: Request, carriers: ReadonlySet<SessionCarrier>): Promise<Session | Refused | undefined> => {
    if (carriers.has('game') && request.headers.has('authorization')) {
      const game = await credentials.gameClaims(request);
      if ('error' in game) return game;
      return (await credentials.revoked(game.claims.sid)) ? undefined : sessionOf(game.claims, 'game');
    }
    if (!carriers.has('cookie') || !cookieMayCount(request, credentials.own(request))) return undefined;
    const claims = await credentials.cookieClaims(request);
    if (claims === undefined || (await credentials.revoked(claims.sid))) return undefined;
    return sessionOf(claims, 'cookie', settings.keepToken ? claims.itch_token : undefined);
  };
  const get: Sessions['get'] = async (request, { allow } = {}) => {
    const found = await find(request, readAllow(allow ?? ['cookie'])).catch((error: unknown) => {
      if (error instanceof TooManyProofs) return undefined;
      throw error;
    });
    return found === undefined || 'error' in found ? undefined : found;
  };
  const jwks: Sessions['jwks'] = async () => ({
    keys: (await credentials.keys()).signing.map(({ jwk }) => ({ ...jwk }) as JsonWebKey),
  });

  return {
    onLogin: createOnLogin(settings, credentials),
    get,
    logout: createLogout(settings, credentials),
    jwks,
    renew: createRenew(settings, credentials),
    route: createRoute(settings, credentials, find),
  };
}
