import { LitElement, html, nothing } from 'lit';
import { buildAuthorizeUrl } from '../core/authorize-url.js';
import { BACKEND_REJECTED, ERROR_CODES, isErrorCode, type ItchOAuthErrorCode } from '../core/errors.js';
import { safeReturnTo } from '../core/return-to.js';
import { createState, saveFlow, type FlowRecord } from '../core/state.js';
import { takeOutcome, type CaptureOutcome } from '../capture/outcome.js';
import type { WidgetMessages } from '../i18n/catalogue.js';
import { widget as en } from '../i18n/locales/en.js';
import { messagesFor, watch } from '../i18n/messages.js';
import { errorEvent, type ItchLoginSuccessDetail } from './events.js';
import { styles } from './itch-oauth-callback.styles.js';

/**
 * What each error code means to the person logging in, in English (the `message` of
 * `itch-login-error`); the element shows it in the reader's language (see src/i18n/).
 */
export const ERROR_MESSAGES = /* @__PURE__ */ Object.fromEntries(/* @__PURE__ */ ERROR_CODES.map((code) => [code, en[code]])) as Record<
  ItchOAuthErrorCode,
  string
>;

/**
 * What to do next, said in a popup whose login ended here because the game that opened it could
 * not be told (an authorization page severed the popup from its opener), by the key of its
 * message. Nothing in that window goes on: its one control is Close.
 */
const POPUP_NEXT_STEPS: Partial<Record<ItchOAuthErrorCode, keyof WidgetMessages>> = {
  not_owner: 'next_not_owner',
  backend_rejected: 'next_backend_rejected',
  network_error: 'next_network_error',
};

type View =
  | { kind: 'idle' }
  | { kind: 'pending' }
  | { kind: 'success'; response: unknown; flow: FlowRecord | undefined }
  | { kind: 'error'; code: ItchOAuthErrorCode; flow: FlowRecord | undefined; popup?: keyof WidgetMessages | '' | undefined };

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

function viewOf(outcome: CaptureOutcome | undefined): View {
  if (!outcome) return { kind: 'idle' };
  const flow = typeof outcome.flow === 'object' && outcome.flow !== null ? outcome.flow : undefined;
  if (outcome.code === undefined) return { kind: 'success', response: outcome.response, flow };
  // A popup login's capture keeps no flow (0): a redirect login's has its record or a problem (> 0).
  const code = refinedCode(outcome) ?? ERROR_CODES[outcome.code] ?? 'invalid_response';
  // A refusal without an answer is the server failing (5xx): the player can only try later.
  const next = POPUP_NEXT_STEPS[code == 'backend_rejected' && outcome.response == null ? 'network_error' : code] ?? '';
  return { kind: 'error', code, flow, popup: outcome.flow === 0 ? next : undefined };
}

/**
 * The contract's code a refusing backend named (`{ "errors": [...], "code": "not_owner" }`):
 * more precise than `backend_rejected`. createTokenHandler names one for a popup login that was
 * not started in this browser (`state_mismatch`) and a user who does not own the game (`not_owner`).
 */
function refinedCode(outcome: CaptureOutcome): ItchOAuthErrorCode | undefined {
  const code = (outcome.response as { code?: unknown } | null | undefined)?.code;
  return outcome.code === BACKEND_REJECTED && isErrorCode(code) && code !== 'timeout' ? code : undefined;
}

/**
 * Resolves once the document is parsed, so listeners anywhere in the markup (inline scripts and
 * module scripts after the element) are in place. While `readyState` is `interactive` the
 * document may or may not have fired DOMContentLoaded yet, so the first of it and `load` counts.
 */
