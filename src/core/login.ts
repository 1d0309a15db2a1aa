import { DEFAULT_BASE_URL, buildAuthorizeUrl } from './authorize-url.js';
import { ItchOAuthError, type ItchOAuthErrorCode } from './errors.js';
import { assertReturnTo } from './return-to.js';
import { DEFAULT_SCOPE } from './scopes.js';
import { askForClick, type ShowContinue } from './ask-for-click.js';
import { closeOnceAsked, collect, type CollectHooks } from './popup-collect.js';
import { makePair, preparePopupLogin, takePair } from './popup-pair.js';
import { listenToStartPage, openPopup, type StartPageLink } from './popup-start.js';
import { ABORTED } from './shared-login.js';
import { STATE_KEY_PREFIX, createState, flowStorage, saveFlow, type LoginMode } from './state.js';

export { preparePopupLogin };
export type { LoginMode };

/**
 * The button's attributes in camelCase.
 * @group Log in from code
 */
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
  mode?: LoginMode | undefined;
  /** Same-origin path+query the callback sends the user back to (redirect mode). Default: this page. */
  returnTo?: string | undefined;
  /** The app's token endpoint (the capture's `data-backend`); popup mode collects the login from it. */
  backend?: string | undefined;
  /** Cancels a popup login: the popup closes and the login rejects with `aborted`. */
  signal?: AbortSignal | undefined;
  /**
   * A DPoP proof (RFC 9449) for each collection of a popup login, the `POST` to this URL:
   * `gameSession()`'s, whose game token is bound to its key.
   * @internal
   */
  dpop?: ((url: string) => Promise<string>) | undefined;
}

/**
 * What a finished login gives: the backend's JSON answer, never the token.
 * @group Log in from code
 */
export interface LoginResult {
  response: unknown;
  /** @internal The backend's `DPoP-Nonce` (RFC 9449 section 9), for the game session's first proofs. */
  nonce?: string | null;
}

/**
 * What the caller of {@link startLogin} decides along the way (the button fires events here).
 * @group Steps of a login
 */
export interface LoginHooks {
  /** Just before leaving for itch.io; `false` cancels (nothing happens). */
  start?(url: string): boolean;
  /** The browser refused the popup; `true` goes on in redirect mode. Default: when not framed. */
  blocked?(error: ItchOAuthError): boolean;
  /** Leaves the page. Default `location.assign`. */
  navigate?(url: string): void;
  /**
   * `true` while the popup's state is hidden from this page (an authorization page severed it, or
   * `window.open` gave nothing): its outcome may still come, so offer to cancel. (The login's
   * end ends it too.)
   */
  waiting?(hidden: boolean): void;
  /**
   * Shows the code the popup asks the person to check against this page (a popup whose state this
   * page cannot see); `undefined` hides it. Default: nothing is shown.
   */
  code?(code?: string): void;
}

/**
 * A started login: its outcome, and the popup while it is open.
 * @group Steps of a login
 */
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

/**
 * Whether this document is in a frame (then a redirect cannot work: itch.io refuses framing).
 * @group Steps of a login
 */
export function isFramed(): boolean {
  try {
    return window.top !== window.self;
  } catch {
    return true;
  }
}

/** `value` resolved against the page's address, an http(s) URL; else `config_invalid` naming `what`. */
export function httpUrl(value: string, what: string): URL {
  const url = typeof value == 'string' && URL.canParse(value, location.href) ? new URL(value, location.href) : undefined;
  if (!url || !/^https?:$/.test(url.protocol))
    throw new ItchOAuthError('config_invalid', `${what} must be an http(s) URL, got ${JSON.stringify(value)}`);
  return url;
}

/**
 * Checks the options as far as possible before anything happens.
 * @group Steps of a login
 */
