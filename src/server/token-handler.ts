import { DEFAULT_BASE_URL } from '../core/authorize-url.js';
import { missingScopes, parseScopes } from '../core/scopes.js';
import { assertApiBaseUrl, createItchClient, DEFAULT_API_BASE_URL } from './client.js';
import { ItchApiError } from './errors.js';
import type { FetchFunction } from './request.js';
import { crossSiteProblem, isJsonContentType, parseAllowedOrigins, readBodyWithLimit } from './request-guard.js';
import { createOwnershipCheck, type OwnershipOptions, type Owns } from './ownership.js';
import { memoryPopupStore, PopupRelay, POPUP_STATE, POPUP_VERIFIER } from './popup-relay.js';
import type { User } from './schemas.js';
import type { Storage } from 'unstorage';

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
   * Checks, once per login and after the token is verified, which of `gameIds` the user owns, and
   * passes `owns` to `onLogin` (and in the default answer). With `apiKey` (your API key, kept on
   * the server) by `download_keys?user_id=`; without, by the token's `game:view:ownership` scope.
   * With `require: true`, a user who owns none is refused: 403 `{ "errors": [...], "code": "not_owner" }`.
   * itch.io failing during the check is a 502. See `OwnershipOptions`.
   */
  ownership?: OwnershipOptions | undefined;
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

  const relay = new PopupRelay(options.store ?? memoryPopupStore());
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
      if ('refusal' in ownership) return errorResponse(ownership.refusal.status, ownership.refusal.message, {}, ownership.refusal.code);
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

  const handle = async (request: Request): Promise<Response> => {
    const crossSite = crossSiteProblem(request, allowedOrigins);
    if (crossSite !== undefined) return errorResponse(403, crossSite);
    if (request.method === 'OPTIONS' && request.headers.has('access-control-request-method')) return preflightResponse();
    if (request.method !== 'POST') return errorResponse(405, `method ${request.method} not allowed: POST the token`, { Allow: 'POST' });
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
        const outcome = await relay.collect(body.verifier);
        if (outcome === undefined) return jsonResponse(202, { pending: true });
        if (outcome === 'delivering') return jsonResponse(202, { pending: true, delivering: true });
        if ('status' in outcome) return errorResponse(outcome.status, outcome.errors, {}, 'code' in outcome ? (outcome.code as string) : undefined);
        const owns = 'owns' in outcome ? (outcome.owns as Owns) : undefined;
        return await logIn({ user: outcome.user as User, scopes: outcome.scopes, token: outcome.token, request, owns });
      }
      if (body.state !== undefined) {
        if (await relay.has(body.state)) return errorResponse(409, 'this popup login already has an outcome');
        await relay.deposit(body.state, { at: Date.now(), delivering: true });
      }
    } catch (error) {
      return storeErrorResponse(error);
    }

    const verified = await verify(body.token);
    if (body.state === undefined) return verified instanceof Response ? verified : logIn({ ...verified, token: body.token, request });

    // A popup login: the outcome waits for the opener, which alone can collect it.
    const at = Date.now();
    try {
      if (verified instanceof Response) {
        const { errors, code } = (await verified.clone().json()) as { errors: string[]; code?: string };
        const refusal = { at, status: verified.status, errors, ...(code === undefined ? {} : { code }) };
        await relay.deposit(body.state, refusal);
        return verified;
      }
      await relay.deposit(body.state, { at, ...verified, token: body.token });
    } catch (error) {
      return storeErrorResponse(error);
    }
    return jsonResponse(202, { deposited: true });
  };

  return async (request) => withCors(request, allowedOrigins, await handle(request));
}

type Body = { token: string; state?: string | undefined } | { verifier: string } | { problem: string };

const BODY_SHAPES = '{"access_token": "<token>"}, {"access_token": "<token>", "state": "p.<popup state>"} or {"popup_verifier": "<verifier>"}';

/**
 * Reads one of the three bodies: the token (redirect mode), the token with a popup `state`
 * (deposit), or a popup verifier (collection).
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
  if (fields !== 'access_token' && fields !== 'access_token,state') return { problem: `the request body must be exactly ${BODY_SHAPES}` };
  const token = readAccessToken(value['access_token']);
  if (typeof token !== 'string') return token;
  const state = value['state'];
  if (state !== undefined && (typeof state !== 'string' || !POPUP_STATE.test(state))) {
    return { problem: 'state must be the state of a popup login ("p." and 43 base64url characters)' };
  }
  return { token, state };
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
    return errorResponse(401, 'itch.io did not accept the access token', { 'WWW-Authenticate': 'Bearer error="invalid_token"' });
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

/**
 * `{ "errors": [...] }`: one message, or the messages of a refusal the popup relay kept; with a
 * stable `code` (e.g. `not_owner`) that the browser reports as the login's error code.
 */
function errorResponse(status: number, messages: string | readonly string[], extraHeaders: Record<string, string> = {}, code?: string): Response {
  return jsonResponse(status, code === undefined ? { errors: [messages].flat() } : { errors: [messages].flat(), code }, extraHeaders);
}

/** The store (e.g. Redis) failed: the login is neither lost nor made twice, and the caller may try again. */
function storeErrorResponse(error: unknown): Response {
  console.error('itch-oauth-widget: the popup login store failed', error);
  return errorResponse(503, 'the login store is unavailable: try again in a moment', { 'Retry-After': '1' });
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
