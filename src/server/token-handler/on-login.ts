/*
 * What the app's `onLogin` receives and may return, and the answer made of what it returned:
 * shared by the token handler, its popup relay and `createSessions`, whose `onLogin` is one.
 */
import type { User } from '../itch-api/login-schemas.js';
import type { Owns } from './ownership.js';

/**
 * What `onLogin` learns about a verified login.
 * @group Token endpoint
 */
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
 * @group Token endpoint
 */
export type OnLoginResult = Response | { headers?: HeadersInit | undefined } | undefined | void;

/**
 * The answer to a login that `onLogin` accepted: its own `Response` (`no-store` unless it says
 * otherwise), or 200 with `body` and the headers it returned.
 */
export function loginAnswer(result: OnLoginResult, body: unknown): Response {
  if (result instanceof Response) return withNoStore(result);
  const headers = new Headers(result?.headers);
  headers.set('Content-Type', 'application/json; charset=utf-8');
  if (!headers.has('Cache-Control')) headers.set('Cache-Control', 'no-store');
  return new Response(JSON.stringify(body), { status: 200, headers });
}

function withNoStore(response: Response): Response {
  if (response.headers.has('Cache-Control')) return response;
  const headers = new Headers(response.headers);
  headers.set('Cache-Control', 'no-store');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