export function checkLoginOptions(options: LoginOptions): { mode: LoginMode; backend: URL | undefined; returnTo: string } {
  const mode = options.mode ?? (isFramed() ? 'popup' : 'redirect');
  if (mode !== 'redirect' && mode !== 'popup')
    throw new ItchOAuthError('config_invalid', `mode must be "redirect" or "popup", got ${JSON.stringify(mode)}`);
  buildAuthorizeUrl({ ...authorizeOptions(options), state: '-' });
  const returnTo = assertReturnTo(options.returnTo ?? location.pathname + location.search, location.origin);
  const backend = options.backend ? httpUrl(options.backend, 'backend') : undefined;
  if (mode === 'popup' && backend === undefined) {
    throw new ItchOAuthError('config_invalid', "popup mode needs backend: your token endpoint (the capture's data-backend)");
  }
  return { mode, backend, returnTo };
}

function authorizeOptions(options: LoginOptions) {
  return {
    clientId: options.clientId,
    redirectUri: options.redirectUri,
    scope: options.scope ?? DEFAULT_SCOPE,
    baseUrl: options.baseUrl ?? DEFAULT_BASE_URL,
  };
}

/**
 * Starts a login, synchronously up to leaving the page or opening the popup (call it in a click
 * or key handler: popups need the user's activation).
 *
 * @throws ItchOAuthError `config_invalid` for bad options, `cookies_blocked` for storage the browser refuses (redirect mode).
 * @group Steps of a login
 */
export function startLogin(options: LoginOptions, hooks: LoginHooks = {}): LoginHandle {
  const { mode, backend, returnTo } = checkLoginOptions(options);
  const authorize = authorizeOptions(options);
  const urlOf = (state: string) => buildAuthorizeUrl({ ...authorize, state }).href;
  const redirect = () => redirectLogin(authorize, returnTo, urlOf, hooks);
  return mode === 'redirect' ? redirect() : popupLogin(options.signal, backend!, urlOf, { ...hooks, proof: options.dpop }, redirect);
}

/** The handle of a login that leaves the page, or that did not start: its result never comes. */
const idle = (): LoginHandle => ({
  result: new Promise<LoginResult>(() => undefined),
  popup: undefined,
  following: false,
  abandon: () => undefined,
});

/** Redirect mode: remembers the login under a new state in this tab, then leaves for itch.io. */
function redirectLogin(
  authorize: ReturnType<typeof authorizeOptions>,
  returnTo: string,
  urlOf: (state: string) => string,
  hooks: LoginHooks,
): LoginHandle {
  const state = createState();
  const url = urlOf(state);
  const storage = flowStorage();
  saveFlow(storage, state, {
    ...authorize,
    clientId: authorize.clientId.trim(),
    returnTo,
    mode: 'redirect',
    createdAt: Date.now(),
  });
  if (hooks.start?.(url) === false) {
    storage.removeItem(STATE_KEY_PREFIX + state);
    return idle();
  }
  (hooks.navigate ?? ((to: string) => location.assign(to)))(url);
  return idle();
}

