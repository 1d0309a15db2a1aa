import { DEFAULT_BASE_URL } from '../core/authorize-url.js';
import { ItchOAuthError } from '../core/errors.js';
import type { LoginOptions } from '../core/login.js';
import { DEFAULT_SCOPE } from '../core/scopes.js';
import type { FlowMode } from '../core/state.js';
import type { WidgetMessages } from '../i18n/catalogue.js';
import { button as en } from '../i18n/locales/en.js';
import { messagesFor, watch } from '../i18n/messages.js';
import { LitElement, html, nothing, type PropertyDeclarations, type PropertyValues } from '../ui/lit.js';
import { itchLogo } from '../ui/itch-logo.js';
import { ButtonLogin, checkConfig } from './itch-login-button.login.js';
import { styles } from './itch-login-button.styles.js';

/** An attribute's text, or `undefined` (not `null`) once it is removed. */
const orUndefined = (value: string | null) => value ?? undefined;

/**
 * A "Log in with itch.io" button. In redirect mode it makes a one-time `state`, remembers the
 * login under it and sends the user to itch.io's authorization page (implicit flow). In popup
 * mode (the default in a frame) it opens that page in a popup, synchronously in the click, and
 * collects the outcome from `backend` once the popup's callback delivered the token there.
 * After a property or attribute is set, `await el.updateComplete` (Lit's: it resolves with `true`
 * once the changes made so far are drawn) before reading the shadow tree.
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
 * @group Elements
 */
export class ItchLoginButton extends LitElement {
  /** @internal Lit's style sheet of the shadow root; style the element with its parts and custom properties. */
  static override styles = styles;

  /**
   * @internal Lit's reactive properties (https://lit.dev/docs/components/properties/), without
   * decorators. An attribute removed gives its property the default back (`useDefault`); one
   * whose default is `undefined` gets `undefined` back rather than `null`.
   */
  static override properties: PropertyDeclarations = {
    clientId: { attribute: 'client-id', useDefault: true },
    redirectUri: { attribute: 'redirect-uri', useDefault: true },
    scope: { useDefault: true },
    baseUrl: { attribute: 'base-url', useDefault: true },
    mode: { converter: orUndefined },
    backend: { converter: orUndefined },
    returnTo: { attribute: 'return-to', converter: orUndefined },
    disabled: { type: Boolean, reflect: true, useDefault: true },
    messages: { attribute: false },
  };

  /**
   * Client ID of the itch.io OAuth application. Required.
   * @attr client-id
   * @default ''
   */
  declare clientId: string;

  /**
   * The redirect URI registered for that application, exactly. Required.
   * @attr redirect-uri
   * @default ''
   */
  declare redirectUri: string;

  /**
   * Space-separated itch.io scopes.
   * @attr scope
   * @default DEFAULT_SCOPE
   */
  declare scope: string;

  /**
   * Where itch.io lives (http(s), may carry a path prefix).
   * @attr base-url
   * @default DEFAULT_BASE_URL
   */
  declare baseUrl: string;

  /**
   * `redirect` or `popup`. Default `popup` when the page is framed, else `redirect`.
   * @attr mode
   * @type {'redirect' | 'popup' | undefined}
   */
  declare mode: FlowMode | undefined;

  /**
   * URL of the app's token endpoint (the capture's `data-backend`): popup mode collects the
   * login from it. Required for popup mode.
   * @attr backend
   */
  declare backend: string | undefined;

  /**
   * Same-origin path+query to return to after the login. Default: the current path+query.
   * @attr return-to
   */
  declare returnTo: string | undefined;

  /**
   * Disables the button. Reflected to the `disabled` attribute.
   * @attr disabled
   * @reflect
   * @default false
   */
  declare disabled: boolean;

  /**
   * Messages over the shipped ones of the element's language, by key (`login`, `cancel`; the
   * keys of `src/i18n/locales/en.ts`), e.g. `{ login: 'Sign in' }`.
   */
  declare messages: Partial<WidgetMessages> | undefined;

  /** Why the configuration is invalid, if it is. */
  #configError: ItchOAuthError | undefined;
  /** The login a click started, while the button follows it (a controller: see itch-login-button.login.ts). */
  #login = new ButtonLogin(this);
  /** The words in the element's language, `undefined` while they load. */
  #words: typeof en | undefined;
  #unwatch: (() => void) | undefined;

  constructor() {
    super();
    // The defaults, which an attribute removed gives back (set here: a field would hide Lit's accessor).
    this.clientId = '';
    this.redirectUri = '';
    this.scope = DEFAULT_SCOPE;
    this.baseUrl = DEFAULT_BASE_URL;
    this.disabled = false;
  }

  /** @internal Leaves the page for itch.io. Tests replace it. */
  navigate(url: string): void {
    location.assign(url);
  }

  /** @internal */
  override connectedCallback(): void {
    super.connectedCallback();
    this.#unwatch = watch(() => this.requestUpdate());
  }

  /** @internal */
  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#unwatch?.();
  }

  /** @internal Nothing is drawn while the element's language loads: nothing is shown in another language first. */
  protected override shouldUpdate(): boolean {
    return (this.#words = messagesFor(this, en)) !== undefined;
  }

  /** @internal The configuration is checked again on any change but `disabled`'s, and said once per reason. */
  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.size == 1 && changed.has('disabled')) return;
    this.#configError = checkConfig(this.#options());
    if (this.#configError) this.#login.report(this.#configError);
  }

  #options(): LoginOptions {
    const { clientId, redirectUri, scope, baseUrl, mode, backend, returnTo } = this;
    return { clientId, redirectUri, scope, baseUrl, mode, backend, returnTo };
  }

  /** Synchronous from click to navigation or popup (see ButtonLogin.click). */
  #onClick(): void {
    if (this.disabled || this.#configError) return;
    const error = this.#login.click(this.#options());
    if (!error) return;
    this.#configError = error;
    this.#login.report(error);
    this.requestUpdate();
  }

  /** "Cancel" goes away with the login it ends: the focus goes back to the login button first. */
  #cancel(): void {
    this.renderRoot.querySelector<HTMLElement>('[part=button]')!.focus();
    this.#login.waiting?.abort();
  }

  /** @internal Cancel goes with the login it could end: a keyboard user on it is left on the button, before it goes. */
  protected override update(changed: PropertyValues<this>): void {
    const root = this.shadowRoot!;
    if (!this.#login.waiting && root.activeElement?.getAttribute('part') == 'cancel')
      root.querySelector<HTMLElement>('[part=button]')!.focus();
    super.update(changed);
  }

  /** @internal */
  protected override render() {
    const words = { ...this.#words!, ...this.messages };
    return html`<button part="button" type="button" ?disabled=${this.disabled || this.#configError !== undefined} aria-busy=${
      this.#login.busy ? 'true' : nothing
    } @click=${this.#onClick}>${itchLogo}<span part="label"><slot>${words.login}</slot></span></button>${
      this.#login.waiting ? html`<button part="cancel" type="button" @click=${this.#cancel}>${words.cancel}</button>` : nothing
    }`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'itch-login-button': ItchLoginButton;
  }
}
