/*
 * What a click on <itch-login-button> starts: a login (redirect or popup), and, for a popup login,
 * following it to its outcome with the events the element fires; and what is wrong with the
 * button's options, said once. A Lit reactive controller of the element
 * (https://lit.dev/docs/composition/controllers/): its changes ask the host for an update, which
 * draws its `busy` and `waiting` (see itch-login-button.ts), and the host's connection drives it.
 */
import { ItchOAuthError } from '../core/errors.js';
import { checkLoginOptions, isFramed, preparePopupLogin, startLogin, type LoginHandle, type LoginOptions } from '../core/login.js';
import { showCode } from '../ui/code-overlay.js';
import type { ReactiveController, ReactiveControllerHost } from '../ui/lit.js';
import { errorEvent, type ItchLoginStartDetail, type ItchLoginSuccessDetail } from './events.js';

/**
 * Why the button's options cannot start a login, if they cannot. Valid options for popup mode have
 * the verifier pair of the next login made ahead, so that the click need not wait for it.
 */
export function checkConfig(options: LoginOptions): ItchOAuthError | undefined {
  try {
    if (checkLoginOptions(options).mode === 'popup') void preparePopupLogin();
    return undefined;
  } catch (error) {
    return error instanceof ItchOAuthError ? error : new ItchOAuthError('config_invalid', String(error));
  }
}

/** The element a `ButtonLogin` serves: it fires the events, leaves the page and draws the login's state. */
export type ButtonLoginHost = ReactiveControllerHost & HTMLElement & { navigate(url: string): void };

export class ButtonLogin implements ReactiveController {
  /** A popup login of this button is under way (`aria-busy` on the inner button until its outcome is reported). */
  busy = false;
  /** The popup login under way cannot see its popup: the person may cancel it with this. */
  waiting: AbortController | undefined;

  #starting = false;
  #reported = new Set<string>();
  /** The popup login under way, if any. */
  #login: LoginHandle | undefined;

  /** Added to `host`, which fires the events, leaves the page, and is asked to update when `busy` or `waiting` changes. */
  constructor(private readonly host: ButtonLoginHost) {
    host.addController(this);
  }

  /** Coming back from itch.io through the back/forward cache: the button may start again. */
  #pageShown = (event: PageTransitionEvent) => {
    if (event.persisted) this.#starting = false;
  };

  /** @internal The element is on the page: the back/forward cache may bring it back. */
  hostConnected(): void {
    addEventListener('pageshow', this.#pageShown);
  }

  /** @internal The element left the page: the popup login under way, if any, is given up. */
  hostDisconnected(): void {
    removeEventListener('pageshow', this.#pageShown);
    this.#login?.abandon();
    this.#login = undefined;
    this.busy = false;
    this.waiting = undefined;
  }

  /**
   * Says why once in the console and fires `itch-login-error`, once per distinct reason. (Not in the
   * console: `cookies_blocked`, the player's browser refusing storage, which no developer can fix.)
   */
  report(error: ItchOAuthError): void {
    if (this.#reported.has(error.message)) return;
    this.#reported.add(error.message);
    if (error.code != 'cookies_blocked') console.error(`<itch-login-button>: ${error.message}`);
    this.host.dispatchEvent(errorEvent(error.code, error.message));
  }

  /**
   * Synchronous from click to navigation or popup: nothing is awaited in between. Returns the
   * error when the login cannot start at all (browser storage unavailable).
   */
  click(options: LoginOptions): ItchOAuthError | undefined {
    const { host } = this;
    const open = this.#login?.popup;
    if (open !== undefined && !open.closed) {
      open.focus();
      return;
    }
    if (this.#starting) return;
    // A popup that could not be followed (severed) is given up for a fresh login.
    this.#login?.abandon();
    let handle: LoginHandle;
    const cancel = new AbortController();
    try {
      handle = startLogin(
        { ...options, signal: cancel.signal },
        {
          code: showCode,
          start: (url) =>
            host.dispatchEvent(
              new CustomEvent<ItchLoginStartDetail>('itch-login-start', {
                detail: { url },
                bubbles: true,
                composed: true,
                cancelable: true,
              }),
            ),
          blocked: (error) => {
            const event = errorEvent(error.code, error.message, true);
            return host.dispatchEvent(event) && !isFramed();
          },
          navigate: (url) => {
            this.#starting = true;
            host.navigate(url);
          },
          waiting: (hidden) => {
            if (this.#login !== handle) return;
            this.waiting = hidden ? cancel : undefined;
            this.host.requestUpdate();
          },
        },
      );
    } catch (error) {
      return error instanceof ItchOAuthError ? error : new ItchOAuthError('config_invalid', 'browser storage is unavailable');
    }
    if (!handle.following) {
      // Redirect mode (the page is leaving), a cancelled start, or a blocked popup: its rejection
      // was reported through `blocked` already.
      handle.result.catch(() => undefined);
      return;
    }
    this.#login = handle;
    this.busy = true;
    this.host.requestUpdate();
    const ended = () => {
      this.#login = undefined;
      this.busy = false;
      this.waiting = undefined;
      this.host.requestUpdate();
    };
    handle.result.then(
      ({ response }) => {
        if (this.#login !== handle) return;
        ended();
        host.dispatchEvent(
          new CustomEvent<ItchLoginSuccessDetail>('itch-login-success', { detail: { response }, bubbles: true, composed: true }),
        );
      },
      (error: unknown) => {
        if (this.#login !== handle) return;
        ended();
        const failure = error instanceof ItchOAuthError ? error : new ItchOAuthError('network_error', String(error));
        host.dispatchEvent(errorEvent(failure.code, failure.message));
      },
    );
  }
}
