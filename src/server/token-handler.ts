import { DEFAULT_BASE_URL } from '../core/authorize-url.js';
import { missingScopes, parseScopes } from '../core/scopes.js';
import { assertApiBaseUrl, createItchClient, DEFAULT_API_BASE_URL } from './client.js';
import { ItchApiError } from './errors.js';
import type { FetchFunction } from './request.js';
import { crossSiteProblem, isJsonContentType, parseAllowedOrigins, readBodyWithLimit } from './request-guard.js';
import { createOwnershipCheck, type OwnershipOptions, type Owns } from './ownership.js';
import { memoryPopupStore, PopupRelay, POPUP_OUTCOME_TTL_S, POPUP_STATE, POPUP_VERIFIER } from './popup-relay.js';
import { popupStartPage, type SeveredOpener } from './popup-start-page.js';
import type { User } from './schemas.js';
import { parse as parseCookies, serialize as serializeCookie } from 'hono/utils/cookie';
import type { Storage } from 'unstorage';
import { buildAuthorizeUrl } from '../core/authorize-url.js';
import { createState, sha256Base64url } from '../core/state.js';

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
   * The origin the login was started from, as the user's browser proved it: for a token POSTed
   * directly (redirect mode), that request's `Origin` (the site's own, or one of
   * `allowedOrigins`; `null` without one, as from a program that is not a browser); for a popup
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
   * The id of the app's itch.io OAuth application. When set, a token issued to any other
   * application is refused: the one defence of the implicit flow against token injection
   * (RFC 9700 section 4.6). Set it.
   */
  applicationId?: number | undefined;
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
   * Where popup logins wait (five minutes at most) until the page that opened the popup collects
   * them: any `unstorage` `Storage`, e.g. Redis, so that several server instances share it.
   * Default: in memory, this process only.
   */
  store?: Storage | undefined;
  /**
   * Turns the popup relay on (popup mode: `<itch-login-button mode="popup">`, `login()`, framed
   * games). `true`, or `{ severedOpener }`: what happens when the popup has no opener to check
   * (a game whose page itch.io serves cross-origin-isolated): `'refuse'` (default) fails the
   * login with `popup_unverified`; `'confirm'` asks the person to confirm a six-digit code that
   * the game shows too (RFC 8628 section 5.4). Off (the default), popup deposits are refused
   * (403), collections answer 404, and nothing is kept.
   */
  popup?: boolean | { severedOpener?: SeveredOpener | undefined } | undefined;
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

/** A request the handler refused, as `onError` is told about it. */
export interface Refusal {
  /** The HTTP status of the answer. */
  status: number;
  /** Why, in words for the developer. */
  message: string;
  /** The contract's error code the browser reports, when there is one (`state_mismatch`, `not_owner`, …). */
  code?: string | undefined;
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
 * In order, it refuses a cross-site request (403), another method (405), another content type
 * (415), a body over the limit (413) or of another shape (400); asks `{apiBaseUrl}/credentials/info`
 * about the token, refusing an unknown token (401), one without a required scope (403) and one
 * of another OAuth application (403); reads `{apiBaseUrl}/profile`; with `ownership`, checks which
 * games the user owns (403 `not_owner` when required and none); calls `onLogin`; and answers 200
 * `{ user }` (`{ user, owns }` with `ownership`). When itch.io cannot be reached or fails, it
 * answers 502. Every error answer is `{ "errors": ["..."] }` (with a `code` for `not_owner`) and
 * `Cache-Control: no-store`; the token is never echoed.
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
  if (applicationId !== undefined && (!Number.isSafeInteger(applicationId) || applicationId <= 0)) {
    throw new TypeError('applicationId must be the positive integer id of the itch.io OAuth application');
  }

  const severedOpener = readPopupOption(options.popup);
  const relay = severedOpener === undefined ? undefined : new PopupRelay(options.store ?? memoryPopupStore());
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
      if (applicationId !== undefined && info.oauth_application_id !== applicationId) {
        return errorResponse(403, 'the access token was not issued to this application');
      }
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

  /** The start page of a popup login: `GET {backend}?state=p.…&client_id=…&redirect_uri=…&scope=…`. */
  const startPopup = async (request: Request): Promise<Response> => {
    const query = new URL(request.url).searchParams;
    const state = query.get('state') ?? '';
    if (relay === undefined) return errorResponse(404, 'popup logins are off: turn them on with the popup option');
    if (!POPUP_STATE.test(state)) return errorResponse(400, 'state must be the state of a popup login ("p." and 43 base64url characters)');
    try {
      authorizeUrl(query, state);
    } catch (error) {
      return errorResponse(400, `the popup login cannot start: ${(error as Error).message}`);
    }
    await relay.arrive(state, severedOpener === 'confirm');
    return popupStartPage(state, severedOpener!);
  };

  /** The authorization address a start page goes on to: the configured itch.io, nowhere else. */
  const authorizeUrl = (query: URLSearchParams, state: string): string =>
    buildAuthorizeUrl({ baseUrl, clientId: query.get('client_id') ?? '', redirectUri: query.get('redirect_uri') ?? '', scope: query.get('scope') ?? 'profile:me', state }).href;

