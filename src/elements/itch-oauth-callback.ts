import { buildAuthorizeUrl } from '../core/authorize-url.js';
import type { ItchOAuthErrorCode } from '../core/errors.js';
import { safeReturnTo } from '../core/return-to.js';
import { createState, saveFlow, type FlowRecord } from '../core/state.js';
import { takeOutcome, type CaptureOutcome } from '../capture/outcome.js';
import type { WidgetMessages } from '../i18n/catalogue.js';
import { problems, widget as en } from '../i18n/locales/en.js';
import { messagesFor, watch } from '../i18n/messages.js';
import { errorEvent, type ItchLoginSuccessDetail } from './events.js';
import { LitElement, html, nothing, type PropertyDeclarations } from '../ui/lit.js';
import { styles } from './itch-oauth-callback.styles.js';
import { viewOf, whenParsed, type View } from './itch-oauth-callback.view.js';

/**
 * What each error code means to the person logging in, in English (the `message` of
 * `itch-login-error`); the element shows it in the reader's language (see src/i18n/).
 * @group Words
 */
export const ERROR_MESSAGES: Readonly<Record<ItchOAuthErrorCode, string>> = problems;

/**
 * What a document's capture left, read once for that document: a second element, or the same one
 * upgraded again, shows the same outcome, and the events fire once. `popup`: this tab has shown a
 * popup login's ending.
 */
interface DocumentOutcome {
  outcome?: CaptureOutcome | undefined;
  announced?: boolean;
  popup?: boolean;
}

/** @internal Each document's outcome, read by its first element (a test forgets its document's to start again). */
export const documentOutcomes = new WeakMap<Document, DocumentOutcome>();

/** sessionStorage key that marks the tab of a popup login's window, once its ending is shown. */
const POPUP_TAB_KEY = 'itch-oauth:popup';

/** This document's outcome, read by the first element that asks. */
function documentOutcome(): DocumentOutcome {
  let read = documentOutcomes.get(document);
  if (!read) {
    documentOutcomes.set(document, (read = {}));
    try {
      // A popup login's ending (its capture keeps no flow: 0) marks its tab, so that its page,
      // reloaded, offers Close as the ending did rather than a way into the site.
      if ((read.outcome = takeOutcome())?.flow === 0) sessionStorage.setItem(POPUP_TAB_KEY, '');
      // Or the capture's mark of a popup login's page (its history entry's state, `true`), reloaded
      // before the outcome was shown.
      read.popup = sessionStorage.getItem(POPUP_TAB_KEY) != null || history.state === true;
    } catch {
      read.outcome = undefined;
    }
  }
  return read;
}

/** A link the site configured, if it is an http(s) address or a path of this site (never `javascript:`). */
const linkable = (url: string | undefined) => (/^(https?:\/\/[^/]|\/(?![/\\]))/i.test(url!) ? url : undefined);

/**
 * Shows the outcome of a login on the callback page. The capture script (first in `<head>`)
 * has already taken the token out of the address, checked it and sent it to the backend; this
 * element, in the clean document, says how it went and returns the user.
 * After a property or attribute is set, `await el.updateComplete` (Lit's: it resolves with `true`
 * once the changes made so far are drawn) before reading the shadow tree.
 *
 * @tag itch-oauth-callback
 * @summary The outcome of an itch.io login, on the callback page.
 * @fires {CustomEvent<ItchLoginSuccessDetail>} itch-login-success - The backend accepted the token: `detail.response` is its JSON answer (never the token).
 * @fires {CustomEvent<ItchLoginErrorDetail>} itch-login-error - The login failed: `detail.code` (a stable string such as `access_denied`) and `detail.message`.
 * @slot pending - Shown while a new attempt starts.
 * @slot success - Shown after a successful login (with `no-redirect`).
 * @slot error - Shown after a failure, above "Try again" and "Back to the site" (a redirect login) or "Close" (a popup login).
 * @csspart status - The message region.
 * @csspart retry - The "Try again" button (a redirect login whose start this tab remembers).
 * @csspart back - The "Back to the site" link: to the page the login started from, else to `back-url` (default: the site's root) (a redirect login's failure, and a callback page opened with no login in progress outside a popup); in a popup's window only with `back-url`.
 * @csspart close - The "Close" button of a popup whose login ended here (its opener could not be told), whose address was opened again, or whose page was reloaded.
 * @csspart store - The link to the game's store page, after a `not_owner` refusal (with `store-url`).
 * @cssproperty [--itch-login-background=light-dark(#d63b3b, #ff6b6b)] - Background of "Try again".
 * @cssproperty [--itch-login-color=light-dark(#ffffff, #16161a)] - Text colour of "Try again".
 * @cssproperty [--itch-login-error-color=light-dark(#b3261e, #ffb4ab)] - Colour of error messages.
 * @cssproperty [--itch-login-focus-ring=light-dark(#1f6feb, #8ab4ff)] - Colour of the keyboard focus ring.
 * @group Elements
 */
