/**
 * Why a call to the itch.io API failed. Apps branch on `code`, never on `message`.
 *
 * - `api_error`: itch.io answered `{ errors }` (whatever the HTTP status); they are in `errors`.
 * - `http_error`: a non-2xx answer without an `errors` body (e.g. a 502 page from a proxy).
 * - `invalid_response`: a body that is not JSON, or JSON of an unexpected shape.
 * - `redirect`: itch.io answered with a redirect, which the client never follows.
 * - `network_error`: no answer at all (DNS, connection refused, reset…); see `cause`.
 * - `timeout`: no complete answer within the time limit.
 * - `aborted`: the caller's `signal` aborted the call; its reason is the `cause`.
 * @group itch.io API client
 */
export type ItchApiErrorCode = 'api_error' | 'http_error' | 'invalid_response' | 'redirect' | 'network_error' | 'timeout' | 'aborted';

/** @group itch.io API client */
export interface ItchApiErrorInit {
  code: ItchApiErrorCode;
  message: string;
  endpoint: string;
  status?: number | undefined;
  errors?: readonly string[] | undefined;
  cause?: unknown;
}

/**
 * A failed call to the itch.io API. Neither `message` nor `endpoint` ever contains the
 * credential: the endpoint is the path as https://itch.io/docs/api/serverside writes it, with a key in the path shown as
 * `KEY` (e.g. `/api/1/KEY/me`), and without the query string.
 * @see https://itch.io/docs/api/serverside
 * @group itch.io API client
 */
export class ItchApiError extends Error {
  override name = 'ItchApiError';
  readonly code: ItchApiErrorCode;
  /** The `errors` itch.io answered; empty when it sent none. */
  readonly errors: string[];
  /** The HTTP status of the answer; 0 when there was none (network error, timeout, abort). */
  readonly status: number;
  /** The path called, without credential or query, e.g. `/api/1/key/game/3/purchases`. */
  readonly endpoint: string;

  constructor(init: ItchApiErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = init.code;
    this.errors = [...(init.errors ?? [])];
    this.status = init.status ?? 0;
    this.endpoint = init.endpoint;
  }
}

/** Whether itch.io itself refused the call (`errors` with a 4xx other than 429): the credential's or the request's fault, not itch.io's. */
export function isRefusedByItch(error: ItchApiError): boolean {
  return error.code === 'api_error' && error.status < 500 && error.status !== 429;
}

/** The failure in a few words for a message: `HTTP 503`, `network error`, `timeout`, … */
export function failureInWords(error: ItchApiError): string {
  return error.code === 'api_error' || error.code === 'http_error' ? `HTTP ${error.status}` : error.code.replace('_', ' ');
}
