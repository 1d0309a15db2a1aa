import { LitElement, html, nothing, type PropertyValues } from 'lit';
import { DEFAULT_BASE_URL } from '../core/authorize-url.js';
import { ItchOAuthError } from '../core/errors.js';
import { checkLoginOptions, isFramed, preparePopupLogin, startLogin, type LoginHandle, type LoginOptions } from '../core/login.js';
import { DEFAULT_SCOPE } from '../core/scopes.js';
import type { FlowMode } from '../core/state.js';
import type { WidgetMessages } from '../i18n/catalogue.js';
import { button as en } from '../i18n/locales/en.js';
import { messagesFor, watch } from '../i18n/messages.js';
import { errorEvent, type ItchLoginStartDetail, type ItchLoginSuccessDetail } from './events.js';
import { styles } from './itch-login-button.styles.js';

/**
 * A "Log in with itch.io" button. In redirect mode it makes a one-time `state`, remembers the
 * login under it and sends the user to itch.io's authorization page (implicit flow). In popup
 * mode (the default in a frame) it opens that page in a popup, synchronously in the click, and
 * collects the outcome from `backend` once the popup's callback delivered the token there.
 *
 * @tag itch-login-button
 * @summary Starts a login with itch.io.
 * @fires {CustomEvent<ItchLoginStartDetail>} itch-login-start - Clicked, before navigating or opening the popup; cancelable (`preventDefault()` stays on the page). `detail.url` is the itch.io authorization address.
 * @fires {CustomEvent<ItchLoginSuccessDetail>} itch-login-success - Popup mode: the backend accepted the login. `detail.response` is its JSON answer, never the token.
 * @fires {CustomEvent<ItchLoginErrorDetail>} itch-login-error - The configuration is invalid, or the popup login failed: `detail.code` and `detail.message`. Cancelable for `popup_blocked` (cancel it to stay put instead of falling back to redirect mode).
 * @slot - The label. Default "Log in with itch.io", in the language of the element's closest `lang` attribute (else the browser's): see docs/guides/languages.md.
 * @csspart button - The native button.
 * @csspart icon - The itch.io logo.
 * @csspart label - The label's wrapper.
 * @csspart cancel - "Cancel", shown while the popup's state is hidden from the page (an authorization page severed it): its outcome may still come, or never.
 * @cssproperty [--itch-login-background=light-dark(#d63b3b, #ff6b6b)] - Background: itch.io's red, darkened to 4.6:1 contrast with white (WCAG asks 4.5:1); lighter on a dark page.
 * @cssproperty [--itch-login-background-hover=light-dark(#c93030, #ff8a8a)] - Background on hover.
 * @cssproperty [--itch-login-color=light-dark(#ffffff, #16161a)] - Text and icon colour.
 * @cssproperty [--itch-login-radius=6px] - Corner radius.
 * @cssproperty [--itch-login-font=inherit] - Font shorthand.
 * @cssproperty [--itch-login-focus-ring=light-dark(#1f6feb, #8ab4ff)] - Colour of the keyboard focus ring.
 */
export class ItchLoginButton extends LitElement {
  /** @internal The element's styles, for Lit; style it with its parts and custom properties. */
  static override styles = styles;

  /**
   * @internal Lit's reactive properties, declared without decorators (which would add their
   * helpers to every bundle): each attribute as the public properties below document it. `state`
   * has no attribute (https://lit.dev/docs/components/properties/#internal-reactive-state).
   */
  static override properties = {
    clientId: { attribute: 'client-id' },
    redirectUri: { attribute: 'redirect-uri' },
    scope: {},
    baseUrl: { attribute: 'base-url' },
    mode: {},
    backend: {},
    returnTo: { attribute: 'return-to' },
    disabled: { type: Boolean, reflect: true },
    messages: { attribute: false },
    configError: { state: true, attribute: false },
    busy: { state: true, attribute: false },
    waiting: { state: true, attribute: false },
  };

