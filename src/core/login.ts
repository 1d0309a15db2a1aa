import { DEFAULT_BASE_URL, buildAuthorizeUrl } from './authorize-url.js';
import { ItchOAuthError, isErrorCode } from './errors.js';
import { assertReturnTo } from './return-to.js';
import { DEFAULT_SCOPE } from './scopes.js';
import { STATE_KEY_PREFIX, STATE_LIFETIME_MS, createState, popupBindingOf, popupCodeOf, popupStateOfBinding, saveFlow, type FlowMode } from './state.js';

/** The button's attributes in camelCase. */
export interface LoginOptions {
  /** Client ID of the itch.io OAuth application. */
  clientId: string;
  /** The redirect URI registered for that application, exactly: the page with the capture. */
  redirectUri: string;
  /** Space-separated scopes. Default `profile:me`. */
  scope?: string | undefined;
  /** Where itch.io lives. Default `https://itch.io`. */
  baseUrl?: string | undefined;
  /** `redirect` or `popup`. Default `popup` in a frame, else `redirect`. */
  mode?: FlowMode | undefined;
  /** Same-origin path+query the callback sends the user back to (redirect mode). Default: this page. */
  returnTo?: string | undefined;
  /** The app's token endpoint (the capture's `data-backend`); popup mode collects the login from it. */
  backend?: string | undefined;
  /** Cancels a popup login: the popup closes and the login rejects with `aborted`. */
  signal?: AbortSignal | undefined;
}

/** What a finished login gives: the backend's JSON answer, never the token. */
export interface LoginResult {
  response: unknown;
}

/** What the caller of {@link startLogin} decides along the way (the button fires events here). */
export interface LoginHooks {
  /** Just before leaving for itch.io; `false` cancels (nothing happens). */
  start?(url: string): boolean;
  /** The browser refused the popup; `true` goes on in redirect mode. Default: when not framed. */
  blocked?(error: ItchOAuthError): boolean;
  /** Leaves the page. Default `location.assign`. */
  navigate?(url: string): void;
}

/** A started login: its outcome, and the popup while it is open. */
export interface LoginHandle {
  /** Resolves with the backend's answer; never settles once the page leaves in redirect mode. */
  result: Promise<LoginResult>;
  /** The popup, when this page can see it (a framed page under a cross-origin-isolated top cannot). */
  popup: Window | undefined;
  /** Whether `result` settles: a popup login under way, seen or not (not a redirect, a cancelled start or a blocked popup). */
  following: boolean;
  /** Stops waiting (the outcome, if any, stays uncollected and expires on the server). */
  abandon(): void;
}

/** How often the opener asks the backend for the popup's outcome. */
const POLL_MS = 1000;
/** Asked this often after the popup closed, until {@link CLOSED_GRACE_MS} is over. */
const CLOSED_POLL_MS = 300;
/** After the popup closed, the outcome may still be on its way (the popup closes itself after posting it). */
const CLOSED_GRACE_MS = 3000;
/**
 * While the backend says the popup's token is being checked (`delivering`), a closed popup is
 * waited for this much longer at most (a callback page with its own COOP reads as closed as soon
 * as it loads, before its POST is answered).
 */
const DELIVERING_MAX_MS = 30_000;
/**
 * A popup that reads as closed this soon after opening was most likely severed by the
 * authorization page's `Cross-Origin-Opener-Policy` (the opener then sees `closed` at once): its
 * outcome may still come, for up to {@link SEVERED_WAIT_MS}.
 */
const SEVERED_WITHIN_MS = 2500;
const SEVERED_WAIT_MS = 5 * 60 * 1000;
/**
 * A `window.open` that returned `null` from a frame may still have opened the popup (a top-level
 * page with `Cross-Origin-Opener-Policy: same-origin`, as itch.io serves cross-origin-isolated
 * games): the backend is asked this long whether the popup arrived before it counts as blocked.
 */
const ARRIVAL_WAIT_MS = 4000;
/** Consecutive failed collections (network, 5xx) before giving up. */
const MAX_FAILURES = 5;

const POPUP_WIDTH = 600;
const POPUP_HEIGHT = 720;

/** Whether this document is in a frame (then a redirect cannot work: itch.io refuses framing). */
export function isFramed(): boolean {
  try {
    return window.top !== window.self;
  } catch {
    return true;
  }
}

interface PopupPair {
  /** 256 random bits, base64url: the proof that collects the outcome. Only in this memory. */
  verifier: string;
  /**
   * base64url(SHA-256(verifier)): handed to the popup's start page only, which has the backend
   * set it as the browser's binding cookie. It proves where the login started; it cannot collect it.
   */
  binding: string;
  /** `p.` + base64url(SHA-256(binding)): sent to itch.io and back, and by the popup to the backend. */
  state: string;
}