  /**
   * The start page's POST, once the opener confirmed the state (or the person the code): binds
   * the state to this browser with a first-party cookie and answers where to go on.
   */
  const bindPopup = async (request: Request, body: BindRequest): Promise<Response> => {
    const origin = request.headers.get('origin');
    const site = request.headers.get('sec-fetch-site');
    const own = new URL(request.url).origin;
    if (origin === null || (site !== null && site !== 'same-origin') || (origin !== own && allowedOrigins?.has(origin) !== true)) {
      return errorResponse(403, 'a popup login is bound only by the start page on this origin');
    }
    const query = new URL(request.url).searchParams;
    if (query.get('state') !== body.state) return errorResponse(400, 'the start page binds the state of its own address');
    if (body.opener === null) {
      if (severedOpener !== 'confirm' || !body.confirmed) {
        const why =
          severedOpener === 'confirm'
            ? 'the person did not confirm the code of the popup login'
            : 'the popup had no opener to check, and the site does not ask the person to confirm a code (popup.severedOpener)';
        await relay!.refuse(body.state, { status: 403, errors: [why], code: 'popup_unverified' });
        return errorResponse(403, why, 'popup_unverified');
      }
    } else if (body.opener !== own && allowedOrigins?.has(body.opener) !== true) {
      return errorResponse(403, `the page that opened the popup (${JSON.stringify(body.opener)}) is not on this origin nor in allowedOrigins`, 'state_mismatch');
    }
    const cookies = parseCookies(request.headers.get('cookie') ?? '');
    const secure = origin.startsWith('https:');
    const name = secure ? SECURE_BINDING_COOKIE : BINDING_COOKIE;
    // A browser's binding cookie: 256 random bits, made like a state; only its SHA-256 is kept.
    const value = readBinding(cookies[name]) ?? createState();
    if (!(await relay!.bind(body.state, await sha256Base64url(value)))) return errorResponse(409, 'this popup login was started already');
    const cookie = serializeCookie(name, value, { path: '/', httpOnly: true, secure, sameSite: 'Lax', maxAge: POPUP_OUTCOME_TTL_S });
    return jsonResponse(200, { authorize: authorizeUrl(query, body.state) }, { 'Set-Cookie': cookie });
  };

  /** A popup's callback hands over its token: only from the browser the state is bound to. */
  const deposit = async (request: Request, token: string, state: string): Promise<Response> => {
    if (relay === undefined) return errorResponse(403, 'popup logins are off: turn them on with the popup option', 'state_mismatch');
    const cookies = parseCookies(request.headers.get('cookie') ?? '');
    const cookie = readBinding(cookies[SECURE_BINDING_COOKIE]) ?? readBinding(cookies[BINDING_COOKIE]);
    const binding = cookie === undefined ? undefined : await sha256Base64url(cookie);
    const check = await relay.checkDeposit(state, binding);
    if (check === 'unbound') return errorResponse(403, 'this popup login was not started in this browser', 'state_mismatch');
    if (check === 'taken' || !(await relay.claim(state, binding!))) return errorResponse(409, 'this popup login already has an outcome');
    try {
      const verified = await verify(token);
      if (verified instanceof Response) {
        const { errors, code } = (await verified.clone().json()) as { errors: string[]; code?: string };
        await relay.settle(state, { at: Date.now(), status: verified.status, errors, code });
        return verified;
      }
      await relay.settle(state, { at: Date.now(), ...verified, token });
      return jsonResponse(202, { deposited: true });
    } catch (error) {
      // The state is free again: the capture's retry may deposit once the store is back.
      await relay.unclaim(state, binding!).catch(() => undefined);
      throw error;
    }
  };

  const handle = async (request: Request): Promise<Response> => {
    if (request.method === 'GET' && new URL(request.url).searchParams.has('state')) return startPopup(request);
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
      if ('verifier' in body) {
        if (relay === undefined) return errorResponse(404, 'popup logins are off: turn them on with the popup option');
        const outcome = await relay.collect(body.verifier);
        if ('pending' in outcome) return jsonResponse(202, outcome);
        if ('status' in outcome) return errorResponse(outcome.status, outcome.errors, outcome.code);
        const owns = 'owns' in outcome ? (outcome.owns as Owns) : undefined;
        return await logIn({ user: outcome.user as User, scopes: outcome.scopes, token: outcome.token, request, owns, startedFrom: null });
      }
      if ('bind' in body) {
        if (relay === undefined) return errorResponse(404, 'popup logins are off: turn them on with the popup option');
        return await bindPopup(request, body.bind);
      }
      if (body.state !== undefined) return await deposit(request, body.token, body.state);
    } catch (error) {
      return storeErrorResponse(error);
    }

    const verified = await verify(body.token);
    return verified instanceof Response ? verified : logIn({ ...verified, token: body.token, request, startedFrom: request.headers.get('origin') });
  };

  return async (request) => {
    const response = await handle(request);
    const refusal = refusals.get(response);
    if (refusal !== undefined) onError(refusal);
    return withCors(request, allowedOrigins, response);
  };

}

