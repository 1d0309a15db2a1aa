import type { ItchOAuthErrorCode } from '../core/errors.js';
import { DEFAULT_BASE_URL } from '../core/authorize-url.js';
import { missingScopes, parseScopes } from '../core/scopes.js';
import { assertApiBaseUrl, createItchClient, DEFAULT_API_BASE_URL } from './client.js';
import { ItchApiError } from './errors.js';
import type { FetchFunction } from './request.js';
import { crossSiteProblem, isJsonContentType, parseAllowedOrigins, readBodyWithLimit } from './request-guard.js';
import { createOwnershipCheck, type OwnershipOptions, type Owns } from './ownership.js';
import { errorResponse, preflightResponse, refusalOf, storeErrorResponse, withCors, withNoStore, type Refusal } from './answers.js';
import { BASE64URL_256, memoryPopupStore, PopupRelay, POPUP_STATE } from './popup/relay.js';
import { popupRoutes, type BindRequest } from './popup/routes.js';
import type { SeveredOpener } from './popup/start-page.js';
import type { User } from './schemas.js';
import type { Storage } from 'unstorage';

export type { Refusal } from './answers.js';

/** What `onLogin` learns about a verified login. */
export interface LoginContext {
  /** The itch.io profile of the user (from `{apiBaseUrl}/profile`). */
  user: User;
  /** The scopes the access token carries (from credentials/info). */
  scopes: string[];
  /** The access token, for the app's own later API calls. Keep it server-side. */
  token: string;
  /** The browser's request, e.g. to read its cookies. */
  request: Request;
  /**
   * With the `ownership` option: whether the user owns each of its games, checked with itch.io
   * during this login (`{ 2001: true }`). Absent without the option.
   */
  owns?: Owns | undefined;
  /**
   * The origin the login was started from: for a token POSTed directly (redirect mode), that
   * request's `Origin` (the site's own, or one of `allowedOrigins`; `null` without one), which
   * only a browser guarantees: anyone holding a token of your application can send any `Origin`
   * with it, so register only your site's callback page on that application; for a popup
   * login, the opener origin that the start page confirmed when it bound the login to the
   * browser; `null` when the person confirmed a code instead (`severedOpener: 'confirm'`).
   * Decide what kind of session to give from this, never from headers of the request that
   * collects the login: whoever holds a popup's verifier can send any headers.
   */
  startedFrom: string | null;
}

/**
 * What `onLogin` may return: nothing (answer 200 `{ user }`), headers to add to that answer
 * (e.g. `Set-Cookie`), or a whole `Response` to answer with instead.
 */
export type LoginResult = Response | { headers?: HeadersInit | undefined } | undefined | void;

