import { LitElement, html, type PropertyValues } from 'lit';
import { property, state } from 'lit/decorators.js';
import { DEFAULT_BASE_URL, buildAuthorizeUrl } from '../core/authorize-url.js';
import { ItchOAuthError } from '../core/errors.js';
import { assertReturnTo } from '../core/return-to.js';
import { DEFAULT_SCOPE } from '../core/scopes.js';
import { STATE_KEY_PREFIX, createState, saveFlow, type FlowMode } from '../core/state.js';
import { errorEvent, type ItchLoginStartDetail } from './events.js';
import { styles } from './itch-login-button.styles.js';

/**
 * A "Log in with itch.io" button: makes a one-time `state`, remembers the login under it and
 * sends the user to itch.io's authorization page (implicit flow).
 *
 * @tag itch-login-button
 * @summary Starts a login with itch.io.
 * @fires {CustomEvent<ItchLoginStartDetail>} itch-login-start - Clicked, before navigating; cancelable (`preventDefault()` stays on the page). `detail.url` is the itch.io authorization address.
 * @fires {CustomEvent<ItchLoginErrorDetail>} itch-login-error - The configuration is invalid: `detail.code` is `config_invalid`, `detail.message` says why.
 * @slot - The label. Default "Log in with itch.io".
 * @csspart button - The native button.
 * @csspart icon - The itch.io logo.
 * @csspart label - The label's wrapper.
 * @cssproperty --itch-login-background - Background. Default #d63b3b (itch.io red, darkened to 4.6:1 contrast with white).
 * @cssproperty --itch-login-background-hover - Background on hover.
 * @cssproperty --itch-login-color - Text and icon colour.
 * @cssproperty --itch-login-radius - Corner radius.
 * @cssproperty --itch-login-font - Font shorthand.
 * @cssproperty --itch-login-focus-ring - Colour of the keyboard focus ring.
 */
export class ItchLoginButton extends LitElement {
  static override styles = styles;

  /** Client ID of the itch.io OAuth application. Required. */
  @property({ attribute: 'client-id' }) clientId = '';

  /** The redirect URI registered for that application, exactly. Required. */
  @property({ attribute: 'redirect-uri' }) redirectUri = '';

  /** Space-separated itch.io scopes. */
  @property() scope = DEFAULT_SCOPE;

  /** Where itch.io lives (http(s), may carry a path prefix). */
  @property({ attribute: 'base-url' }) baseUrl = DEFAULT_BASE_URL;

  /**
   * `redirect` (or `popup`, not available in this version). Default `redirect`.
   * @type {'redirect' | 'popup' | undefined}
   */
  @property() mode: FlowMode | undefined;

  /** Same-origin path+query to return to after the login. Default: the current path+query. */
  @property({ attribute: 'return-to' }) returnTo: string | undefined;

  /** Disables the button. */
  @property({ type: Boolean, reflect: true }) disabled = false;

  /** Why the configuration is invalid, if it is. */
  @state() private configError: ItchOAuthError | undefined;

  private starting = false;
  private reported = new Set<string>();

  /** Leaves the page for itch.io. Tests replace it. */
  navigate(url: string): void {
    location.assign(url);
  }

  override connectedCallback(): void {
    super.connectedCallback();
    addEventListener('pageshow', this.onPageShow);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    removeEventListener('pageshow', this.onPageShow);
  }

  /** Coming back from itch.io through the back/forward cache: the button may start again. */
  private onPageShow = (event: PageTransitionEvent) => {
    if (event.persisted) this.starting = false;
  };

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('disabled') && changed.size === 1) return;
    this.configError = this.checkConfig();
    if (this.configError) this.report(this.configError);
  }

  private checkConfig(): ItchOAuthError | undefined {
    try {
      if ((this.mode ?? 'redirect') !== 'redirect') {
        throw new ItchOAuthError('config_invalid', 'mode must be "redirect": popup mode is not available in this version');
      }
      buildAuthorizeUrl({ clientId: this.clientId, redirectUri: this.redirectUri, scope: this.scope, baseUrl: this.baseUrl, state: '-' });
      this.targetReturnTo();
      return undefined;
    } catch (error) {
      return error instanceof ItchOAuthError ? error : new ItchOAuthError('config_invalid', String(error));
    }
  }

  private targetReturnTo(): string {
    return assertReturnTo(this.returnTo ?? location.pathname + location.search, location.origin);
  }

  /** Says why once in the console and fires `itch-login-error`, once per distinct reason. */
  private report(error: ItchOAuthError): void {
    if (this.reported.has(error.message)) return;
    this.reported.add(error.message);
    console.error(`<itch-login-button>: ${error.message}`);
    this.dispatchEvent(errorEvent(error.code, error.message));
  }

  /** Synchronous from click to navigation: nothing is awaited in between. */
  private onClick(): void {
    if (this.starting || this.disabled || this.configError) return;
    const state = createState();
    let url: string;
    try {
      url = buildAuthorizeUrl({ clientId: this.clientId, redirectUri: this.redirectUri, scope: this.scope, baseUrl: this.baseUrl, state }).href;
      saveFlow(sessionStorage, state, {
        returnTo: this.targetReturnTo(),
        mode: 'redirect',
        clientId: this.clientId.trim(),
        redirectUri: this.redirectUri,
        scope: this.scope,
        baseUrl: this.baseUrl,
        createdAt: Date.now(),
      });
    } catch (error) {
      this.configError = error instanceof ItchOAuthError ? error : new ItchOAuthError('config_invalid', 'browser storage is unavailable');
      this.report(this.configError);
      return;
    }
    const start = new CustomEvent<ItchLoginStartDetail>('itch-login-start', { detail: { url }, bubbles: true, composed: true, cancelable: true });
    if (!this.dispatchEvent(start)) {
      sessionStorage.removeItem(STATE_KEY_PREFIX + state);
      return;
    }
    this.starting = true;
    this.navigate(url);
  }

  protected override render() {
    const disabled = this.disabled || this.configError !== undefined;
    return html`<button part="button" type="button" ?disabled=${disabled} @click=${this.onClick}>
      <svg part="icon" viewBox="0 0 24 24" fill-rule="evenodd" aria-hidden="true" focusable="false">
        <path
          d="M3 2h18l3 5.2c0 1.7-1.3 3-3 3s-3-1.3-3-3c0 1.7-1.3 3-3 3s-3-1.3-3-3c0 1.7-1.3 3-3 3s-3-1.3-3-3c0 1.7-1.3 3-3 3S0 8.9 0 7.2zM1.5 11.8C1 16 1 19 2 21c5 1.3 15 1.3 20 0 1-2 1-5 .5-9.2-1 .4-2.4.4-3.5-.3-.9.6-2 .9-3 .9s-2.1-.3-3-.9c-.9.6-2 .9-3 .9s-2.1-.3-3-.9c-1.1.7-2.5.7-3.5.3zM8 14.5a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3zm8 0a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3z"
        ></path>
      </svg>
      <span part="label"><slot>Log in with itch.io</slot></span>
    </button>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'itch-login-button': ItchLoginButton;
  }
}