/** The start page's request to bind its state: `opener` is the origin that confirmed it, or null. */
interface BindRequest {
  state: string;
  opener: string | null;
  confirmed: boolean;
}

type Body = { token: string; state?: string | undefined } | { verifier: string } | { bind: BindRequest } | { problem: string };

const BODY_SHAPES =
  '{"access_token": "<token>"}, {"access_token": "<token>", "state": "p.<popup state>"}, {"popup_verifier": "<verifier>"} or {"popup_bind": "p.<popup state>", "opener": "<origin>" | null, "confirmed"?: true}';

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
    return typeof verifier === 'string' && POPUP_VERIFIER.test(verifier) ? { verifier } : { problem: 'popup_verifier must be 43 base64url characters' };
  }
  if (fields === 'opener,popup_bind' || fields === 'confirmed,opener,popup_bind') {
    const { popup_bind: state, opener, confirmed = false } = value;
    if (typeof state !== 'string' || !POPUP_STATE.test(state)) return { problem: 'popup_bind must be the state of a popup login' };
    if (opener !== null && (typeof opener !== 'string' || opener.length > 300)) return { problem: 'opener must be an origin or null' };
    if (typeof confirmed !== 'boolean') return { problem: 'confirmed must be a boolean' };
    return { bind: { state, opener, confirmed } };
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

/** The binding cookie: `__Host-` on https (Secure, Path=/, no Domain), plain on http (local development). */
const SECURE_BINDING_COOKIE = '__Host-itch-oauth-popup';
const BINDING_COOKIE = 'itch-oauth-popup';

/** A binding cookie's value, if it has the shape of one. */
function readBinding(value: string | undefined): string | undefined {
  return value !== undefined && POPUP_VERIFIER.test(value) ? value : undefined;
}

/** What `popup` asks for: the severed-opener choice, or `undefined` when the relay is off. */
function readPopupOption(popup: TokenHandlerOptions['popup']): SeveredOpener | undefined {
  if (popup === undefined || popup === false) return undefined;
  if (popup === true) return 'refuse';
  const choice = typeof popup === 'object' && popup !== null ? (popup.severedOpener ?? 'refuse') : undefined;
  if (choice !== 'confirm' && choice !== 'refuse') {
    throw new TypeError('popup must be true, false, or { severedOpener: "confirm" | "refuse" }');
  }
  return choice;
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

function jsonResponse(status: number, body: unknown, extraHeaders: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...extraHeaders },
  });
}

/** The refusals this handler made, for `onError` (an app's own `Response` from `onLogin` is not one). */
const refusals = new WeakMap<Response, Refusal>();

/**
 * `{ "errors": [...], "code"?: "..." }`: one message, or the messages of a refusal the popup relay
 * kept; `code` is the contract's error code the browser reports.
 */
function errorResponse(status: number, messages: string | readonly string[], code?: string, extraHeaders: Record<string, string> = {}): Response {
  const errors = [messages].flat();
  const response = jsonResponse(status, code === undefined ? { errors } : { errors, code }, extraHeaders);
  refusals.set(response, { status, message: errors.join('; '), code });
  return response;
}

/** The store (e.g. Redis) failed: the login is neither lost nor made twice, and the caller may try again. */
function storeErrorResponse(error: unknown): Response {
  return errorResponse(503, `the popup login store failed (${describeStoreError(error)}): try again in a moment`, undefined, { 'Retry-After': '1' });
}

/**
 * The kind of a store failure, in words that can never hold a stored value: the error's class
 * and a Redis error's leading word (`OOM`, `READONLY`, …), never its message or the command's
 * arguments (ioredis attaches them, and they are the stored login).
 */
function describeStoreError(error: unknown): string {
  const name = error instanceof Error && /^\w{1,40}$/.test(error.name) ? error.name : 'unknown error';
  const word = error instanceof Error ? /^[A-Z]{2,20}\b/.exec(error.message)?.[0] : undefined;
  return word === undefined ? name : `${name} ${word}`;
}

/** The answer to a CORS preflight from an allowed origin (checked before). */
function preflightResponse(): Response {
  return new Response(null, {
    status: 204,
    headers: { 'Access-Control-Allow-Methods': 'POST', 'Access-Control-Allow-Headers': 'Content-Type', 'Access-Control-Max-Age': '600' },
  });
}

/**
 * Lets a listed origin of another site read the answer (a framed game collecting its popup
 * login). Cookies are not allowed across origins: the app answers such a page with a token.
 */
function withCors(request: Request, allowed: ReadonlySet<string> | undefined, response: Response): Response {
  const origin = request.headers.get('origin');
  if (origin === null || allowed?.has(origin) !== true || origin === new URL(request.url).origin) return response;
  const headers = new Headers(response.headers);
  headers.set('Access-Control-Allow-Origin', origin);
  headers.append('Vary', 'Origin');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

function withNoStore(response: Response): Response {
  if (response.headers.has('Cache-Control')) return response;
  const headers = new Headers(response.headers);
  headers.set('Cache-Control', 'no-store');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