export interface TokenHandlerOptions {
  /** Makes the app's session for a verified user. Errors it throws propagate to the caller. */
  onLogin(context: LoginContext): LoginResult | Promise<LoginResult>;
  /** The itch.io site (the authorization page, the legacy `/api/1/…`). Default `https://itch.io`. */
  baseUrl?: string | undefined;
  /**
   * Where the token is checked: `{apiBaseUrl}/credentials/info` and `{apiBaseUrl}/profile`.
   * Default `https://api.itch.io`, where itch.io serves them; an emulator's `apiUrl` in tests.
   */
  apiBaseUrl?: string | undefined;
  /**
   * Scopes the token must carry (subscopes count, spec 5.2). `profile:me` is always required,
   * because the handler reads the profile. Default `profile:me`.
   */
  requiredScopes?: string | readonly string[] | undefined;
  /**
   * The id of the app's itch.io OAuth application (the number in its address on
   * https://itch.io/user/settings/oauth-apps; also the `oauth_application_id` that
   * `https://api.itch.io/credentials/info` reports for its tokens). Required: a token itch.io
   * issued to any other application is refused, the one defence of the implicit flow against
   * token injection (RFC 9700 section 4.6).
   */
  applicationId: number;
  /**
   * Origins, besides the request URL's own, that may call the handler: behind a proxy that
   * changes the host or scheme, the public origin; for popup mode, the origins of framed games
   * (e.g. `https://html-classic.itch.zone`), which then collect their login with CORS.
   */
  allowedOrigins?: readonly string[] | undefined;
  /** The `fetch` to reach itch.io with. Default: the global one. */
  fetch?: FetchFunction | undefined;
  /** Largest accepted request body in bytes. Default 4096. */
  maxBodyBytes?: number | undefined;
  /** Time limit of each call to itch.io in milliseconds. Default 10 000. */
  timeoutMs?: number | undefined;
  /**
   * Where popup logins wait (ten minutes at most) until the page that opened the popup collects
   * them: any `unstorage` `Storage`, e.g. Redis, so that several server instances share it.
   * Default: in memory, this process only.
   *
   * Only logins that itch.io vouched for are kept per login; what requests without a login may
   * write (notices to an opener that cannot see its popup, code-confirmed bindings) goes to a
   * fixed number of slots (1,024), so no number of such requests grows the store past them.
   * "First deposit wins" is atomic across instances on unstorage's `redis` driver (a `SET NX`);
   * on any other store it is a lock in the process: exact for the in-memory store and for one
   * single-threaded owner (a Durable Object), not for several instances on an eventually
   * consistent store.
   */
  store?: Storage | undefined;
  /**
   * Turns the popup relay on (popup mode: `<itch-login-button mode="popup">`, `login()`, framed
   * games). `true`, or an object:
   * - `severedOpener`: what happens when the popup has no opener to check (a game whose page
   *   itch.io serves cross-origin-isolated): `'refuse'` (default) fails the login with
   *   `popup_unverified`; `'confirm'` asks the person to confirm a six-digit code that the game
   *   shows too (RFC 8628 section 5.4). Such a login has `startedFrom: null`: any page can show a
   *   person a code, so give it no more than a framed game's session.
   * - `siteName`: your site's name, which the code confirmation names (with its origin).
   * - `dangerouslyAllowHttp`: popup logins from plain-http pages that are not loopback. On plain
   *   http anyone on the network can plant the binding cookie and collect a victim's login: only
   *   for a network you trust.
   * Off (the default), popup deposits are refused (403), collections answer 404, and nothing is kept.
   */
  popup?: boolean | PopupOptions | undefined;
  /**
   * Told about every refusal, once, so that a refused login never comes with a silent server.
   * Default: one `console.warn` line with the status and the reason. The token, the verifier and
   * the binding cookie are never in it.
   */
  onError?: ((refusal: Refusal) => void) | undefined;
  /**
   * Checks, once per login and after the token is verified, which of `gameIds` the user owns, and
   * passes `owns` to `onLogin` (and in the default answer). With `apiKey` (your API key, kept on
   * the server) by `download_keys?user_id=`; without, by the token's `game:view:ownership` scope.
   * With `require: true`, a user who owns none is refused: 403 `{ "errors": [...], "code": "not_owner" }`.
   * itch.io failing during the check is a 502. See `OwnershipOptions`.
   */
  ownership?: OwnershipOptions | undefined;
}

/** The `popup` option as an object. */
export interface PopupOptions {
  severedOpener?: SeveredOpener | undefined;
  siteName?: string | undefined;
  dangerouslyAllowHttp?: boolean | undefined;
}

export const DEFAULT_MAX_BODY_BYTES = 4096;

/** An access token as RFC 6750 section 2.1 allows it in a Bearer header (b64token). */
const ACCESS_TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;
/** itch.io's access tokens are 40 characters; anything far longer is not one. */
const MAX_TOKEN_LENGTH = 1024;