  /** Client ID of the itch.io OAuth application. Required. */
  clientId = '';

  /** The redirect URI registered for that application, exactly. Required. */
  redirectUri = '';

  /** Space-separated itch.io scopes. */
  scope = DEFAULT_SCOPE;

  /** Where itch.io lives (http(s), may carry a path prefix). */
  baseUrl = DEFAULT_BASE_URL;

  /**
   * `redirect` or `popup`. Default `popup` when the page is framed, else `redirect`.
   * @type {'redirect' | 'popup' | undefined}
   */
  mode: FlowMode | undefined;

  /**
   * URL of the app's token endpoint (the capture's `data-backend`): popup mode collects the
   * login from it. Required for popup mode.
   */
  backend: string | undefined;

  /** Same-origin path+query to return to after the login. Default: the current path+query. */
  returnTo: string | undefined;

  /** Disables the button. */
  disabled = false;

  /**
   * Messages over the shipped ones of the element's language, by key (`login`, `cancel`; the
   * keys of `src/i18n/locales/en.ts`), e.g. `{ login: 'Sign in' }`.
   */
  messages: Partial<WidgetMessages> | undefined;

  /** The words in the element's language (`undefined` while they load: nothing is rendered in another language first). */
  #words: typeof en | undefined;
  #unwatch: (() => void) | undefined;

  /** Why the configuration is invalid, if it is. */
  private configError: ItchOAuthError | undefined;
  /** A popup login of this button is under way (`aria-busy` on the inner button until its outcome is reported). */
  private busy = false;
  /** The popup login under way cannot see its popup: the person may cancel it with this. */
  private waiting: AbortController | undefined;

  #starting = false;
  #reported = new Set<string>();
  /** The popup login under way, if any. */
  #flow: LoginHandle | undefined;

  /** @internal Leaves the page for itch.io. Tests replace it. */
  navigate(url: string): void {
    location.assign(url);
  }