let readyPair: PopupPair | undefined;
let makingPair: Promise<void> | undefined;

/**
 * Makes the next popup pair ahead of the click, so that the click opens the popup without
 * awaiting anything (SHA-256 is async in Web Crypto). Called by the button when it connects and
 * after every use; harmless to call again.
 */
export function preparePopupLogin(): Promise<void> {
  if (readyPair !== undefined) return Promise.resolve();
  makingPair ??= makePair().then(
    (pair) => {
      readyPair = pair;
      makingPair = undefined;
    },
    () => {
      makingPair = undefined;
    },
  );
  return makingPair;
}

async function makePair(): Promise<PopupPair> {
  const verifier = createState();
  if (crypto.subtle === undefined) {
    throw new ItchOAuthError('config_invalid', 'popup mode needs a secure context (https, or http on localhost)');
  }
  const binding = await popupBindingOf(verifier);
  return { verifier, binding, state: await popupStateOfBinding(binding) };
}

/** The ready pair, if any, and a new one on its way. */
function takePair(): PopupPair | undefined {
  const pair = readyPair;
  readyPair = undefined;
  void preparePopupLogin();
  return pair;
}

/** Checks the options as far as possible before anything happens. */
export function checkLoginOptions(options: LoginOptions): { mode: FlowMode; backend: URL | undefined; returnTo: string } {
  const mode = options.mode ?? (isFramed() ? 'popup' : 'redirect');
  if (mode !== 'redirect' && mode !== 'popup') throw new ItchOAuthError('config_invalid', `mode must be "redirect" or "popup", got ${JSON.stringify(mode)}`);
  buildAuthorizeUrl({ ...authorizeOptions(options), state: '-' });
  const returnTo = assertReturnTo(options.returnTo ?? location.pathname + location.search, location.origin);
  let backend: URL | undefined;
  if (options.backend) {
    backend = URL.canParse(options.backend, location.href) ? new URL(options.backend, location.href) : undefined;
    if (backend === undefined || !/^https?:$/.test(backend.protocol)) {
      throw new ItchOAuthError('config_invalid', `backend must be an http(s) URL, got ${JSON.stringify(options.backend)}`);
    }
  }
  if (mode === 'popup' && backend === undefined) {
    throw new ItchOAuthError('config_invalid', 'popup mode needs backend: the URL of your token endpoint (the capture\'s data-backend), from which the login is collected');
  }
  return { mode, backend, returnTo };
}

function authorizeOptions(options: LoginOptions) {
  return { clientId: options.clientId, redirectUri: options.redirectUri, scope: options.scope ?? DEFAULT_SCOPE, baseUrl: options.baseUrl ?? DEFAULT_BASE_URL };
}

/**
 * Starts a login, synchronously up to leaving the page or opening the popup (call it in a click
 * or key handler: popups need the user's activation).
 *
 * @throws ItchOAuthError `config_invalid` for bad options or unusable storage (redirect mode).
 */
