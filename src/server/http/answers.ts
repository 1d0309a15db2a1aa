/*
 * The server's answers: JSON with `Cache-Control: no-store`, and refusals in one shape
 * (`{ "errors": [...], "code"?: "..." }`) that the token handler's `onError` is told about.
 */
import type { ItchOAuthErrorCode } from '../../core/errors.js';

/**
 * A request the handler refused, as `onError` is told about it; also how the ownership check
 * refuses a login and how a popup's refusal waits for its opener.
 * @group Token endpoint
 */
export interface Refusal {
  /** The HTTP status of the answer. */
  status: number;
  /** Why, in words for the developer. */
  message: string;
  /** The error code the browser reports, when there is one (`state_mismatch`, `not_owner`, …). */
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
