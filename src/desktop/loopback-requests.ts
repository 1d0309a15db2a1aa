/*
 * The requests a loopback login answers on its listener: the one-time start address, the
 * callback page, and the page's POST of the fragment, each checked before it may end the login.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { buildAuthorizeUrl } from '../core/authorize-url.js';
import { ItchOAuthError } from '../core/errors.js';
import { parseCallbackFragment, type CallbackResponse } from '../core/fragment.js';
import { DEFAULT_SCOPE } from '../core/scopes.js';
import { createState } from '../core/state.js';
import { desktopWords } from '../i18n/desktop-pages.js';
import { callbackPage } from './callback-page.js';
import { answer, hasCookie, readBody, refuse, sameSecret, send } from './loopback-http.js';
import type { LoopbackTarget } from './loopback-listener.js';
import type { LoopbackLoginOptions } from './loopback-options.js';
import { verifyAccessToken, type DesktopLoginResult } from './verify.js';

/** Where the one-time start address lives on the listener: this prefix and the nonce. */
export const START_PREFIX = '/itch-oauth-start/';

/** What a login decides before it listens: its state, its addresses, its login cookie. */
export interface LoopbackPlan {
  options: LoopbackLoginOptions;
  target: LoopbackTarget;
  timeoutMs: number;
  state: string;
  authorizeUrl: string;
  /** The one-time start address handed to the browser, and its path. */
  startAddress: string;
  startPath: string;
  cookie: { name: string; value: string; set: string; clear: Record<string, string> };
}

/** A login in progress, as its requests see and end it. */
export interface LoopbackLogin {
  plan: LoopbackPlan;
  settled: boolean;
  stateUsed: boolean;
  startUsed: boolean;
  /** Stops the timer and the abort listener (set once the login waits). */
  stopWaiting(): void;
  finish(result: { ok: true; value: DesktopLoginResult } | { ok: false; error: unknown }): void;
}

/** The plan of one login: a fresh state, start address and login cookie. */
export function planLogin(options: LoopbackLoginOptions, target: LoopbackTarget, timeoutMs: number): LoopbackPlan {
  const state = createState();
  const authorizeUrl = buildAuthorizeUrl({
    clientId: options.clientId,
    redirectUri: target.redirectUri,
    scope: options.scope ?? DEFAULT_SCOPE,
    state,
    baseUrl: options.baseUrl,
  }).href;
  // The browser gets a one-time address on the listener instead of the authorization URL: a
  // command line is readable by every local user (`/proc/<pid>/cmdline`, `ps`), and whoever
  // reads the state there can race a callback with their own token. Only the 302 answer to the
  // start address carries the state, and it is answered once.
  // RFC 8252 section 8.1: another program on the same machine can reach the loopback redirect
  // (section 7.3); section 8.9: the state is what refuses an injected answer, so it stays secret.
  const startPath = START_PREFIX + createState();
  // What only the first visitor of the start address gets: a cookie on the loopback origin,
  // required on the callback POST. The state alone (copied from the address bar, history, a
  // screen) is then not enough to answer for this login.
  const name = `itch-oauth-login-${target.port}`;
  const value = createState();
  const attributes = `Path=${target.cookiePath}; HttpOnly; SameSite=Lax`;
  return {
    options,
    target,
    timeoutMs,
    state,
    authorizeUrl,
    startAddress: target.origin + startPath,
    startPath,
    cookie: {
      name,
      value,
      set: `${name}=${value}; ${attributes}; Max-Age=${Math.ceil(timeoutMs / 1000)}`,
      clear: { 'set-cookie': `${name}=; ${attributes}; Max-Age=0` },
    },
  };
}

/** Any request to the listener: the start address, the callback page, or its POST. */
export async function handleRequest(login: LoopbackLogin, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const { plan } = login;
  // DNS rebinding: a page of another site resolved to 127.0.0.1 sends its own name as Host.
  if ((request.headers.host ?? '').toLowerCase() !== plan.target.host) return refuse(response, 421, 'Refused: unexpected Host');
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== plan.target.origin) return refuse(response, 403, 'Refused: unexpected Origin');
  const url = new URL(request.url ?? '/', plan.target.origin);
  if (url.pathname + url.search !== plan.target.target) {
    if (url.search !== '' || !url.pathname.startsWith(START_PREFIX) || !sameSecret(url.pathname, plan.startPath))
      return refuse(response, 404, 'Not found');
    return handleStart(login, response);
  }
  if (login.settled) return refuse(response, 410, 'This login is over');

  // The page and its answers speak the browser's language (Accept-Language).
  const language = request.headers['accept-language'];
  if (request.method === 'GET') return send(response, 200, 'text/html; charset=utf-8', ...callbackPage(language));
  if (request.method !== 'POST') return send(response, 405, 'text/plain; charset=utf-8', 'Method not allowed\n', { allow: 'GET, POST' });
  // The page's own fetch always carries its Origin; a JSON body cannot come from a plain form.
  if (origin === undefined) return refuse(response, 403, 'Refused: no Origin');
  return handleCallback(login, request, response);
}

