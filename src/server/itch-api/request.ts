import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';
import { redactSecret } from './credential.js';
import { ItchApiError } from './errors.js';
import { errorsResponseSchema } from './login-schemas.js';

/**
 * The part of `fetch` the client uses; the global `fetch` fits.
 * @group itch.io API client
 */
export type FetchFunction = (input: string, init: RequestInit) => Promise<Response>;

/**
 * Options every API call takes.
 * @group itch.io API client
 */
export interface CallOptions {
  /** Aborts the call; it then fails with an `ItchApiError` of code `aborted`. */
  signal?: AbortSignal | undefined;
  /** Time limit for this call in milliseconds, answer body included; overrides the client's. */
  timeoutMs?: number | undefined;
}

export interface ApiRequest<S extends z.ZodMiniType> {
  url: URL;
  /** The path as shown in errors: no credential, no query. */
  endpoint: string;
  authorization: string | undefined;
  /** Redacted from any text taken from the answer. */
  secret: string;
  schema: S;
  fetch: FetchFunction;
  timeoutMs: number;
  signal: AbortSignal | undefined;
}

/**
 * Sends one GET to the itch.io API and returns the validated body.
 *
 * Redirects are never followed (`redirect: 'manual'`): itch.io has answered `/api/1/KEY/...`
 * with a redirect to another host (https://github.com/itchio/itch.io/issues/1816), and following it would hand the key (in the path or in the
 * `Authorization` header of a custom `fetch`) to that host.
 *
 * @throws ItchApiError with `code` telling what failed; see `ItchApiErrorCode`.
 * @see https://itch.io/docs/api/serverside
 */
export async function requestItchApi<S extends z.ZodMiniType>(request: ApiRequest<S>): Promise<z.output<S>> {
  const { endpoint } = request;
  if (request.signal?.aborted === true) {
    throw new ItchApiError({
      code: 'aborted',
      message: `call to itch.io ${endpoint} aborted before it was sent`,
      endpoint,
      cause: request.signal.reason,
    });
  }
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (request.authorization !== undefined) headers['Authorization'] = request.authorization;

  const deadline = startDeadline(request.signal, request.timeoutMs);
  let response: Response;
  let text: string;
  try {
    const send = request.fetch;
    response = await untilAborted(
      send(request.url.href, { method: 'GET', headers, redirect: 'manual', signal: deadline.signal }),
      deadline.signal,
    );
    if (isRedirect(response)) {
      void response.body?.cancel().catch(() => undefined);
      throw redirectError(response, request);
    }
    text = await untilAborted(response.text(), deadline.signal);
  } catch (error) {
    if (error instanceof ItchApiError) throw error;
    throw transportError(error, request, deadline.timedOut());
  } finally {
    deadline.dispose();
  }
  return readAnswer(response.status, response.ok, text, request);
}

function readAnswer<S extends z.ZodMiniType>(status: number, ok: boolean, text: string, request: ApiRequest<S>): z.output<S> {
  const { endpoint } = request;
  const fail = (code: 'api_error' | 'http_error' | 'invalid_response', message: string, errors?: string[]): ItchApiError =>
    new ItchApiError({ code, message: redactSecret(message, request.secret), endpoint, status, errors });

  let body: unknown;
  let isJson = true;
  try {
    body = JSON.parse(text);
  } catch {
    isJson = false;
  }
  if (isJson && typeof body === 'object' && body !== null && !Array.isArray(body) && Object.hasOwn(body, 'errors')) {
    const parsed = errorsResponseSchema.safeParse(body);
    if (!parsed.success) {
      throw fail(
        'invalid_response',
        `itch.io ${endpoint} answered HTTP ${status} with an "errors" field that is not a non-empty list of strings`,
      );
    }
    const errors = parsed.data.errors.map((error) => redactSecret(error, request.secret));
    throw fail('api_error', `itch.io ${endpoint} answered HTTP ${status}: ${errors.join('; ')}`, errors);
  }
  if (!ok) {
    throw fail('http_error', `itch.io ${endpoint} answered HTTP ${status}${isJson ? '' : ' with a body that is not JSON'}`);
  }
  if (!isJson) {
    throw fail('invalid_response', `itch.io ${endpoint} answered HTTP ${status} with a body that is not JSON`);
  }
  const parsed = request.schema.safeParse(body, { error: inEnglish });
  if (!parsed.success) {
    throw fail(
      'invalid_response',
      `itch.io ${endpoint} answered HTTP ${status} with an unexpected body:\n${z.prettifyError(parsed.error)}`,
    );
  }
  return parsed.data;
}

const english = en().localeError;

/**
 * zod/mini ships no messages ("Invalid input"): English ones for this parse, unless the
 * application configured zod's own (`z.config(...)`, which this never changes), so that the error
 * says what was wrong.
 */
const inEnglish = (issue: Parameters<typeof english>[0]) => {
  const { customError, localeError } = z.config();
  return customError !== undefined || localeError !== undefined ? undefined : english(issue);
};

function isRedirect(response: Response): boolean {
  return response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400);
}

function redirectError(response: Response, request: ApiRequest<z.ZodMiniType>): ItchApiError {
  const location = response.headers.get('location');
  const target = location !== null && URL.canParse(location, request.url) ? new URL(location, request.url).origin : 'an unknown address';
  return new ItchApiError({
    code: 'redirect',
    message:
      `itch.io ${request.endpoint} answered HTTP ${response.status}, a redirect to ${redactSecret(target, request.secret)}; ` +
      'redirects are not followed so that the credential never goes elsewhere (set baseUrl or apiBaseUrl if the API moved)',
    endpoint: request.endpoint,
    status: response.status,
  });
}

function transportError(error: unknown, request: ApiRequest<z.ZodMiniType>, timedOut: boolean): ItchApiError {
  const { endpoint } = request;
  if (timedOut) {
    return new ItchApiError({
      code: 'timeout',
      message: `itch.io ${endpoint} did not answer within ${request.timeoutMs} ms`,
      endpoint,
      cause: error,
    });
  }
  if (request.signal?.aborted === true) {
    return new ItchApiError({ code: 'aborted', message: `call to itch.io ${endpoint} aborted`, endpoint, cause: request.signal.reason });
  }
  return new ItchApiError({
    code: 'network_error',
    message: `itch.io ${endpoint} could not be reached (network error)`,
    endpoint,
    cause: error,
  });
}

interface Deadline {
  signal: AbortSignal;
  timedOut(): boolean;
  dispose(): void;
}

/**
 * One signal that aborts when the caller's signal does or when the time is up, built from an
 * `AbortController` and a timer so that it works in every runtime and the timer is cleared.
 */
function startDeadline(outer: AbortSignal | undefined, timeoutMs: number): Deadline {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException(`no answer within ${timeoutMs} ms`, 'TimeoutError'));
  }, timeoutMs);
  const forward = (): void => controller.abort(outer?.reason);
  outer?.addEventListener('abort', forward, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    dispose: () => {
      clearTimeout(timer);
      outer?.removeEventListener('abort', forward);
    },
  };
}

/** Settles like `promise`, or rejects as soon as `signal` aborts, even if `promise` ignores it. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
