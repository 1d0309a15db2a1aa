import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import { assertRedirectUri, buildAuthorizeUrl, OOB_REDIRECT_URI } from '../core/authorize-url.js';
import { ItchOAuthError } from '../core/errors.js';
import { parseCallbackFragment, type CallbackResponse } from '../core/fragment.js';
import { DEFAULT_SCOPE } from '../core/scopes.js';
import { createState } from '../core/state.js';
import { CALLBACK_PAGE_CSP, CALLBACK_PAGE_HTML, COMMON_HEADERS } from './callback-page.js';
import { loginOutOfBand } from './out-of-band.js';
import { verifyAccessToken, type DesktopLoginResult } from './verify.js';

/** How long {@link loginWithLoopback} waits for itch.io's answer unless `timeoutMs` says otherwise: 5 minutes. */
export const DEFAULT_LOGIN_TIMEOUT_MS = 5 * 60 * 1000;

/** Largest callback POST accepted (a fragment is at most 4096 characters). */
const MAX_BODY_BYTES = 8192;

/** Options of {@link loginWithLoopback}. */
export interface LoopbackLoginOptions {
  /** Client ID of the itch.io OAuth application. */
  clientId: string;
  /**
   * The application's registered loopback redirect URI, exactly: `http://127.0.0.1:<port>[/<path>]`,
   * `http://[::1]:<port>[/<path>]` or `http://localhost:<port>[/<path>]`. The login listens on
   * that address and port only.
   */
  redirectUri: string;
  /** Space-separated scopes, or a list of them. Default `profile:me`. */
  scope?: string | readonly string[] | undefined;
  /** Where itch.io lives (authorization page). Default `https://itch.io`. */
  baseUrl?: string | undefined;
  /** Where itch.io's OAuth API lives (credentials/info). Default `https://api.itch.io`. */
  apiBaseUrl?: string | undefined;
  /**
   * Opens the login in the browser. It receives the one-time start address on the listener
   * (`http://127.0.0.1:<port>/itch-oauth-start/<nonce>`), never the itch.io authorization URL:
   * whatever it runs has that address on its command line, which other local users can read.
   * Default: the system browser, with the `open` package.
   */
  openBrowser?: ((url: string) => unknown) | undefined;
  /**
   * The out-of-band fallback for when the port cannot be bound: shows the URL and resolves to the
   * key the user pasted (see `loginOutOfBand`). The application must also have
   * `urn:ietf:wg:oauth:2.0:oob` among its redirect URIs.
   */
  readKey?: ((url: string) => string | Promise<string>) | undefined;
  /** Stops the login: the listener closes and the promise rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
  /**
   * How long to wait for the answer, in milliseconds. Default {@link DEFAULT_LOGIN_TIMEOUT_MS}.
   * itch.io sends nothing back when the user clicks Deny, so this is how a refusal ends.
   */
  timeoutMs?: number | undefined;
}

/** Where a loopback login listens, from its redirect URI. */
interface LoopbackTarget {
  redirectUri: string;
  /** Interfaces to bind: one address, or both loopback families for `localhost`. */
  hosts: string[];
  port: number;
  /** The only `Host` header answered (DNS rebinding defence). */
  host: string;
  /** The only `Origin` accepted. */
  origin: string;
  /** Path and query of the redirect URI, as a browser requests them. */
  target: string;
  /** Path of the redirect URI, for the login cookie's `Path`. */
  cookiePath: string;
}

/** Where the one-time start address lives on the listener: this prefix and the nonce. */
const START_PREFIX = '/itch-oauth-start/';

function parseLoopbackRedirectUri(value: string): LoopbackTarget {
  if (value === OOB_REDIRECT_URI) {
    throw new ItchOAuthError('config_invalid', 'redirect-uri is the out-of-band URI: use loginOutOfBand for it');
  }
  const url = new URL(assertRedirectUri(value));
  const bare = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const hosts =
    bare === 'localhost'
      ? ['127.0.0.1', '::1']
      : (isIP(bare) === 4 && bare.startsWith('127.')) || (isIP(bare) === 6 && bare === '::1')
        ? [bare]
        : undefined;
  if (url.protocol !== 'http:' || hosts === undefined) {
    throw new ItchOAuthError(
      'config_invalid',
      `redirect-uri must be a loopback http address (http://127.0.0.1:PORT/…, http://[::1]:PORT/… or http://localhost:PORT/…), got ${JSON.stringify(value)}`,
    );
  }
  return {
    redirectUri: value,
    hosts,
    port: url.port === '' ? 80 : Number(url.port),
    host: url.host,
    origin: url.origin,
    target: url.pathname + url.search,
    // A path with `;` or a control character cannot be a cookie's Path: the cookie then covers `/`.
    cookiePath: /^\/[!-:<-~]*$/.test(url.pathname) ? url.pathname : '/',
  };
}

const BIND_ERRORS = new Set(['EADDRINUSE', 'EACCES', 'EADDRNOTAVAIL', 'EPERM']);

function isBindError(error: unknown): error is NodeJS.ErrnoException {
  return BIND_ERRORS.has((error as NodeJS.ErrnoException | undefined)?.code ?? '');
}