export function startLogin(options: LoginOptions, hooks: LoginHooks = {}): LoginHandle {
  const { mode, backend, returnTo } = checkLoginOptions(options);
  const authorize = authorizeOptions(options);
  const urlOf = (state: string) => buildAuthorizeUrl({ ...authorize, state }).href;
  const navigate = hooks.navigate ?? ((url: string) => location.assign(url));
  const never = new Promise<LoginResult>(() => undefined);
  const cancelled: LoginHandle = { result: never, popup: undefined, following: false, abandon: () => undefined };

  const redirect = (): LoginHandle => {
    const state = createState();
    const url = urlOf(state);
    saveFlow(sessionStorage, state, { ...authorize, clientId: authorize.clientId.trim(), returnTo, mode: 'redirect', createdAt: Date.now() });
    if (hooks.start?.(url) === false) {
      sessionStorage.removeItem(STATE_KEY_PREFIX + state);
      return cancelled;
    }
    navigate(url);
    return cancelled;
  };
  if (mode === 'redirect') return redirect();

  const pair = takePair();
  const url = pair === undefined ? undefined : urlOf(pair.state);
  if (hooks.start?.(url ?? urlOf('p.')) === false) return cancelled;
  // The popup opens on the backend's start page, which asks this page (its opener) to confirm
  // the state before it goes on to itch.io: the backend binds the login to this browser only then.
  const startUrl = (state: string) => {
    const start = new URL(backend!);
    for (const [name, value] of new URL(urlOf(state)).searchParams) if (name != 'response_type') start.searchParams.set(name, value);
    return start.href;
  };
  let state = pair?.state;
  let binding = pair?.binding;
  let confirmedAt: number | undefined;
  const onMessage = (event: MessageEvent) => {
    const data = event.data as { itchOAuth?: unknown; state?: unknown } | null;
    if (event.origin != backend!.origin || data?.itchOAuth != 'popup-start' || state === undefined || data.state != state) return;
    if (popup !== null && event.source !== popup) return;
    if (binding === undefined) return;
    (event.source as Window).postMessage({ itchOAuth: 'popup-opener', state, binding }, event.origin);
    confirmedAt = Date.now();
  };
  addEventListener('message', onMessage);
  const left = Math.round(screenX + Math.max(0, outerWidth - POPUP_WIDTH) / 2);
  const top = Math.round(screenY + Math.max(0, outerHeight - POPUP_HEIGHT) / 2);
  const popup = window.open(state === undefined ? 'about:blank' : startUrl(state), '_blank', `popup,width=${POPUP_WIDTH},height=${POPUP_HEIGHT},left=${left},top=${top}`);
  const blocked = new ItchOAuthError('popup_blocked', 'the browser blocked the itch.io login window: allow popups for this site, or click again');
  if (popup === null && (pair === undefined || !isFramed())) {
    removeEventListener('message', onMessage);
    if ((hooks.blocked ?? (() => !isFramed()))(blocked)) return redirect();
    return { result: Promise.reject(blocked), popup: undefined, following: false, abandon: () => undefined };
  }

  const abort = new AbortController();
  const cancel = options.signal;
  const onCancel = () => {
    closePopup(popup);
    abort.abort();
  };
  cancel?.addEventListener('abort', onCancel, { once: true });
  if (cancel?.aborted) onCancel();
  const result = (async () => {
    try {
      // Without a pair ready (a click at once after load), the popup opened blank and goes on now.
      const { verifier, binding: madeBinding, state: made } = pair ?? (await makePair());
      state = made;
      binding = madeBinding;
      if (pair === undefined && !popup!.closed) popup!.location.href = startUrl(made);
      // (window.open gave nothing, and the popup never reached the backend: it was blocked.)
      return await collect(popup, backend!, verifier, made, abort.signal, () => confirmedAt, () => {
        throw blocked;
      });
    } catch (error) {
      if (cancel?.aborted) throw new ItchOAuthError('aborted', 'the page cancelled the login', { cause: cancel.reason });
      throw error;
    } finally {
      cancel?.removeEventListener('abort', onCancel);
      removeEventListener('message', onMessage);
      showCode(undefined);
    }
  })();
  return { result, popup: popup ?? undefined, following: true, abandon: () => abort.abort() };
}

let codeView: HTMLElement | undefined;

/**
 * Shows (or, with `undefined`, removes) the code that the person confirms in a popup this page
 * cannot see (its `window.open` returned nothing): the one sign that ties the two together.
 */
function showCode(code: string | undefined): void {
  codeView?.remove();
  codeView = undefined;
  if (code === undefined) return;
  codeView = document.createElement('div');
  codeView.setAttribute('role', 'status');
  codeView.style.cssText =
    'position:fixed;z-index:2147483647;inset:auto 1rem 1rem auto;max-width:20rem;padding:1rem;border-radius:.5rem;background:#222;color:#fff;font:16px/1.4 system-ui,sans-serif;box-shadow:0 4px 16px #0008';
  codeView.textContent = `Logging in with itch.io: check that the login window shows the code ${code}, and confirm it there.`;
  document.body.append(codeView);
}

