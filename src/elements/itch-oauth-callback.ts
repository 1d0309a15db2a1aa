import { buildAuthorizeUrl } from '../core/authorize-url.js';
import { ERROR_CODES, type ItchOAuthErrorCode } from '../core/errors.js';
import { safeReturnTo } from '../core/return-to.js';
import { createState, saveFlow } from '../core/state.js';
import { takeOutcome, type CaptureOutcome } from '../capture/outcome.js';
import type { WidgetMessages } from '../i18n/catalogue.js';
import { widget as en } from '../i18n/locales/en.js';
import { messagesFor, watch } from '../i18n/messages.js';
import { errorEvent, type ItchLoginSuccessDetail } from './events.js';
import { HTMLElement, drawing, h, shadow, text, upgrade } from '../ui/dom.js';
import { styles } from './itch-oauth-callback.styles.js';
import { viewOf, whenParsed, type View } from './itch-oauth-callback.view.js';

/**
 * What each error code means to the person logging in, in English (the `message` of
 * `itch-login-error`); the element shows it in the reader's language (see src/i18n/).
 */
export const ERROR_MESSAGES = /* @__PURE__ */ Object.fromEntries(/* @__PURE__ */ ERROR_CODES.map((code) => [code, en[code]])) as Record<
  ItchOAuthErrorCode,
  string
>;

/**
 * What this document's capture left, read once for the whole document: a second element, or the
 * same one upgraded again, shows the same outcome, and the events fire once.
 * @internal
 */
export const documentOutcome: { taken: boolean; outcome: CaptureOutcome | undefined; announced: boolean } = {
  taken: false,
  outcome: undefined,
  announced: false,
};

function takeDocumentOutcome(): CaptureOutcome | undefined {
  if (!documentOutcome.taken) {
    documentOutcome.taken = true;
    try {
      documentOutcome.outcome = takeOutcome(sessionStorage);
    } catch {
      documentOutcome.outcome = undefined;
    }
  }
  return documentOutcome.outcome;
}

/**
 * Shows the outcome of a login on the callback page. The capture script (first in `<head>`)
 * has already taken the token out of the address, checked it and sent it to the backend; this
 * element, in the clean document, says how it went and returns the user.
 *
 * @tag itch-oauth-callback
 * @summary The outcome of an itch.io login, on the callback page.
 * @fires {CustomEvent<ItchLoginSuccessDetail>} itch-login-success - The backend accepted the token: `detail.response` is its JSON answer (never the token).
 * @fires {CustomEvent<ItchLoginErrorDetail>} itch-login-error - The login failed: `detail.code` (a stable string such as `access_denied`) and `detail.message`.
 * @slot pending - Shown while a new attempt starts.
 * @slot success - Shown after a successful login (with `no-redirect`).
 * @slot error - Shown after a failure, above "Try again" (a redirect login) or "Close" (a popup login).
 * @csspart status - The message region.
 * @csspart retry - The "Try again" button (a redirect login).
 * @csspart close - The "Close" button of a popup whose login ended here (its opener could not be told).
 * @csspart store - The link to the game's store page, after a `not_owner` refusal (with `store-url`).
 * @cssproperty [--itch-login-background=light-dark(#d63b3b, #ff6b6b)] - Background of "Try again".
 * @cssproperty [--itch-login-color=light-dark(#ffffff, #16161a)] - Text colour of "Try again".
 * @cssproperty [--itch-login-error-color=light-dark(#b3261e, #ffb4ab)] - Colour of error messages.
 * @cssproperty [--itch-login-focus-ring=light-dark(#1f6feb, #8ab4ff)] - Colour of the keyboard focus ring.
 */
export class ItchOAuthCallback extends HTMLElement {
  /** @internal The attributes it follows. */
  static observedAttributes = ['no-redirect', 'store-url'];

  /**
   * Stay on the callback page after a successful login.
   * @attr no-redirect
   * @default false
   */
  public get noRedirect(): boolean {
    return this.#noRedirect;
  }
  public set noRedirect(value: boolean) {
    this.#noRedirect = value;
    this.#drawing.request();
  }