function bindMessage(error: NodeJS.ErrnoException, target: LoopbackTarget): string {
  const why =
    error.code === 'EADDRINUSE'
      ? 'another program is using this port'
      : error.code === 'EADDRNOTAVAIL'
        ? 'this computer has no such loopback address'
        : 'the system or a firewall refuses it';
  const address = `${(error as { address?: string }).address ?? target.hosts[0]}:${target.port}`;
  return (
    `cannot listen on ${address} (${error.code}: ${why}) for the redirect URI ${target.redirectUri}. ` +
    'Close the program that holds the port, or register another loopback redirect URI with a free port ' +
    `for this OAuth application; with readKey, ${OOB_REDIRECT_URI} is used instead when the port is taken.`
  );
}

function closeServers(servers: readonly Server[]): Promise<void> {
  return Promise.all(
    servers.map(
      (server) =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    ),
  ).then(() => undefined);
}

async function listen(target: LoopbackTarget, handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<Server[]> {
  const servers: Server[] = [];
  try {
    for (const host of target.hosts) {
      const server = createServer(handler);
      server.requestTimeout = 30_000;
      server.headersTimeout = 10_000;
      try {
        await new Promise<void>((resolve, reject) => {
          server.once('error', reject);
          server.listen({ port: target.port, host, exclusive: true }, () => {
            server.off('error', reject);
            resolve();
          });
        });
      } catch (error) {
        // `localhost` on a machine without IPv6: 127.0.0.1 alone is enough.
        const code = (error as NodeJS.ErrnoException).code;
        if (target.hosts.length > 1 && host === '::1' && (code === 'EADDRNOTAVAIL' || code === 'EAFNOSUPPORT')) continue;
        throw error;
      }
      servers.push(server);
    }
  } catch (error) {
    await closeServers(servers);
    throw error;
  }
  return servers;
}

async function openSystemBrowser(url: string): Promise<void> {
  const { default: open } = await import('open');
  const child = await open(url);
  child.once('error', () => undefined);
}

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function send(response: ServerResponse, status: number, type: string, body: string, extra: Record<string, string> = {}): Promise<void> {
  return new Promise((resolve) => {
    // A connection the listener closed (the login ended meanwhile) never finishes writing.
    response.once('close', () => resolve());
    response.writeHead(status, { ...COMMON_HEADERS, 'content-type': type, 'content-length': String(Buffer.byteLength(body)), ...extra });
    response.end(body, () => resolve());
  });
}

/** Whether the `Cookie` header carries `name` with the value `value` (any of its copies). */
function hasCookie(header: string | undefined, name: string, value: string): boolean {
  let found = false;
  for (const pair of (header ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === name && sameSecret(pair.slice(at + 1).trim(), value)) found = true;
  }
  return found;
}

/** The words the callback page shows: a heading and a sentence. */
interface PageAnswer {
  title: string;
  message: string;
}

const answer = (response: ServerResponse, status: number, words: PageAnswer, extra?: Record<string, string>): Promise<void> =>
  send(response, status, 'application/json; charset=utf-8', JSON.stringify(words), extra);

const refuse = (response: ServerResponse, status: number, reason: string): Promise<void> =>
  send(response, status, 'text/plain; charset=utf-8', `${reason}\n`);

async function readBody(request: IncomingMessage): Promise<string | undefined> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

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
  const timeoutMs = options.timeoutMs ?? DEFAULT_LOGIN_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0 || timeoutMs > 2 ** 31 - 1) {
    throw new ItchOAuthError('config_invalid', `timeoutMs must be a positive number of milliseconds, got ${String(timeoutMs)}`);
  }
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
      if (url.search !== '' || !url.pathname.startsWith(START_PREFIX) || !sameSecret(url.pathname, startPath)) return refuse(response, 404, 'Not found');
      return handleStart(response);
    }
    if (settled) return refuse(response, 410, 'This login is over');

    if (request.method === 'GET') {
      return send(response, 200, 'text/html; charset=utf-8', CALLBACK_PAGE_HTML, { 'content-security-policy': CALLBACK_PAGE_CSP });
    }
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
      return answer(response, 400, { title: 'This is not an answer from itch.io', message: 'It was ignored: the application still waits for the login.' });
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
        { title: error.code === 'access_denied' ? 'Login cancelled' : 'The login did not complete', message: `The application was told. You can close this tab.` },
        { connection: 'close', ...clearCookie },
      );
      return finish({ ok: false, error });
    }
    let result: DesktopLoginResult;
    try {
      result = await verifyAccessToken(callback.accessToken, { apiBaseUrl: options.apiBaseUrl, signal });
    } catch (error) {
      await answer(response, 200, { title: 'The login did not complete', message: `${(error as Error).message}. You can close this tab.` }, { connection: 'close', ...clearCookie });
      return finish({ ok: false, error });
    }
    await answer(response, 200, { title: 'You are logged in', message: 'You can close this tab and go back to the application.' }, { connection: 'close', ...clearCookie });
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
    const span = Number.isInteger(minutes) ? `${minutes} minute${minutes === 1 ? '' : 's'}` : `${seconds} second${seconds === 1 ? '' : 's'}`;
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
        error: new ItchOAuthError('config_invalid', `could not open the browser at the itch.io login page: ${(cause as Error).message}`, { cause }),
      });
    }
  }
  return outcome;
}