/** The callback page's POST: this browser's, with this login's state, once; then the outcome. */
async function handleCallback(login: LoopbackLogin, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const { plan } = login;
  if (!/^application\/json\s*(;|$)/i.test(request.headers['content-type'] ?? '')) return refuse(response, 415, 'Refused: JSON only');
  const body = await readBody(request);
  if (body === undefined) return refuse(response, 413, 'Refused: too large');
  if (!hasCookie(request.headers.cookie, plan.cookie.name, plan.cookie.value)) {
    // Not from the browser that opened the start address: refused, and the login goes on.
    return answer(response, 403, {
      title: 'This answer is not from the browser the login was opened in',
      message: 'It was ignored. Finish the login in the browser tab the application opened (it needs cookies from this address).',
    });
  }

  let callback: CallbackResponse;
  try {
    const fragment: unknown = (JSON.parse(body) as { fragment?: unknown } | null)?.fragment;
    if (typeof fragment !== 'string') throw new ItchOAuthError('invalid_response', 'no fragment');
    callback = parseCallbackFragment(fragment);
  } catch {
    return answer(response, 400, {
      title: 'This is not an answer from itch.io',
      message: 'It was ignored: the application still waits for the login.',
    });
  }
  if (login.stateUsed || callback.state === undefined || !sameSecret(callback.state, plan.state)) {
    // Not this login's answer (forged, or an old tab): refused, and the login goes on.
    return answer(response, 400, {
      title: 'This answer is not for the login in progress',
      message: 'It was ignored. If you started a login, finish it in the tab the application opened.',
    });
  }
  login.stateUsed = true;
  return deliver(login, callback, response, desktopWords(request.headers['accept-language']).words);
}

/** The outcome of this login's callback: itch.io's error, or its token checked with itch.io. */
async function deliver(
  login: LoopbackLogin,
  callback: CallbackResponse,
  response: ServerResponse,
  words: ReturnType<typeof desktopWords>['words'],
): Promise<void> {
  const { plan } = login;

  if (callback.type === 'error') {
    const error = describeError(callback);
    await answer(
      response,
      200,
      {
        title: error.code === 'access_denied' ? words.cancelled_title : words.failed_title,
        message: words.told,
      },
      { connection: 'close', ...plan.cookie.clear },
    );
    return login.finish({ ok: false, error });
  }
  let result: DesktopLoginResult;
  try {
    result = await verifyAccessToken(callback.accessToken, { apiBaseUrl: plan.options.apiBaseUrl, signal: plan.options.signal });
  } catch (error) {
    await answer(
      response,
      200,
      { title: words.failed_title, message: `${(error as Error).message}. ${words.close}` },
      { connection: 'close', ...plan.cookie.clear },
    );
    return login.finish({ ok: false, error });
  }
  await answer(response, 200, { title: words.done_title, message: words.done }, { connection: 'close', ...plan.cookie.clear });
  return login.finish({ ok: true, value: result });
}

/**
 * The start address: the first request gets the authorization URL (302) and the login cookie.
 * A second one means that something other than the browser had the address (another program
 * read the command line, most likely): it may hold the state, so the login stops, unless its
 * outcome is already settled. Which of the two requests was the browser is unknown, and does
 * not matter: refusing both ends of the race is what keeps a forged callback out.
 */
async function handleStart(login: LoopbackLogin, response: ServerResponse): Promise<void> {
  const { plan } = login;
  if (login.settled) return refuse(response, 410, 'This login is over');
  if (!login.startUsed) {
    login.startUsed = true;
    return send(response, 302, 'text/plain; charset=utf-8', 'Continue to itch.io\n', {
      location: plan.authorizeUrl,
      'set-cookie': plan.cookie.set,
    });
  }
  await refuse(
    response,
    403,
    'This login address was already opened once, by another program or an earlier visit. The application stopped the login for safety: start it again from the application.',
  );
  login.finish({
    ok: false,
    error: new ItchOAuthError(
      'state_mismatch',
      `another program opened the login address (${START_PREFIX}…) handed to the browser, which works once: it may have read the login's state, so the login was stopped. Start the login again; if this repeats, another user or program on this computer may be watching its command lines.`,
    ),
  });
}

function describeError(response: Extract<CallbackResponse, { type: 'error' }>): ItchOAuthError {
  return response.error === 'access_denied'
    ? new ItchOAuthError('access_denied', 'the user declined the login on itch.io')
    : new ItchOAuthError('invalid_response', `itch.io answered with the error ${JSON.stringify(response.error)}`);
}