  /**
   * The game's itch.io store page (http or https), linked after a `not_owner` refusal ("You need
   * to own this game on itch.io to continue"), e.g. `https://pixelforge.itch.io/starfall-keep`.
   * @attr store-url
   */
  public get storeUrl(): string | undefined {
    return this.#storeUrl;
  }
  public set storeUrl(value: string | undefined) {
    this.#storeUrl = value;
    this.#drawing.request();
  }

  /**
   * Messages over the shipped ones of the element's language, by key (`pending`, `success`,
   * `retry`, `close`, an error code…: the keys of `src/i18n/locales/en.ts`). The slots still
   * replace the messages they hold.
   */
  public get messages(): Partial<WidgetMessages> | undefined {
    return this.#messages;
  }
  public set messages(value: Partial<WidgetMessages> | undefined) {
    this.#messages = value;
    this.#drawing.request();
  }

  /**
   * Resolves (with `true`) once the changes made so far are drawn: after a property or attribute
   * is set, `await el.updateComplete` before reading the shadow tree.
   */
  public get updateComplete(): Promise<boolean> {
    return this.#drawing.drawn;
  }

  #noRedirect = false;
  #storeUrl: string | undefined;
  #messages: Partial<WidgetMessages> | undefined;
  #view: View = { kind: 'idle' };
  /**
   * As `<itch-login-button>`'s: the nodes are made once, and a change is drawn by setting their
   * text and attributes; so the live region (`role=status`, or `role=alert` after a failure) stays
   * the same node while the words change: announced once.
   */
  #drawing = drawing(this, () => this.#render());
  #unwatch: (() => void) | undefined;
  /** The error view's action takes the focus when next drawn. */
  #focusAction = false;

  /** The live region of the idle, pending and success views. */
  #status = h('p', { part: 'status', role: 'status' });
  /** The `pending` or `success` slot, in #status, its message the fallback. */
  #slot = h('slot');
  /** What happened, in the error slot. */
  #error = h('p', { class: 'error' });
  #errorSlot = h('slot', { name: 'error' }, this.#error);
  /** The live region of a failure; the lines below are in it while they apply, in this order. */
  #alert = h('div', { part: 'status', role: 'alert' }, this.#errorSlot);
  /** What to do next in a popup whose login ended here. */
  #next = h('p');
  #store = h('a', { part: 'store' });
  #storeLine = h('p', {}, this.#store);
  /** "Try again" (part retry) or "Close" (part close). */
  #action = h('button', { type: 'button' });