/**
 * Creates the endpoint the widget POSTs the access token to: `POST` with
 * `Content-Type: application/json` and the body `{"access_token": "<token>"}`.
 *
 * In order: a `GET` with a `state` is a popup's start page (with the `popup` option; see
 * `./popup/routes.ts`), answered before the cross-site check because it is a top-level navigation
 * from itch.io's or the opener's site, and writing nothing a flood could grow. Then it refuses a
 * cross-site request (403), another method (405), another content type (415), a body over the
 * limit (413) or of another shape (400); hands the popup relay's requests (binding, deposit,
 * collection) to it; asks `{apiBaseUrl}/credentials/info` about the token, refusing an unknown
 * token (401), one without a required scope (403) and one of another OAuth application (403);
 * reads `{apiBaseUrl}/profile`; with `ownership`, checks which games the user owns (403
 * `not_owner` when required and none); calls `onLogin`; and answers 200 `{ user }` (`{ user, owns }`
 * with `ownership`). When itch.io cannot be reached or fails, it answers 502. Every error answer is
 * `{ "errors": ["..."], "code"?: "..." }` and `Cache-Control: no-store`; the token is never echoed.
 *
 * @throws TypeError at creation for bad options.
 * @see https://itch.io/docs/api/oauth
 * @see https://www.rfc-editor.org/rfc/rfc9700#section-4.6
 */