export class ItchOAuthCallback extends LitElement {
  /** @internal Lit's style sheet of the shadow root; style the element with its parts and custom properties. */
  static override styles = styles;

  /** @internal Lit's reactive properties (https://lit.dev/docs/components/properties/), without decorators. */
  static override properties: PropertyDeclarations = {
    noRedirect: { type: Boolean, attribute: 'no-redirect', useDefault: true },
    storeUrl: { attribute: 'store-url', converter: (value: string | null) => value ?? undefined },
    backUrl: { attribute: 'back-url', converter: (value: string | null) => value ?? undefined },
    messages: { attribute: false },
  };

  /**
   * Stay on the callback page after a successful login.
   * @attr no-redirect
   * @default false
   */
  declare noRedirect: boolean;

  /**
   * The game's itch.io store page (http or https), linked after a `not_owner` refusal ("You need
   * to own this game on itch.io to continue"), e.g. `https://pixelforge.itch.io/starfall-keep`.
   * @attr store-url
   */
  declare storeUrl: string | undefined;

  /**
   * Where "Back to the site" leads when the page does not know where the login started (reloaded,
   * opened in another tab, storage refused): an http(s) address or a path of this site, e.g. the
   * game's page on itch.io for a callback page on a framed game's server, whose root is no page.
   * Without it, the site's root `/`; and a popup's window (its login ended or reloaded there)
   * offers Close alone, as nothing there may lead to the server's other addresses.
   * @attr back-url
   */
  declare backUrl: string | undefined;

  /**
   * Messages over the shipped ones of the element's language, by key (`pending`, `success`,
   * `retry`, `close`, an error code…: the keys of `src/i18n/locales/en.ts`). The slots still
   * replace the messages they hold.
   */
  declare messages: Partial<WidgetMessages> | undefined;

  #view: View = { kind: 'idle' };
  /** The words in the element's language, `undefined` while they load. */
  #words: WidgetMessages | undefined;
  #unwatch: (() => void) | undefined;
  /** The error view's action takes the focus when next drawn. */
  #focusAction = false;

  constructor() {
    super();
    // The default, which the attribute removed gives back (set here: a field would hide Lit's accessor).
    this.noRedirect = false;
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
  override connectedCallback(): void {
    super.connectedCallback();
    this.#unwatch = watch(() => this.requestUpdate());
    const document_ = document as Document & { prerendering?: boolean };
    if (document_.prerendering) {
      document_.addEventListener('prerenderingchange', () => this.#show(), { once: true });
    } else {
      this.#show();
    }
  }

  /** @internal */
  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#unwatch?.();
  }

  /** The view changes: drawn as a property change is. */
  #setView(view: View): void {
    this.#view = view;
    this.requestUpdate();
  }

