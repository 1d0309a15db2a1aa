import { DEFAULT_BASE_URL } from '../core/authorize-url.js';
import { ItchOAuthError } from '../core/errors.js';
import type { LoginOptions } from '../core/login.js';
import { DEFAULT_SCOPE } from '../core/scopes.js';
import type { FlowMode } from '../core/state.js';
import type { WidgetMessages } from '../i18n/catalogue.js';
import { button as en } from '../i18n/locales/en.js';
import { messagesFor, watch } from '../i18n/messages.js';
import { HTMLElement, drawing, h, shadow, text, upgrade } from '../ui/dom.js';
import { itchLogo } from '../ui/itch-logo.js';
import { ButtonLogin, checkConfig } from './itch-login-button.flow.js';
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
export class ItchLoginButton extends HTMLElement {
  /** @internal The attributes it follows (each mapped to its property in attributeChangedCallback). */
  static observedAttributes = ['client-id', 'redirect-uri', 'scope', 'base-url', 'mode', 'backend', 'return-to', 'disabled'];

  /** The login options of the attributes and properties; an attribute removed restores the default. */
  #options: LoginOptions = { ...DEFAULTS };
  #messages: Partial<WidgetMessages> | undefined;

  /**
   * Client ID of the itch.io OAuth application. Required.
   * @attr client-id
   * @default ''
   */
  public get clientId(): string {
    return this.#options.clientId;
  }
  public set clientId(value: string) {
    this.#set('clientId', value);
  }

  /**
   * The redirect URI registered for that application, exactly. Required.
   * @attr redirect-uri
   * @default ''
   */
  public get redirectUri(): string {
    return this.#options.redirectUri;
  }
  public set redirectUri(value: string) {
    this.#set('redirectUri', value);
  }

  /**
   * Space-separated itch.io scopes.
   * @attr scope
   * @default DEFAULT_SCOPE
   */
  public get scope(): string {
    return this.#options.scope!;
  }
  public set scope(value: string) {
    this.#set('scope', value);
  }

  /**
   * Where itch.io lives (http(s), may carry a path prefix).
   * @attr base-url
   * @default DEFAULT_BASE_URL
   */
  public get baseUrl(): string {
    return this.#options.baseUrl!;
  }
  public set baseUrl(value: string) {
    this.#set('baseUrl', value);
  }

  /**
   * `redirect` or `popup`. Default `popup` when the page is framed, else `redirect`.
   * @attr mode
   * @type {'redirect' | 'popup' | undefined}
   */
  public get mode(): FlowMode | undefined {
    return this.#options.mode;
  }
  public set mode(value: FlowMode | undefined) {
    this.#set('mode', value);
  }

  /**
   * URL of the app's token endpoint (the capture's `data-backend`): popup mode collects the
   * login from it. Required for popup mode.
   * @attr backend
   */
  public get backend(): string | undefined {
    return this.#options.backend;
  }
  public set backend(value: string | undefined) {
    this.#set('backend', value);
  }

  /**
   * Same-origin path+query to return to after the login. Default: the current path+query.
   * @attr return-to
   */
  public get returnTo(): string | undefined {
    return this.#options.returnTo;
  }
  public set returnTo(value: string | undefined) {
    this.#set('returnTo', value);
  }

  /**
   * Disables the button. Reflected to the `disabled` attribute.
   * @attr disabled
   * @reflect
   * @default false
   */
  public get disabled(): boolean {
    return this.hasAttribute('disabled');
  }
  public set disabled(value: boolean) {
    this.toggleAttribute('disabled', !!value);
  }

  /**
   * Messages over the shipped ones of the element's language, by key (`login`, `cancel`; the
   * keys of `src/i18n/locales/en.ts`), e.g. `{ login: 'Sign in' }`.
   */
  public get messages(): Partial<WidgetMessages> | undefined {
    return this.#messages;
  }
  public set messages(value: Partial<WidgetMessages> | undefined) {
    this.#messages = value;
    this.#request();
  }

  /**
   * Resolves (with `true`) once the changes made so far are drawn: after a property or attribute
   * is set, `await el.updateComplete` before reading the shadow tree.
   */
  public get updateComplete(): Promise<boolean> {
    return this.#drawing.drawn;
  }

  #drawing = drawing(this, () => this.#render());
  /** The configuration is to be checked again when next drawn (any change but `disabled`'s). */
  #recheck = true;
  #unwatch: (() => void) | undefined;