function whenParsed(): Promise<void> {
  return new Promise((resolve) => {
    if (document.readyState === 'complete') return queueMicrotask(resolve);
    const done = () => {
      document.removeEventListener('DOMContentLoaded', done);
      removeEventListener('load', done);
      resolve();
    };
    document.addEventListener('DOMContentLoaded', done);
    addEventListener('load', done);
  });
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
export class ItchOAuthCallback extends LitElement {
  /** @internal The element's styles, for Lit; style it with its parts and custom properties. */
  static override styles = styles;

  /**
   * @internal Lit's reactive properties, declared without decorators (which would add their
   * helpers to every bundle): each attribute as the public properties below document it. `state`
   * has no attribute (https://lit.dev/docs/components/properties/#internal-reactive-state).
   */
  static override properties = {
    noRedirect: { type: Boolean, attribute: 'no-redirect' },
    storeUrl: { attribute: 'store-url' },
    messages: { attribute: false },
    view: { state: true, attribute: false },
  };

  /** Stay on the callback page after a successful login. */
  noRedirect = false;

  /**
   * The game's itch.io store page (http or https), linked after a `not_owner` refusal ("You need
   * to own this game on itch.io to continue"), e.g. `https://pixelforge.itch.io/starfall-keep`.
   */
  storeUrl?: string;

  /**
   * Messages over the shipped ones of the element's language, by key (`pending`, `success`,
   * `retry`, `close`, an error code…: the keys of `src/i18n/locales/en.ts`). The slots still
   * replace the messages they hold.
   */
  messages: Partial<WidgetMessages> | undefined;

  private view: View = { kind: 'idle' };

  /** The words in the element's language (`undefined` while they load: nothing is rendered in another language first). */
  #words: WidgetMessages | undefined;
  #unwatch: (() => void) | undefined;

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

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#unwatch?.();
  }

  #show(): void {
    this.view = viewOf(takeDocumentOutcome());
    if (this.view.kind === 'idle' || documentOutcome.announced) return;
    documentOutcome.announced = true;
    const view = this.view;
    void whenParsed().then(() => {
      if (view.kind === 'success') {
        const detail: ItchLoginSuccessDetail = { response: view.response };
        this.dispatchEvent(new CustomEvent('itch-login-success', { detail, bubbles: true, composed: true }));
        if (!this.noRedirect && view.flow) this.replace(safeReturnTo(view.flow.returnTo, location.origin));
      } else if (view.kind === 'error') {
        this.dispatchEvent(errorEvent(view.code, en[view.code]));
        // What the person can do next ("Try again" or "Close") takes the focus, once, so that a
        // keyboard or screen reader user starts there; the alert above it has said what happened.
        this.renderRoot.querySelector('button')?.focus();
      }
    });
  }

  /**
   * "Try again": the token is never kept in this document, so a new login starts, with the same
   * application, scopes and return-to. Without a flow (an unknown state) the user goes home.
   */
  #retry(): void {
    const flow = this.view.kind === 'error' ? this.view.flow : undefined;
    this.view = { kind: 'pending' };
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
      this.view = { kind: 'error', code: 'config_invalid', flow: undefined };
    }
  }

  protected override shouldUpdate(): boolean {
    return (this.#words = messagesFor(this, en)) !== undefined;
  }

  protected override render() {
    const { view } = this;
    const words = { ...this.#words!, ...this.messages };
    switch (view.kind) {
      case 'idle':
        return html`<p part="status" role="status">${words.idle}</p>`;
      case 'pending':
        return html`<p part="status" role="status"><slot name="pending">${words.pending}</slot></p>`;
      case 'success':
        return html`<p part="status" role="status"><slot name="success">${words.success}</slot></p>`;
      case 'error':
        return html`<div part="status" role="alert">
          <slot name="error"><p class="error">${words[view.code]}</p></slot>
          ${view.popup ? html`<p>${words[view.popup]}</p>` : nothing}
          ${
            view.code === 'not_owner' && /^https?:\/\/[^/]/i.test(this.storeUrl ?? '')
              ? html`<p><a part="store" href=${this.storeUrl!}>${words.store}</a></p>`
              : nothing
          }
          ${
            view.popup !== undefined
              ? html`<button part="close" type="button" @click=${() => this.closeWindow()}>${words.close}</button>`
              : view.code === 'config_invalid'
                ? nothing
                : html`<button part="retry" type="button" @click=${this.#retry}>${words.retry}</button>`
          }
        </div>`;
    }
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'itch-oauth-callback': ItchOAuthCallback;
  }
}
