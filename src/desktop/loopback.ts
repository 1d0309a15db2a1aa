import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { buildAuthorizeUrl } from '../core/authorize-url.js';
import { ItchOAuthError } from '../core/errors.js';
import { parseCallbackFragment, type CallbackResponse } from '../core/fragment.js';
import { DEFAULT_SCOPE } from '../core/scopes.js';
import { createState } from '../core/state.js';
import { callbackPage } from './callback-page.js';
import { desktopWords } from '../i18n/desktop-pages.js';
import { answer, hasCookie, readBody, refuse, sameSecret, send } from './loopback-http.js';
import { bindMessage, closeServers, isBindError, listen, parseLoopbackRedirectUri } from './loopback-listener.js';
import { loginOutOfBand } from './out-of-band.js';
import { openSystemBrowser, readTimeout, type LoopbackLoginOptions } from './loopback-options.js';
import { verifyAccessToken, type DesktopLoginResult } from './verify.js';

/** Where the one-time start address lives on the listener: this prefix and the nonce. */
const START_PREFIX = '/itch-oauth-start/';

function describeError(response: Extract<CallbackResponse, { type: 'error' }>): ItchOAuthError {
  return response.error === 'access_denied'
    ? new ItchOAuthError('access_denied', 'the user declined the login on itch.io')
    : new ItchOAuthError('invalid_response', `itch.io answered with the error ${JSON.stringify(response.error)}`);
}

/**
 * Logs in a desktop game or tool through a loopback redirect URI (itch.io's OAuth implicit flow,
 * for native apps as in RFC 8252): listens on the registered `http://127.0.0.1:<port>[/<path>]`
 * (loopback only, never all interfaces), opens the authorization page in the system browser, and
 * waits for the browser to come back. The page it serves there reads the token from the address
 * fragment, clears it, and POSTs it back with the `state`; the token is checked with
 * credentials/info before the promise resolves.
 *
 * Refused, and answered without ending the login: another `Host` (DNS rebinding) or `Origin`,
 * other paths and methods, a callback without this login's `state` or with another one, a
 * callback without the login cookie (below), and any callback after the state was used once.
 * The listener stops on the outcome, on `signal` abort and on timeout, before the promise settles
 * (the port can be bound again at once).
 *
 * The browser is not handed the authorization URL: its `state` would sit on the command line of
 * the opener (`xdg-open`, `open`) and often of the browser, which every local user can read
 * (`/proc/<pid>/cmdline`, `ps`), and whoever has the state can race a callback carrying their own
 * token: the loopback redirect of RFC 8252 section 7.3 is open to any local program (section
 * 8.1), and the state is what tells this login's answer from an injected one (section 8.9). `openBrowser` gets a one-time start address on the listener instead,
 * `http://127.0.0.1:<port>/itch-oauth-start/<nonce>` (256 random bits), which answers `302` to
 * the authorization URL (`Cache-Control: no-store`, `Referrer-Policy: no-referrer`) and sets an
 * `HttpOnly; SameSite=Lax` cookie on the loopback address that the callback must carry. It works
 * once: a second visit is refused and stops the login (`state_mismatch`, "another program
 * opened the login address"), unless the login already ended. The browser must accept cookies
 * from the loopback address.
 *
 * What this leaves: another local user who watches process command lines can still take the
 * start address before the browser does, visit it first (getting the state and the cookie) and
 * deliver a complete forged callback before the browser's own visit arrives and stops the login;
 * the login then ends with their token, and the browser finds nobody listening. The window is
 * the time from the opener's spawn to the browser's first request, which is a cold browser's
 * start-up: 8.1–15.6 s over six cold starts of headless Chromium on a loaded 2-core machine,
 * against 0.1–0.8 s for a watcher polling `/proc` to hold the state and 0.5–1.9 s to have its
 * callback accepted (local emulator; add one round trip to itch.io): the watcher won all six
 * trials. A browser that is already running answers sooner, but it is still a race. A watcher
 * that comes later than the browser only stops the login. Without the cookie of the start
 * address, the state alone (seen in the address bar, a history, a screen share) no longer lets
 * anyone answer for this login. Hiding
 * other users' processes (`hidepid=2` on Linux's `/proc`) or opening the browser through a
 * channel without a command line (a running browser's own IPC) closes the rest.
 *
 * A game the itch app launched needs no browser: try `fromItchApp` first, then this, which
 * falls back to the out-of-band flow when the port is taken and `readKey` is given:
 *
 * @example
 * ```ts
 * import { fromItchApp, loginWithLoopback } from 'itch-oauth-widget/desktop';
 * // 1. Launched by the itch app: its key, checked with itch.io (undefined otherwise).
 * const fromApp = await fromItchApp().catch(() => undefined); // an expired or refused key: log in below
 * // 2. The system browser and a loopback redirect URI; 3. out-of-band if the port is taken.
 * const login = fromApp ?? await loginWithLoopback({
 *   clientId: 'YOUR_CLIENT_ID',
 *   redirectUri: 'http://127.0.0.1:34567/callback',
 *   readKey: (url) => askThePlayerToPaste(url), // shows url, resolves to the key itch.io shows
 * });
 * ```
 *
 * @throws ItchOAuthError `config_invalid` for bad options; `network_error` when the port cannot be
 *   bound and there is no `readKey` (the message names the port and the redirect URI), or itch.io
 *   cannot be reached; `access_denied` when itch.io redirects with `error=access_denied`;
 *   `state_mismatch` when the start address was visited twice (another program had it);
 *   `timeout` when nothing came back in time (itch.io's Deny sends nothing back);
 *   `backend_rejected` when itch.io does not know the returned key; the signal's reason on abort.
 * @see https://itch.io/docs/api/oauth
 * @see https://www.rfc-editor.org/rfc/rfc8252 (OAuth 2.0 for native apps, loopback redirection)
 * @see https://www.rfc-editor.org/rfc/rfc8252#section-8.9 (cross-app request forgery: the state)
 */