export function createTokenHandler(options: TokenHandlerOptions): (request: Request) => Promise<Response> {
  if (typeof options.onLogin !== 'function') throw new TypeError('onLogin must be a function');
  const baseUrl = assertApiBaseUrl(options.baseUrl ?? DEFAULT_BASE_URL, 'baseUrl');
  const apiBaseUrl = assertApiBaseUrl(options.apiBaseUrl ?? DEFAULT_API_BASE_URL, 'apiBaseUrl');
  const requiredScopes = parseScopes([...parseScopes(options.requiredScopes ?? []), 'profile:me']);
  const allowedOrigins = options.allowedOrigins === undefined ? undefined : parseAllowedOrigins(options.allowedOrigins);
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes <= 0) throw new TypeError('maxBodyBytes must be a positive integer');
  const { applicationId } = options;
  if (!Number.isSafeInteger(applicationId) || applicationId <= 0) {
    throw new TypeError(
      'applicationId is required: the positive integer id of your itch.io OAuth application (the number in its address on ' +
        'https://itch.io/user/settings/oauth-apps, or the oauth_application_id that https://api.itch.io/credentials/info reports for its tokens). ' +
        'Without it, a token itch.io issued to any other application would log in.',
    );
  }

  const popup = readPopupOption(options.popup);
  const onError = options.onError ?? ((refusal: Refusal) => console.warn(`itch-oauth-widget: refused (${refusal.status}${refusal.code ? ` ${refusal.code}` : ''}): ${refusal.message}`));
  if (typeof onError !== 'function') throw new TypeError('onError must be a function');
  const checkOwnership =
    options.ownership === undefined ? undefined : createOwnershipCheck(options.ownership, { baseUrl, apiBaseUrl, fetch: options.fetch, timeoutMs: options.timeoutMs });

  /** The user and scopes of a token itch.io vouches for, or the answer that refuses it. */
  const verify = async (token: string): Promise<{ user: User; scopes: string[]; owns?: Owns } | Response> => {
    const itch = createItchClient({ baseUrl, apiBaseUrl, credential: { type: 'oauth', accessToken: token }, fetch: options.fetch, timeoutMs: options.timeoutMs });
    try {
      const info = await itch.credentialsInfo();
      const missing = missingScopes(info.scopes, requiredScopes);
      if (missing.length > 0) return errorResponse(403, `the access token lacks the required scope${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`);
      if (info.oauth_application_id !== applicationId) return errorResponse(403, 'the access token was not issued to this application');
      const user = await itch.profile();
      if (checkOwnership === undefined) return { user, scopes: info.scopes };
      const ownership = await checkOwnership({ token, user, scopes: info.scopes });
      if ('refusal' in ownership) return errorResponse(ownership.refusal.status, ownership.refusal.message, ownership.refusal.code);
      return { user, scopes: info.scopes, owns: ownership.owns };
    } catch (error) {
      return upstreamErrorResponse(error);
    }
  };

  /** Lets the app make its session, answering the request that will carry it. */
  const logIn = async (context: LoginContext): Promise<Response> => {
    const result = await options.onLogin(context);
    if (result instanceof Response) return withNoStore(result);
    const headers = new Headers(result?.headers);
    headers.set('Content-Type', 'application/json; charset=utf-8');
    if (!headers.has('Cache-Control')) headers.set('Cache-Control', 'no-store');
    const body = context.owns === undefined ? { user: context.user } : { user: context.user, owns: context.owns };
    return new Response(JSON.stringify(body), { status: 200, headers });
  };

  const relay =
    popup === undefined
      ? undefined
      : popupRoutes({
          relay: new PopupRelay(options.store ?? memoryPopupStore()),
          severedOpener: popup.severedOpener,
          siteName: popup.siteName,
          allowHttp: popup.dangerouslyAllowHttp,
          baseUrl,
          allowedOrigins,
          verify,
          logIn: (login, request) =>
            logIn({ user: login.user as User, scopes: login.scopes, token: login.token, owns: login.owns as Owns | undefined, startedFrom: login.startedFrom, request }),
        });
  const relayOff = (status: number, code?: ItchOAuthErrorCode) => errorResponse(status, 'popup logins are off: turn them on with the popup option', code);

  const handle = async (request: Request): Promise<Response> => {
    // The popup's start page: a top-level navigation, before the cross-site check (its request
    // comes from itch.io's or the opener's site); it writes nothing a flood could grow.
    if (request.method === 'GET' && new URL(request.url).searchParams.has('state')) return relay === undefined ? relayOff(404) : relay.start(request);
    const crossSite = crossSiteProblem(request, allowedOrigins);
    if (crossSite !== undefined) return errorResponse(403, crossSite);
    if (request.method === 'OPTIONS' && request.headers.has('access-control-request-method')) return preflightResponse();
    if (request.method !== 'POST') return errorResponse(405, `method ${request.method} not allowed: POST the token`, undefined, { Allow: 'POST' });
    if (!isJsonContentType(request.headers.get('content-type'))) {
      return errorResponse(415, 'Content-Type must be application/json');
    }

    let bytes: Uint8Array | 'too-large';
    try {
      bytes = await readBodyWithLimit(request, maxBodyBytes);
    } catch {
      return errorResponse(400, 'the request body could not be read');
    }
    if (bytes === 'too-large') return errorResponse(413, `the request body is larger than ${maxBodyBytes} bytes`);
    const body = readBody(bytes);
    if ('problem' in body) return errorResponse(400, body.problem);

    try {
      if ('verifier' in body) return relay === undefined ? relayOff(404) : await relay.collect(request, body.verifier);
      if ('bind' in body) return relay === undefined ? relayOff(404) : await relay.bind(request, body.bind);
      if (body.state !== undefined) return relay === undefined ? relayOff(403, 'state_mismatch') : await relay.deposit(request, body.token, body.state);
    } catch (error) {
      return storeErrorResponse(error);
    }

    const verified = await verify(body.token);
    return verified instanceof Response ? verified : logIn({ ...verified, token: body.token, request, startedFrom: request.headers.get('origin') });
  };

  return async (request) => {
    const response = await handle(request);
    const refusal = refusalOf(response);
    if (refusal !== undefined) onError(refusal);
    return withCors(request, allowedOrigins, response);
  };
}

type Body = { token: string; state?: string | undefined } | { verifier: string } | { bind: BindRequest } | { problem: string };

const BODY_SHAPES =
  '{"access_token": "<token>"}, {"access_token": "<token>", "state": "p.<popup state>"}, {"popup_verifier": "<verifier>"} or {"popup_bind": "p.<popup state>", "opener": "<origin>" | null, "binding"?: "<binding>", "confirmed"?: true}';

/**
 * Reads one of the four bodies: the token (redirect mode), the token with a popup `state`
 * (deposit), a popup verifier (collection), the start page's binding.
 */
