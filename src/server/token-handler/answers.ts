/*
 * The handler's answers: JSON with `Cache-Control: no-store`, refusals in one shape
 * (`{ "errors": [...], "code"?: "..." }`) that `onError` is told about, the answer of a login the
 * app accepted, and CORS for the framed pages the application lists.
 */
import type { ItchOAuthErrorCode } from '../../core/errors.js';
import type { LoginResult } from './options.js';

/**
 * A request the handler refused, as `onError` is told about it; also how the ownership check
 * refuses a login and how a popup's refusal waits for its opener.
 */
export interface Refusal {
  /** The HTTP status of the answer. */
  status: number;
  /** Why, in words for the developer. */
  message: string;
  /** The contract's error code the browser reports, when there is one (`state_mismatch`, `not_owner`, …). */
  code?: ItchOAuthErrorCode | undefined;
}

export function jsonResponse(status: number, body: unknown, extraHeaders: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...extraHeaders },
  });
}

/** The refusals this handler made, for `onError` (an app's own `Response` from `onLogin` is not one). */
const refusals = new WeakMap<Response, Refusal>();

/** The refusal an answer of this handler carries, if it is one. */
export function refusalOf(response: Response): Refusal | undefined {
  return refusals.get(response);
}

/** Marks an answer as a refusal for `onError` (a page, say, that is not a JSON refusal). */
export function markRefusal<T extends Response>(response: T, refusal: Refusal): T {
  refusals.set(response, refusal);
  return response;
}

/** A refusal's body: `{ "errors": [message], "code"?: "..." }`, `code` being the error code the browser reports. */
export function refusalBody({ message, code }: Refusal): { errors: string[]; code?: ItchOAuthErrorCode } {
  return code === undefined ? { errors: [message] } : { errors: [message], code };
}

/** Refuses a request with `status` and `message` (and `code`), and marks the answer for `onError`. */
export function errorResponse(
  status: number,
  message: string,
  code?: ItchOAuthErrorCode,
  extraHeaders: Record<string, string> = {},
): Response {
  const refusal: Refusal = { status, message, code };
  return markRefusal(jsonResponse(status, refusalBody(refusal), extraHeaders), refusal);
}

/** The store (e.g. Redis) failed: the login is neither lost nor made twice, and the caller may try again. */
export function storeErrorResponse(error: unknown): Response {
  return errorResponse(503, storeFailure(error), 'service_unavailable', { 'Retry-After': '1' });
}

/** Why the store failed, for the log. */
export function storeFailure(error: unknown): string {
  return `the popup login store failed (${describeStoreError(error)}): try again in a moment`;
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
export function preflightResponse(): Response {
  return new Response(null, {
    status: 204,
    headers: { 'Access-Control-Allow-Methods': 'POST', 'Access-Control-Allow-Headers': 'Content-Type', 'Access-Control-Max-Age': '600' },
  });
}

/**
 * Lets a listed origin of another site read the answer (a framed game collecting its popup
 * login). Cookies are not allowed across origins: the app answers such a page with a token.
 */
export function withCors(request: Request, own: string, allowed: ReadonlySet<string> | undefined, response: Response): Response {
  const origin = request.headers.get('origin');
  if (origin === null || allowed?.has(origin) !== true || origin === own) return response;
  const headers = new Headers(response.headers);
  headers.set('Access-Control-Allow-Origin', origin);
  headers.append('Vary', 'Origin');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

export function withNoStore(response: Response): Response {
  if (response.headers.has('Cache-Control')) return response;
  const headers = new Headers(response.headers);
  headers.set('Cache-Control', 'no-store');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/**
 * The answer to a login that `onLogin` accepted: its own `Response` (`no-store` unless it says
 * otherwise), or 200 with `body` and the headers it returned.
 */
export function loginAnswer(result: LoginResult, body: unknown): Response {
  if (result instanceof Response) return withNoStore(result);
  const headers = new Headers(result?.headers);
  headers.set('Content-Type', 'application/json; charset=utf-8');
  if (!headers.has('Cache-Control')) headers.set('Cache-Control', 'no-store');
  return new Response(JSON.stringify(body), { status: 200, headers });
}