  constructor() {
    super();
    shadow(this, styles);
    this.#action.addEventListener('click', () =>
      this.#view.kind == 'error' && this.#view.popup !== undefined ? this.closeWindow() : this.#retry(),
    );
    upgrade(this, ['noRedirect', 'storeUrl', 'messages']);
  }

  /** @internal The attribute's value to its property. */
  attributeChangedCallback(name: string, _old: string | null, value: string | null): void {
    if (name == 'no-redirect') this.noRedirect = value !== null;
    else this.storeUrl = value ?? undefined;
  }

  /** @internal Goes on to another page, leaving this one out of the history. Tests replace it. */
  replace(url: string): void {
    location.replace(url);
  }

  /** @internal Closes this popup (a window a script opened may close itself). Tests replace it. */
  closeWindow(): void {
    close();
  }

  /** @internal Leaves for itch.io to log in again. Tests replace it. */
  navigate(url: string): void {
    location.assign(url);
  }

  /** @internal */
  connectedCallback(): void {
    this.#unwatch = watch(() => this.#drawing.request());
    const document_ = document as Document & { prerendering?: boolean };
    if (document_.prerendering) {
      document_.addEventListener('prerenderingchange', () => this.#show(), { once: true });
    } else {
      this.#show();
    }
    this.#drawing.request();
  }

  /** @internal */
  disconnectedCallback(): void {
    this.#unwatch?.();
  }

  #show(): void {
    const view = (this.#view = viewOf(takeDocumentOutcome()));
    this.#drawing.request();
    if (view.kind === 'idle' || documentOutcome.announced) return;
    documentOutcome.announced = true;
    void whenParsed().then(() => {
      if (view.kind === 'success') {
        const detail: ItchLoginSuccessDetail = { response: view.response };
        this.dispatchEvent(new CustomEvent('itch-login-success', { detail, bubbles: true, composed: true }));
        if (!this.noRedirect && view.flow) this.replace(safeReturnTo(view.flow.returnTo, location.origin));
      } else if (view.kind === 'error') {
        this.dispatchEvent(errorEvent(view.code, en[view.code]));
        // What the person can do next ("Try again" or "Close") takes the focus, once, so that a
        // keyboard or screen reader user starts there; the alert above it has said what happened.
        // (When drawn: at once, or once the element's language has loaded.)
        this.#focusAction = true;
        this.#drawing.request();
      }
    });
  }

  /**
   * "Try again": the token is never kept in this document, so a new login starts, with the same
   * application, scopes and return-to. Without a flow (an unknown state) the user goes home.
   */
  #retry(): void {
    const flow = this.#view.kind === 'error' ? this.#view.flow : undefined;
    this.#view = { kind: 'pending' };
    this.#drawing.request();
    if (!flow) return this.navigate('/');
    try {
      const state = createState();
      const url = buildAuthorizeUrl({
        clientId: flow.clientId,
        redirectUri: flow.redirectUri,
        scope: flow.scope,
        baseUrl: flow.baseUrl,
        state,
      });
      saveFlow(sessionStorage, state, { ...flow, mode: 'redirect', createdAt: Date.now() });
      this.navigate(url.href);
    } catch {
      this.#view = { kind: 'error', code: 'config_invalid', flow: undefined };
    }
  }

  /**
   * Draws the view, nothing while the element's language loads (nothing is shown in another
   * language first). The view's region is put in place only when the kind of view changes; the
   * rest is text and attributes of the nodes kept, so a focused button keeps the focus.
   */
  #render(): void {
    const shipped = messagesFor(this, en);
    if (!shipped) return;
    const words = { ...shipped, ...this.#messages };
    const view = this.#view;
    const root = this.shadowRoot!;
    if (view.kind != 'error') {
      if (this.#status.parentNode != root) root.replaceChildren(this.#status);
      if (view.kind == 'idle') text(this.#status, words.idle);
      else {
        this.#slot.name = view.kind;
        text(this.#slot, words[view.kind]);
        if (this.#slot.parentNode != this.#status) this.#status.replaceChildren(this.#slot);
      }
      return;
    }
    if (this.#alert.parentNode != root) root.replaceChildren(this.#alert);
    text(this.#error, words[view.code]);
    // A line is put in (in its place) or taken out only when it comes or goes: a focused button
    // that stays keeps the focus.
    const next = this.#next;
    if (!view.popup) next.remove();
    else if (!next.parentNode) this.#errorSlot.after(next);
    if (view.popup) text(next, words[view.popup]);
    const store = view.code === 'not_owner' && /^https?:\/\/[^/]/i.test(this.#storeUrl ?? '');
    const line = this.#storeLine;
    const action = view.popup !== undefined ? 'close' : view.code === 'config_invalid' ? undefined : 'retry';
    const button = this.#action;
    if (!store) line.remove();
    else if (!line.parentNode) this.#alert.insertBefore(line, button.parentNode ? button : null);
    if (store) this.#store.href = this.#storeUrl!;
    text(this.#store, words.store);
    if (!action) return button.remove();
    button.setAttribute('part', action);
    text(button, words[action]);
    if (!button.parentNode) this.#alert.append(button);
    if (this.#focusAction) button.focus();
    this.#focusAction = false;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'itch-oauth-callback': ItchOAuthCallback;
  }
}