function readBody(bytes: Uint8Array): Body {
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return { problem: 'the request body is not JSON' };
  }
  const fields = typeof body === 'object' && body !== null && !Array.isArray(body) ? Object.keys(body).sort().join() : '';
  const value = body as Record<string, unknown>;
  if (fields === 'popup_verifier') {
    const verifier = value['popup_verifier'];
    return typeof verifier === 'string' && BASE64URL_256.test(verifier) ? { verifier } : { problem: 'popup_verifier must be 43 base64url characters' };
  }
  if (fields === 'opener,popup_bind' || fields === 'confirmed,opener,popup_bind' || fields === 'binding,opener,popup_bind') {
    const { popup_bind: state, opener, binding, confirmed = false } = value;
    if (typeof state !== 'string' || !POPUP_STATE.test(state)) return { problem: 'popup_bind must be the state of a popup login' };
    if (opener !== null && (typeof opener !== 'string' || opener.length > 300)) return { problem: 'opener must be an origin or null' };
    if (binding !== undefined && typeof binding !== 'string') return { problem: 'binding must be a string' };
    if (typeof confirmed !== 'boolean') return { problem: 'confirmed must be a boolean' };
    return { bind: { state, opener, binding, confirmed } };
  }
  if (fields !== 'access_token' && fields !== 'access_token,state') return { problem: `the request body must be exactly ${BODY_SHAPES}` };
  const token = readAccessToken(value['access_token']);
  if (typeof token !== 'string') return token;
  const state = value['state'];
  if (state !== undefined && (typeof state !== 'string' || !POPUP_STATE.test(state))) {
    return { problem: 'state must be the state of a popup login ("p." and 43 base64url characters)' };
  }
  return { token, state };
}

/** What `popup` asks for, with its defaults, or `undefined` when the relay is off. */
function readPopupOption(popup: TokenHandlerOptions['popup']): { severedOpener: SeveredOpener; siteName: string; dangerouslyAllowHttp: boolean } | undefined {
  if (popup === undefined || popup === false) return undefined;
  const object: PopupOptions = popup === true ? {} : popup;
  if (typeof object !== 'object' || object === null) throw new TypeError('popup must be true, false, or { severedOpener?, siteName?, dangerouslyAllowHttp? }');
  const unknown = Object.keys(object).filter((key) => !['severedOpener', 'siteName', 'dangerouslyAllowHttp'].includes(key));
  if (unknown.length > 0) throw new TypeError(`popup has no option ${unknown.join(', ')} (it takes severedOpener, siteName, dangerouslyAllowHttp)`);
  const { severedOpener = 'refuse', siteName = 'This site', dangerouslyAllowHttp = false } = object;
  if (severedOpener !== 'confirm' && severedOpener !== 'refuse') throw new TypeError('popup.severedOpener must be "confirm" or "refuse"');
  if (typeof siteName !== 'string' || siteName.trim() === '' || siteName.length > 100) throw new TypeError('popup.siteName must be a name of 1 to 100 characters');
  if (typeof dangerouslyAllowHttp !== 'boolean') throw new TypeError('popup.dangerouslyAllowHttp must be a boolean');
  return { severedOpener, siteName, dangerouslyAllowHttp };
}

/** The access token, if it is one. */
function readAccessToken(token: unknown): string | { problem: string } {
  if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH || !ACCESS_TOKEN.test(token)) {
    return { problem: `access_token must be a string of 1 to ${MAX_TOKEN_LENGTH} letters, digits and -._~+/ (RFC 6750 b64token)` };
  }
  return token;
}

/** itch.io refusing the token is the client's fault (401); anything else is itch.io's (502). */
function upstreamErrorResponse(error: unknown): Response {
  if (!(error instanceof ItchApiError)) throw error;
  if (error.code === 'api_error' && error.status < 500 && error.status !== 429) {
    return errorResponse(401, 'itch.io did not accept the access token', undefined, { 'WWW-Authenticate': 'Bearer error="invalid_token"' });
  }
  const why = error.code === 'api_error' || error.code === 'http_error' ? `HTTP ${error.status}` : error.code.replace('_', ' ');
  return errorResponse(502, `itch.io could not verify the access token (${why})`);
}