/** Popup mode: opens the backend's start page in a popup, then collects the login's outcome from the backend. */
function popupLogin(
  cancel: AbortSignal | undefined,
  backend: URL,
  urlOf: (state: string) => string,
  hooks: LoginHooks & Pick<CollectHooks, 'proof'>,
  redirect: () => LoginHandle,
): LoginHandle {
  const pair = takePair();
  const url = pair === undefined ? undefined : urlOf(pair.state);
  if (hooks.start?.(url ?? urlOf('p.')) === false) return idle();
  // The popup opens on the backend's start page, which asks this page (its opener) to confirm
  // the state before it goes on to itch.io: the backend binds the login to this browser only then.
  const startUrl = (state: string) => {
    const start = new URL(backend);
    for (const [name, value] of new URL(urlOf(state)).searchParams) if (name != 'response_type') start.searchParams.set(name, value);
    return start.href;
  };
  const link: StartPageLink = { state: pair?.state, binding: pair?.binding, progress: {} };
  const stopListening = listenToStartPage(backend, link);
  const popup = (link.popup = openPopup(link.state === undefined ? 'about:blank' : startUrl(link.state)));
  const blocked = new ItchOAuthError('popup_blocked', 'the browser blocked the itch.io window: allow popups, or click again');
  if (popup === null && (pair === undefined || !isFramed())) {
    stopListening();
    if ((hooks.blocked ?? (() => !isFramed()))(blocked)) return redirect();
    return { result: Promise.reject(blocked), popup: undefined, following: false, abandon: () => undefined };
  }

  const abort = new AbortController();
  // The start page of a cancelled login is not answered; this page still hears it ask, to close it then.
  const onCancel = () => {
    link.binding = undefined;
    abort.abort();
    void closeOnceAsked(popup, link.progress).finally(stopListening);
  };
  cancel?.addEventListener('abort', onCancel, { once: true });
  if (cancel?.aborted) onCancel();
  const result = (async () => {
    try {
      // Without a pair ready (a click at once after load), the popup opened blank and goes on now.
      const { verifier, binding, state } = pair ?? (await makePair());
      link.state = state;
      link.binding = binding;
      if (pair === undefined && !popup!.closed && !abort.signal.aborted) popup!.location.href = startUrl(state);
      // (window.open gave nothing, and the popup never reached the backend: it was blocked.)
      return await collect(
        popup,
        backend,
        verifier,
        state,
        abort.signal,
        link.progress,
        hooks, // (collect reads its code, waiting and proof)
        () => {
          throw blocked;
        },
      );
    } catch (error) {
      if (cancel?.aborted) throw new ItchOAuthError('aborted', ABORTED, { cause: cancel.reason });
      throw error;
    } finally {
      cancel?.removeEventListener('abort', onCancel);
      if (!cancel?.aborted) stopListening();
      hooks.code?.();
    }
  })();
  return { result, popup: popup ?? undefined, following: true, abandon: () => abort.abort() };
}

/**
 * `login()` with what it draws given: the decisions of a login from code (popup or redirect, a
 * click left or the Continue button asked for), drawn by the layer that ships the UI: `showCode`
 * shows the code to check (see `LoginHooks.code`), `showContinue` the "Continue with itch.io"
 * button when no click is left to open a popup in.
 * @group Steps of a login
 */
export function loginWith(options: LoginOptions, showCode: (code?: string) => void, showContinue: ShowContinue): Promise<LoginResult> {
  const signal = options.signal;
  const fail = (code: ItchOAuthErrorCode, message: string) => Promise.reject(new ItchOAuthError(code, message, { cause: signal?.reason }));
  if (signal?.aborted) return fail('aborted', ABORTED);
  // A popup refused (even in the Continue button's click) is popup_blocked: never a redirect that would leave the game.
  const follow = (cancel = signal) => {
    try {
      return startLogin({ ...options, signal: cancel }, { code: showCode, blocked: () => false }).result;
    } catch (error) {
      return error instanceof ItchOAuthError ? Promise.reject(error) : fail('config_invalid', String(error));
    }
  };
  // The person's click on the Continue button starts the login as if it had been called in it.
  const askPerson = () => askForClick(follow, showContinue, signal);
  // Where the browser says that a popup may not open now (https://html.spec.whatwg.org/multipage/interaction.html#the-useractivation-interface),
  // the button asks for a click at once. A popup refused all the same (an engine without that
  // API; WebKit, whose blocker refuses one a frame after the click that it calls active) asks too.
  let active = true;
  try {
    active =
      (navigator as { userActivation?: { isActive: boolean } }).userActivation?.isActive !== false ||
      checkLoginOptions(options).mode != 'popup';
  } catch {
    // (Rejected by startLogin below.)
  }
  return active
    ? follow().catch((error: ItchOAuthError) => (error.code == 'popup_blocked' ? askPerson() : Promise.reject(error)))
    : askPerson();
}