export async function loginWithLoopback(options: LoopbackLoginOptions): Promise<DesktopLoginResult> {
  const target = parseLoopbackRedirectUri(options.redirectUri);
  const timeoutMs = readTimeout(options.timeoutMs);
  const { signal } = options;
  signal?.throwIfAborted();
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
  const startAddress = target.origin + startPath;
  // What only the first visitor of the start address gets: a cookie on the loopback origin,
  // required on the callback POST. The state alone (copied from the address bar, history, a
  // screen) is then not enough to answer for this login.
  const cookieName = `itch-oauth-login-${target.port}`;
  const cookieValue = createState();
  const cookieAttributes = `Path=${target.cookiePath}; HttpOnly; SameSite=Lax`;
  const setCookie = `${cookieName}=${cookieValue}; ${cookieAttributes}; Max-Age=${Math.ceil(timeoutMs / 1000)}`;
  const clearCookie = { 'set-cookie': `${cookieName}=; ${cookieAttributes}; Max-Age=0` };

  let resolveOutcome!: (result: DesktopLoginResult) => void;
  let rejectOutcome!: (error: unknown) => void;
  const outcome = new Promise<DesktopLoginResult>((resolve, reject) => {
    resolveOutcome = resolve;
    rejectOutcome = reject;
  });
  let settled = false;
  let stateUsed = false;
  let startUsed = false;
  let servers: Server[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;

  const finish = (result: { ok: true; value: DesktopLoginResult } | { ok: false; error: unknown }): void => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
    void closeServers(servers).then(() => (result.ok ? resolveOutcome(result.value) : rejectOutcome(result.error)));
  };
  const onAbort = (): void => finish({ ok: false, error: signal?.reason });

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    // DNS rebinding: a page of another site resolved to 127.0.0.1 sends its own name as Host.
    if ((request.headers.host ?? '').toLowerCase() !== target.host) return refuse(response, 421, 'Refused: unexpected Host');
    const origin = request.headers.origin;
    if (origin !== undefined && origin !== target.origin) return refuse(response, 403, 'Refused: unexpected Origin');
    const url = new URL(request.url ?? '/', target.origin);
    if (url.pathname + url.search !== target.target) {
      if (url.search !== '' || !url.pathname.startsWith(START_PREFIX) || !sameSecret(url.pathname, startPath))
        return refuse(response, 404, 'Not found');
      return handleStart(response);
    }
    if (settled) return refuse(response, 410, 'This login is over');

    // The page and its answers speak the browser's language (Accept-Language).
    const language = request.headers['accept-language'];
    if (request.method === 'GET') return send(response, 200, 'text/html; charset=utf-8', ...callbackPage(language));
    const { words } = desktopWords(language);
    if (request.method !== 'POST') return send(response, 405, 'text/plain; charset=utf-8', 'Method not allowed\n', { allow: 'GET, POST' });
    // The page's own fetch always carries its Origin; a JSON body cannot come from a plain form.
    if (origin === undefined) return refuse(response, 403, 'Refused: no Origin');
    if (!/^application\/json\s*(;|$)/i.test(request.headers['content-type'] ?? '')) return refuse(response, 415, 'Refused: JSON only');
    const body = await readBody(request);
    if (body === undefined) return refuse(response, 413, 'Refused: too large');
    if (!hasCookie(request.headers.cookie, cookieName, cookieValue)) {
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
    if (stateUsed || callback.state === undefined || !sameSecret(callback.state, state)) {
      // Not this login's answer (forged, or an old tab): refused, and the login goes on.
      return answer(response, 400, {
        title: 'This answer is not for the login in progress',
        message: 'It was ignored. If you started a login, finish it in the tab the application opened.',
      });
    }
    stateUsed = true;

    if (callback.type === 'error') {
      const error = describeError(callback);
      await answer(
        response,
        200,
        {
          title: error.code === 'access_denied' ? words.cancelled_title : words.failed_title,
          message: words.told,
        },
        { connection: 'close', ...clearCookie },
      );
      return finish({ ok: false, error });
    }
    let result: DesktopLoginResult;
    try {
      result = await verifyAccessToken(callback.accessToken, { apiBaseUrl: options.apiBaseUrl, signal });
    } catch (error) {
      await answer(
        response,
        200,
        { title: words.failed_title, message: `${(error as Error).message}. ${words.close}` },
        { connection: 'close', ...clearCookie },
      );
      return finish({ ok: false, error });
    }
    await answer(response, 200, { title: words.done_title, message: words.done }, { connection: 'close', ...clearCookie });
    return finish({ ok: true, value: result });
  };

  /**
   * The start address: the first request gets the authorization URL (302) and the login cookie.
   * A second one means that something other than the browser had the address (another program
   * read the command line, most likely): it may hold the state, so the login stops, unless its
   * outcome is already settled. Which of the two requests was the browser is unknown, and does
   * not matter: refusing both ends of the race is what keeps a forged callback out.
   */
  const handleStart = async (response: ServerResponse): Promise<void> => {
    if (settled) return refuse(response, 410, 'This login is over');
    if (!startUsed) {
      startUsed = true;
      return send(response, 302, 'text/plain; charset=utf-8', 'Continue to itch.io\n', { location: authorizeUrl, 'set-cookie': setCookie });
    }
    await refuse(
      response,
      403,
      'This login address was already opened once, by another program or an earlier visit. The application stopped the login for safety: start it again from the application.',
    );
    finish({
      ok: false,
      error: new ItchOAuthError(
        'state_mismatch',
        `another program opened the login address (${START_PREFIX}…) handed to the browser, which works once: it may have read the login's state, so the login was stopped. Start the login again; if this repeats, another user or program on this computer may be watching its command lines.`,
      ),
    });
  };

  try {
    servers = await listen(target, (request, response) => {
      handle(request, response).catch(() => {
        if (!response.headersSent) void refuse(response, 500, 'Internal error');
        else response.destroy();
      });
    });
  } catch (error) {
    if (!isBindError(error)) throw error;
    const { readKey } = options;
    if (readKey !== undefined) return loginOutOfBand({ ...options, readKey });
    throw new ItchOAuthError('network_error', bindMessage(error, target), { cause: error });
  }

  timer = setTimeout(() => {
    const minutes = timeoutMs / 60_000;
    const seconds = Math.max(1, Math.round(timeoutMs / 1000));
    const span = Number.isInteger(minutes)
      ? `${minutes} minute${minutes === 1 ? '' : 's'}`
      : `${seconds} second${seconds === 1 ? '' : 's'}`;
    finish({
      ok: false,
      error: new ItchOAuthError(
        'timeout',
        `no answer from itch.io within ${span}: the login was refused or abandoned (itch.io sends nothing back when the user clicks Deny). Start the login again.`,
      ),
    });
  }, timeoutMs);
  signal?.addEventListener('abort', onAbort, { once: true });
  if (signal?.aborted === true) onAbort();

  if (!settled) {
    try {
      await (options.openBrowser ?? openSystemBrowser)(startAddress);
    } catch (cause) {
      finish({
        ok: false,
        error: new ItchOAuthError('config_invalid', `could not open the browser at the itch.io login page: ${(cause as Error).message}`, {
          cause,
        }),
      });
    }
  }
  return outcome;
}