  /** Why the configuration is invalid, if it is. */
  #configError: ItchOAuthError | undefined;
  /** The login a click started, while the button follows it. */
  #login = new ButtonLogin(this, () => this.#request());

  #label = h('slot');
  #button = h(
    'button',
    { part: 'button', type: 'button' },
    itchLogo(),
    // The default slot, whose fallback text is the label.
    h('span', { part: 'label' }, this.#label),
  );
  /** "Cancel", in the shadow tree while the login under way cannot see its popup. */
  #cancelButton = h('button', { part: 'cancel', type: 'button' });

  constructor() {
    super();
    // The button goes in at the first drawing, with its words: never a button without a name.
    shadow(this, styles);
    this.#button.addEventListener('click', () => this.#onClick());
    this.#cancelButton.addEventListener('click', () => this.#cancel());
    // Properties a script set on the element before it was defined go through the setters above.
    upgrade(this, ['clientId', 'redirectUri', 'scope', 'baseUrl', 'mode', 'backend', 'returnTo', 'disabled', 'messages']);
  }

  /** @internal The attribute's value to its property: `client-id` to `clientId`, and so on. */
  attributeChangedCallback(name: string, _old: string | null, value: string | null): void {
    if (name == 'disabled') return this.#request(false);
    const key = ATTRIBUTES[name]!;
    this.#set(key, value ?? DEFAULTS[key]);
  }

  #set<Key extends keyof LoginOptions>(key: Key, value: LoginOptions[Key]): void {
    if (this.#options[key] === value) return;
    this.#options[key] = value;
    this.#request();
  }

  /**
   * Has the state drawn (a property, the words, the login under way): no framework, the shadow
   * tree is built once and #render sets the text and attributes of the nodes it keeps.
   */
  #request(recheck = true): void {
    this.#recheck ||= recheck;
    this.#drawing.request();
  }

  /** @internal Leaves the page for itch.io. Tests replace it. */
  navigate(url: string): void {
    location.assign(url);
  }

  /** @internal */
  connectedCallback(): void {
    addEventListener('pageshow', this.#login.pageShown);
    this.#unwatch = watch(() => this.#request());
    this.#request();
  }

  /** @internal */
  disconnectedCallback(): void {
    removeEventListener('pageshow', this.#login.pageShown);
    this.#unwatch?.();
    this.#login.end();
  }

  /** Synchronous from click to navigation or popup (see ButtonLogin.click). */
  #onClick(): void {
    if (this.disabled || this.#configError) return;
    const error = this.#login.click(this.#options);
    if (!error) return;
    this.#configError = error;
    this.#login.report(error);
    this.#request();
  }

  /** "Cancel" goes away with the login it ends: the focus goes back to the login button first. */
  #cancel(): void {
    this.#button.focus();
    this.#login.waiting?.abort();
  }

  /**
   * Draws the state: nothing while the element's language loads (nothing is shown in another
   * language first); the configuration checked again unless `disabled` alone changed.
   */
  #render(): void {
    const shipped = messagesFor(this, en);
    if (!shipped) return;
    if (this.#recheck) {
      this.#recheck = false;
      this.#configError = checkConfig(this.#options);
      if (this.#configError) this.#login.report(this.#configError);
    }
    const words = { ...shipped, ...this.#messages };
    const button = this.#button;
    const cancel = this.#cancelButton;
    text(this.#label, words.login);
    button.disabled = this.disabled || this.#configError !== undefined;
    if (this.#login.busy) button.setAttribute('aria-busy', 'true');
    else button.removeAttribute('aria-busy');
    if (!button.parentNode) this.shadowRoot!.prepend(button);
    text(cancel, words.cancel);
    if (!this.#login.waiting) {
      // Cancel goes with the login it could end: a keyboard user on it is left on the button.
      if (this.shadowRoot!.activeElement == cancel) button.focus();
      cancel.remove();
    } else if (!cancel.parentNode) this.shadowRoot!.append(cancel);
  }
}

/** The attributes' properties. */
const ATTRIBUTES: Record<string, keyof LoginOptions> = {
  'client-id': 'clientId',
  'redirect-uri': 'redirectUri',
  scope: 'scope',
  'base-url': 'baseUrl',
  mode: 'mode',
  backend: 'backend',
  'return-to': 'returnTo',
};
const DEFAULTS: LoginOptions = { clientId: '', redirectUri: '', scope: DEFAULT_SCOPE, baseUrl: DEFAULT_BASE_URL };

declare global {
  interface HTMLElementTagNameMap {
    'itch-login-button': ItchLoginButton;
  }
}
