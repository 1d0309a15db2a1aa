/*
 * The sessions' own endpoints, which framed games call from another origin (CORS for the
 * `allowedOrigins`): `logout`, `renew`, and `route`, the guard of the app's API.
 */
import { preflight, withCors } from '../http/cors.js';
import { missingOrigin } from '../http/own-origin.js';
import type { Credentials, GameCredential } from './credentials.js';
import { dpopRefusal, TooManyProofs } from './dpop.js';
import { currentNonce } from './dpop-nonce.js';
import { signGameToken } from './game-token.js';
import type { SessionsSettings } from './options.js';
import { SessionStoreError } from './revocation.js';
import type { Session, SessionClaims } from './session.js';
import { clearingCookies, cookieMayCount } from './site-cookie.js';

/**
 * Answers a request the way every endpoint here does: 500 where the site's origin is neither
 * configured nor loopback, the preflight of an allowed origin, else `answer`'s, with CORS.
 */
function endpoint(
  settings: SessionsSettings,
  credentials: Credentials,
  answer: (request: Request, own: string) => Promise<Response>,
): Endpoint {
  return async (request: Request): Promise<Response> => {
    const own = settings.ownOrigin(request);
    if (own === undefined) return misconfigured();
    const early = preflight(request, own, settings.cors);
    if (early !== undefined) return early;
    const answered = await answer(request, own).catch(storeRefusal);
    if (!request.headers.has('dpop')) return withCors(request, own, settings.cors, answered);
    // The nonce of the next proof (RFC 9449 section 9), on every answer to a request with one.
    const headers = new Headers(answered.headers);
    headers.set('DPoP-Nonce', await currentNonce((await credentials.keys()).nonce));
    return withCors(
      request,
      own,
      settings.cors,
      new Response(answered.body, { status: answered.status, statusText: answered.statusText, headers }),
    );
  };
}

/**
 * The store failed (down, full): 503, to try again in a second; or the player is past its share
 * of remembered DPoP proofs: 429, to try again when it has room. Nothing was revoked nor renewed.
 */
export function storeRefusal(error: unknown): Response {
  if (!(error instanceof TooManyProofs || error instanceof SessionStoreError)) throw error;
  const [status, retryAfter] = error instanceof TooManyProofs ? [429, error.retryAfter] : [503, 1];
  return Response.json(
    { errors: [error.message] },
    { status, headers: { 'Retry-After': String(retryAfter), 'Cache-Control': 'no-store' } },
  );
}

/** A request to one of these endpoints, answered. */
type Endpoint = (request: Request) => Promise<Response>;
/** Which credentials count for a route. */
type Allow = { allow?: readonly Session['via'][] | undefined };
/** A game token that does not count, and why. */
export type Refused = Exclude<GameCredential, { claims: unknown }>;

/** `sessions.logout`. */
export function createLogout(settings: SessionsSettings, credentials: Credentials): Endpoint {
  return endpoint(settings, credentials, async (request, own) => {
    if (request.method !== 'POST' && request.method !== 'DELETE') {
      return Response.json(
        { errors: [`method ${request.method} not allowed: POST to log out`] },
        { status: 405, headers: { Allow: 'POST, DELETE' } },
      );
    }
    const bearer = request.headers.has('authorization');
    if (!bearer && !cookieMayCount(request, own)) return Response.json({ errors: ['cross-site logout refused'] }, { status: 403 });
    const game = bearer ? await credentials.gameClaims(request) : undefined;
    const claims = game === undefined ? await credentials.cookieClaims(request) : 'claims' in game ? game.claims : undefined;
    if (claims !== undefined && settings.revocations !== undefined)
      await settings.revocations.revoke(claims.sid, Math.max(claims.exp, claims.auth_time + settings.maxAge));
    const headers = new Headers({ 'Cache-Control': 'no-store' });
    for (const cookie of clearingCookies(own)) headers.append('Set-Cookie', cookie);
    return new Response(null, { status: 204, headers });
  });
}

/** `sessions.renew`. */
export function createRenew(settings: SessionsSettings, credentials: Credentials): Endpoint {
  return endpoint(settings, credentials, async (request, own) => {
    const now = Math.floor(Date.now() / 1000);
    const game = await credentials.gameClaims(request);
    if ('error' in game) return dpopRefusal(game.error, game.why);
    const { claims } = game;
    const exp = Math.min(now + settings.gameTokenMaxAge, claims.auth_time + settings.maxAge);
    if (exp <= now || (await credentials.revoked(claims.sid))) return dpopRefusal('invalid_token', 'the session has ended: log in again');
    const fresh: SessionClaims = { ...pick(claims), iat: now, exp };
    const gameToken = await signGameToken(fresh, own, (await credentials.keys()).signing);
    return Response.json({ gameToken }, { headers: { 'Cache-Control': 'no-store' } });
  });
}

/** `sessions.route`, over `sessions.get`. */
export function createRoute(
  settings: SessionsSettings,
  credentials: Credentials,
  find: (request: Request, carriers: ReadonlySet<Session['via']>) => Promise<Session | Refused | undefined>,
) {
  return ({ allow }: Allow = {}, handler: (request: Request, session: Session) => Response | Promise<Response>): Endpoint => {
    const carriers = readAllow(allow ?? ['cookie']);
    return endpoint(settings, credentials, async (request) => {
      let session: Session | Refused | undefined;
      try {
        session = await find(request, carriers);
      } catch (error) {
        return storeRefusal(error);
      }
      if (session === undefined) return unauthorized('not signed in', carriers.has('game'));
      return 'error' in session ? dpopRefusal(session.error, session.why) : handler(request, session);
    });
  };
}

/** Which credentials count, checked. */
export function readAllow(allow: readonly Session['via'][]): ReadonlySet<Session['via']> {
  if (!Array.isArray(allow) || allow.some((carrier) => carrier !== 'cookie' && carrier !== 'game')) {
    throw new TypeError('allow must be a list of "cookie" and "game"');
  }
  return new Set(allow);
}

/**
 * The claims a renewal carries over: the session's and its key binding (`cnf`), and no other that
 * a verified token may hold (`iss`, `aud`, `jti` are set anew).
 */
function pick({ sub, sid, auth_time, scope, user, owns, cnf }: Omit<SessionClaims, 'iat' | 'exp'>): Omit<SessionClaims, 'iat' | 'exp'> {
  const kept: Omit<SessionClaims, 'iat' | 'exp'> = { sub, sid, auth_time, scope, user };
  if (owns !== undefined) kept.owns = owns;
  if (cnf !== undefined) kept.cnf = { jkt: cnf.jkt };
  return kept;
}

/** The answer where the site's origin is neither configured nor loopback; the developer reads why in the log. */
function misconfigured(): Response {
  const why = missingOrigin('createSessions');
  console.error(`itch-oauth-widget: ${why}`);
  return Response.json({ errors: [why] }, { status: 500, headers: { 'Cache-Control': 'no-store' } });
}

function unauthorized(message: string, game: boolean): Response {
  // A 401 names the scheme it wants (RFC 6750 section 3, RFC 9449 section 7.1).
  const scheme = game ? 'DPoP algs="ES256"' : 'Bearer';
  return Response.json({ errors: [message] }, { status: 401, headers: { 'WWW-Authenticate': scheme, 'Cache-Control': 'no-store' } });
}