  override connectedCallback(): void {
    super.connectedCallback();
    addEventListener('pageshow', this.#onPageShow);
    this.#unwatch = watch(() => this.requestUpdate());
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    removeEventListener('pageshow', this.#onPageShow);
    this.#unwatch?.();
    this.#flow?.abandon();
    this.#flow = undefined;
    this.busy = false;
    this.waiting = undefined;
  }

  /** Coming back from itch.io through the back/forward cache: the button may start again. */
  #onPageShow = (event: PageTransitionEvent) => {
    if (event.persisted) this.#starting = false;
  };

  protected override shouldUpdate(): boolean {
    return (this.#words = messagesFor(this, en)) !== undefined;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('disabled') && changed.size === 1) return;
    this.configError = this.#checkConfig();
    if (this.configError) this.#report(this.configError);
  }

  #options(): LoginOptions {
    return {
      clientId: this.clientId,
      redirectUri: this.redirectUri,
      scope: this.scope,
      baseUrl: this.baseUrl,
      mode: this.mode,
      returnTo: this.returnTo,
      backend: this.backend,
    };
  }

  #checkConfig(): ItchOAuthError | undefined {
    try {
      if (checkLoginOptions(this.#options()).mode === 'popup') void preparePopupLogin();
      return undefined;
    } catch (error) {
      return error instanceof ItchOAuthError ? error : new ItchOAuthError('config_invalid', String(error));
    }
  }

  /** Says why once in the console and fires `itch-login-error`, once per distinct reason. */
  #report(error: ItchOAuthError): void {
    if (this.#reported.has(error.message)) return;
    this.#reported.add(error.message);
    console.error(`<itch-login-button>: ${error.message}`);
    this.dispatchEvent(errorEvent(error.code, error.message));
  }

  /** Synchronous from click to navigation or popup: nothing is awaited in between. */
  #onClick(): void {
    if (this.disabled || this.configError) return;
    const open = this.#flow?.popup;
    if (open !== undefined && !open.closed) {
      open.focus();
      return;
    }
    if (this.#starting) return;
    // A popup that could not be followed (severed) is given up for a fresh login.
    this.#flow?.abandon();
    let flow: LoginHandle;
    const cancel = new AbortController();
    try {
      flow = startLogin(
        { ...this.#options(), signal: cancel.signal },
        {
          start: (url) =>
            this.dispatchEvent(
              new CustomEvent<ItchLoginStartDetail>('itch-login-start', {
                detail: { url },
                bubbles: true,
                composed: true,
                cancelable: true,
              }),
            ),
          blocked: (error) => {
            const event = errorEvent(error.code, error.message, true);
            return this.dispatchEvent(event) && !isFramed();
          },
          navigate: (url) => {
            this.#starting = true;
            this.navigate(url);
          },
          waiting: (hidden) => {
            if (this.#flow === flow) this.waiting = hidden ? cancel : undefined;
          },
        },
      );
    } catch (error) {
      this.configError = error instanceof ItchOAuthError ? error : new ItchOAuthError('config_invalid', 'browser storage is unavailable');
      this.#report(this.configError);
      return;
    }
    if (!flow.following) {
      // Redirect mode (the page is leaving), a cancelled start, or a blocked popup: its rejection
      // was reported through `blocked` already.
      flow.result.catch(() => undefined);
      return;
    }
    this.#flow = flow;
    this.busy = true;
    const ended = () => {
      this.#flow = undefined;
      this.busy = false;
      this.waiting = undefined;
    };
    flow.result.then(
      ({ response }) => {
        if (this.#flow !== flow) return;
        ended();
        this.dispatchEvent(
          new CustomEvent<ItchLoginSuccessDetail>('itch-login-success', { detail: { response }, bubbles: true, composed: true }),
        );
      },
      (error: unknown) => {
        if (this.#flow !== flow) return;
        ended();
        const failure = error instanceof ItchOAuthError ? error : new ItchOAuthError('network_error', String(error));
        this.dispatchEvent(errorEvent(failure.code, failure.message));
      },
    );
  }

  /**
   * "Cancel" goes away with the login it ends: the focus goes back to the login button first, so a
   * keyboard user is not left on nothing. (Without it, focus stays on the login button all along:
   * the popup is another window.)
   */
  #cancel(): void {
    this.renderRoot.querySelector('button')!.focus();
    this.waiting?.abort();
  }

  protected override render() {
    const words = { ...this.#words!, ...this.messages };
    const disabled = this.disabled || this.configError !== undefined;
    return html`<button part="button" type="button" ?disabled=${disabled} aria-busy=${this.busy ? 'true' : nothing} @click=${this.#onClick}>
      <svg part="icon" viewBox="0 0 24 24" fill-rule="evenodd" aria-hidden="true" focusable="false">
        <path
          d="M3 2h18l3 5.2c0 1.7-1.3 3-3 3s-3-1.3-3-3c0 1.7-1.3 3-3 3s-3-1.3-3-3c0 1.7-1.3 3-3 3s-3-1.3-3-3c0 1.7-1.3 3-3 3S0 8.9 0 7.2zM1.5 11.8C1 16 1 19 2 21c5 1.3 15 1.3 20 0 1-2 1-5 .5-9.2-1 .4-2.4.4-3.5-.3-.9.6-2 .9-3 .9s-2.1-.3-3-.9c-.9.6-2 .9-3 .9s-2.1-.3-3-.9c-1.1.7-2.5.7-3.5.3zM8 14.5a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3zm8 0a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3z"
        ></path>
      </svg>
      <span part="label"><slot>${words.login}</slot></span>
    </button>
    ${this.waiting ? html`<button part="cancel" type="button" @click=${this.#cancel}>${words.cancel}</button>` : nothing}`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'itch-login-button': ItchLoginButton;
  }
}