  #show(): void {
    const read = documentOutcome();
    const view = viewOf(read.outcome);
    this.#setView(view);
    if (view.kind === 'idle' || read.announced) return;
    read.announced = true;
    void whenParsed().then(() => {
      if (view.kind === 'success') {
        const detail: ItchLoginSuccessDetail = { response: view.response };
        this.dispatchEvent(new CustomEvent('itch-login-success', { detail, bubbles: true, composed: true }));
        if (!this.noRedirect && view.flow) this.replace(safeReturnTo(view.flow.returnTo, location.origin));
      } else if (view.kind === 'error') {
        this.dispatchEvent(errorEvent(view.code, en[view.code]));
        // What the person can do next ("Try again" or "Close") takes the focus, once, so that a
        // keyboard or screen reader user starts there; the alert above it has said what happened.
        // (When drawn: at once, or once the element's language has loaded; see updated().)
        this.#focusAction = true;
        this.requestUpdate();
      }
    });
  }

  /**
   * "Try again": the token is never kept in this document, so a new login starts, with the same
   * application, scopes and return-to. (Offered only with the flow: without it, the link back.)
   */
  #retry(flow: FlowRecord): void {
    this.#setView({ kind: 'pending' });
    try {
      const state = createState();
      // The stored flow's application, scopes and itch.io address (buildAuthorizeUrl reads only those).
      const url = buildAuthorizeUrl({ ...flow, state });
      saveFlow(sessionStorage, state, { ...flow, mode: 'redirect', createdAt: Date.now() });
      this.navigate(url.href);
    } catch {
      this.#setView({ kind: 'error', code: 'config_invalid', flow: undefined });
    }
  }

  /** Close (a popup's ending, or its reloaded page with no login) or Try again. */
  #act(): void {
    const view = this.#view;
    if (view.kind != 'error' || view.popup !== undefined) this.closeWindow();
    else this.#retry(view.flow!);
  }

  /** @internal Nothing is drawn while the element's language loads: nothing is shown in another language first. */
  protected override shouldUpdate(): boolean {
    return (this.#words = messagesFor(this, en)) !== undefined;
  }

  /** @internal The focus moves once the action is in the page, in the page's language (Try again or Close, else the link back). */
  protected override updated(): void {
    if (this.#focusAction) this.renderRoot.querySelector<HTMLElement>('button,[part=back]')?.focus();
    this.#focusAction = false;
  }

  /**
   * @internal One method per view. The live region (`role=status` while nothing failed, `role=alert`
   * for a failure) is one template each, so it stays the same node while its words change, and a
   * line of the failure comes or goes alone: a focused button that stays keeps the focus. Every
   * failure and the idle view offer a way on (see #wayOn).
   */
  protected override render() {
    const words = { ...this.#words!, ...this.messages };
    const view = this.#view;
    if (view.kind == 'error') return this.#failure(words, view);
    const content = view.kind == 'idle' ? this.#idle(words) : this.#progress(words, view.kind);
    return html`<div part="status" role="status">${content}</div>`;
  }

  /**
   * No login here (a reload, another tab, storage refused): its words and a way on. A popup's
   * window (its page reloaded after the ending, the tab's mark, or one a script opened and can
   * still reach) offers Close, as the ending had, rather than a way into the site.
   */
  #idle(words: WidgetMessages) {
    return html`<p>${words.idle}</p>${this.#wayOn(words, documentOutcomes.get(document)?.popup || opener)}`;
  }

  /** A new attempt starting ("Try again"), or the success (with `no-redirect`, or until the page goes on). */
  #progress(words: WidgetMessages, kind: 'pending' | 'success') {
    return html`<p><slot name=${kind}>${words[kind]}</slot></p>`;
  }

  /**
   * A failure: what happened (a sentence that explains rather than reports it, a reopened login
   * link, is not in red), what to do next in a popup whose login ended here, the store page after
   * a `not_owner` refusal, and a way on: Try again where this tab remembers the login, unless its
   * configuration cannot work.
   */
  #failure(words: WidgetMessages, view: Extract<View, { kind: 'error' }>) {
    const store = view.code === 'not_owner' && linkable(this.storeUrl);
    return html`<div part="status" role="alert"><slot name="error"><p class=${view.message ? '' : 'error'}>${words[view.message ?? view.code]}</p></slot>${
      view.popup ? html`<p>${words[view.popup]}</p>` : nothing
    }${store ? html`<p><a part="store" href=${store}>${words.store}</a></p>` : nothing}${this.#wayOn(words, view.popup !== undefined, view.flow, view.code != 'config_invalid')}</div>`;
  }

  /**
   * The way on: Close in a popup (nothing there leads to the backend's site), else Try again where
   * this tab remembers the login's `flow` and `retry` allows; and a link back to where the login
   * started (its return-to), or to `back-url`, or to the site's root when that is unknown; in a
   * popup only where the site configured one.
   */
  #wayOn(words: WidgetMessages, popup: unknown, flow?: FlowRecord, retry?: boolean) {
    const backUrl = linkable(this.backUrl);
    const action = popup ? 'close' : flow && retry && 'retry';
    const href = flow ? safeReturnTo(flow.returnTo, location.origin) : (backUrl ?? '/');
    return html`${action ? html`<button part=${action} type="button" @click=${this.#act}>${words[action]}</button>` : nothing}${
      popup && !backUrl ? nothing : html`<p><a part="back" href=${href}>${words.back}</a></p>`
    }`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'itch-oauth-callback': ItchOAuthCallback;
  }
}
