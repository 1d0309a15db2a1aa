import type { Server } from 'node:http';
import { ItchOAuthError } from '../core/errors.js';
import { refuse } from './loopback-http.js';
import { bindMessage, closeServers, isBindError, listen, parseLoopbackRedirectUri } from './loopback-listener.js';
import { openSystemBrowser, readTimeout, type LoopbackLoginOptions } from './loopback-options.js';
import { handleRequest, planLogin, type LoopbackLogin, type LoopbackPlan } from './loopback-requests.js';
import { loginOutOfBand } from './out-of-band.js';
import type { DesktopLoginResult } from './verify.js';

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
  options.signal?.throwIfAborted();
  const plan = planLogin(options, target, timeoutMs);
  const { login, outcome, servers } = startLogin(plan);
  try {
    servers.push(
      ...(await listen(target, (request, response) => {
        handleRequest(login, request, response).catch(() => {
          if (!response.headersSent) void refuse(response, 500, 'Internal error');
          else response.destroy();
        });
      })),
    );
  } catch (error) {
    if (!isBindError(error)) throw error;
    const { readKey } = options;
    if (readKey !== undefined) return loginOutOfBand({ ...options, readKey });
    throw new ItchOAuthError('network_error', bindMessage(error, target), { cause: error });
  }
  endOnTimeoutOrAbort(login);
  if (!login.settled) {
    try {
      await (options.openBrowser ?? openSystemBrowser)(plan.startAddress);
    } catch (cause) {
      login.finish({
        ok: false,
        error: new ItchOAuthError('config_invalid', `could not open the browser at the itch.io login page: ${(cause as Error).message}`, {
          cause,
        }),
      });
    }
  }
  return outcome;
}

/** The login's outcome, settled once: the listener closes first, so its port is free again. */
function startLogin(plan: LoopbackPlan): { login: LoopbackLogin; outcome: Promise<DesktopLoginResult>; servers: Server[] } {
  let resolveOutcome!: (result: DesktopLoginResult) => void;
  let rejectOutcome!: (error: unknown) => void;
  const outcome = new Promise<DesktopLoginResult>((resolve, reject) => {
    resolveOutcome = resolve;
    rejectOutcome = reject;
  });
  const servers: Server[] = [];
  const login: LoopbackLogin = {
    plan,
    settled: false,
    stateUsed: false,
    startUsed: false,
    stopWaiting: () => undefined,
    finish(result) {
      if (login.settled) return;
      login.settled = true;
      login.stopWaiting();
      void closeServers(servers).then(() => (result.ok ? resolveOutcome(result.value) : rejectOutcome(result.error)));
    },
  };
  return { login, outcome, servers };
}

/** Ends the login after `timeoutMs`, or when its `signal` aborts. */
function endOnTimeoutOrAbort(login: LoopbackLogin): void {
  const { timeoutMs, options } = login.plan;
  const { signal } = options;
  const timer = setTimeout(() => {
    const minutes = timeoutMs / 60_000;
    const seconds = Math.max(1, Math.round(timeoutMs / 1000));
    const span = Number.isInteger(minutes)
      ? `${minutes} minute${minutes === 1 ? '' : 's'}`
      : `${seconds} second${seconds === 1 ? '' : 's'}`;
    login.finish({
      ok: false,
      error: new ItchOAuthError(
        'timeout',
        `no answer from itch.io within ${span}: the login was refused or abandoned (itch.io sends nothing back when the user clicks Deny). Start the login again.`,
      ),
    });
  }, timeoutMs);
  const onAbort = (): void => login.finish({ ok: false, error: signal?.reason });
  login.stopWaiting = () => {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  if (signal?.aborted === true) onAbort();
}