/** Asks the backend for the popup's outcome until it comes, the popup is gone, or time is up. */
async function collect(
  popup: Window | null,
  backend: URL,
  verifier: string,
  state: string,
  signal: AbortSignal,
  confirmedAt: () => number | undefined,
  blocked: () => never,
): Promise<LoginResult> {
  const opened = Date.now();
  /** Whether the backend said the popup reached its start page (always known for a popup we can see). */
  let arrived = popup !== null;
  let closedAt: number | undefined;
  /** Until when a closed popup is waited for: its grace, extended while its token is being checked. */
  let waitUntil = Infinity;
  let failures = 0;
  let lastProblem = '';
  for (;;) {
    if (closedAt === undefined && popup?.closed) {
      closedAt = Date.now();
      waitUntil = closedAt + CLOSED_GRACE_MS;
    }
    try {
      const answer = await fetch(backend, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ popup_verifier: verifier }),
        credentials: 'same-origin',
        cache: 'no-store',
        redirect: 'error',
        referrerPolicy: 'no-referrer',
        signal,
      });
      const body: unknown = await answer.json().catch(() => null);
      const pending = answer.status === 202 ? (body as { pending?: unknown; delivering?: unknown; arrived?: unknown; confirm?: unknown } | null) : null;
      if (pending?.pending === true) {
        failures = 0;
        if (pending.arrived === true && !arrived) {
          arrived = true;
          // A popup this page cannot see: the person ties the two together by a code.
          if (pending.confirm === true) showCode(popupCodeOf(state));
        }
        if (pending.delivering === true && closedAt !== undefined) waitUntil = Math.min(Date.now() + CLOSED_GRACE_MS, closedAt + DELIVERING_MAX_MS);
      } else if (answer.ok) {
        closePopup(popup);
        return { response: body };
      } else if (answer.status < 500) {
        closePopup(popup);
        const { errors, code } = (body ?? {}) as { errors?: unknown; code?: unknown };
        const why = Array.isArray(errors) ? errors.join('; ') : `HTTP ${answer.status}`;
        // The backend may name the contract's code (`not_owner`, `popup_unverified`, …).
        throw new ItchOAuthError(isErrorCode(code) ? code : 'backend_rejected', `the backend refused the login: ${why}`);
      } else {
        failures++;
        lastProblem = `the backend answered HTTP ${answer.status}`;
      }
    } catch (error) {
      if (error instanceof ItchOAuthError) throw error;
      if (signal.aborted) throw new ItchOAuthError('popup_closed', 'the login was abandoned');
      failures++;
      lastProblem = 'the backend could not be reached';
    }
    if (failures >= MAX_FAILURES) {
      throw new ItchOAuthError(lastProblem.includes('HTTP') ? 'backend_rejected' : 'network_error', `${lastProblem}; the login could not be collected`);
    }

    const now = Date.now();
    if (!arrived && now - opened > ARRIVAL_WAIT_MS) blocked();
    // Severed: it read as closed as soon as it left for itch.io (after the start page), or it
    // could never be seen at all.
    const severed = popup === null || (closedAt !== undefined && closedAt - (confirmedAt() ?? opened) < SEVERED_WITHIN_MS);
    if (closedAt !== undefined && !severed && now > waitUntil) {
      throw new ItchOAuthError('popup_closed', 'the itch.io login window was closed before the login finished');
    }
    if ((severed && now - opened > SEVERED_WAIT_MS) || now - opened > STATE_LIFETIME_MS) {
      throw new ItchOAuthError(
        'popup_closed',
        `no login arrived within ${Math.round((severed ? SEVERED_WAIT_MS : STATE_LIFETIME_MS) / 60_000)} minutes (the login window was closed, or could not be followed)`,
      );
    }
    // Wait for the next poll, waking up early when the popup closes.
    const next = Date.now() + (closedAt !== undefined && !severed ? CLOSED_POLL_MS : arrived ? POLL_MS : CLOSED_POLL_MS);
    while (Date.now() < next && (closedAt !== undefined || !popup?.closed)) await new Promise((resolve) => setTimeout(resolve, 100));
    if (signal.aborted) throw new ItchOAuthError('popup_closed', 'the login was abandoned');
  }
}

function closePopup(popup: Window | null): void {
  try {
    if (popup && !popup.closed) popup.close();
  } catch {
    // A severed popup cannot be reached.
  }
}

/**
 * Logs in with itch.io from code: a game engine's JavaScript bridge, or an app that draws its
 * own button. Call it in a click or key handler: popup mode (the default in a frame) opens the
 * itch.io window at once and resolves with the backend's answer; redirect mode leaves the page.
 *
 * @example
 * button.onclick = () => ItchOAuth.login({ clientId, redirectUri, backend: '/auth/itch', mode: 'popup' })
 *   .then(({ response }) => startGame(response))
 *   .catch((error) => showError(error.code));
 * @throws never: failures reject with an `ItchOAuthError` (`popup_blocked`, `popup_closed`,
 *   `backend_rejected`, `network_error`, `config_invalid`, `aborted` when `signal` aborts).
 */
export function login(options: LoginOptions): Promise<LoginResult> {
  if (options.signal?.aborted) return Promise.reject(new ItchOAuthError('aborted', 'the page cancelled the login', { cause: options.signal.reason }));
  try {
    return startLogin(options).result;
  } catch (error) {
    return Promise.reject(error instanceof ItchOAuthError ? error : new ItchOAuthError('config_invalid', String(error)));
  }
}
