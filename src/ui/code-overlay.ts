/*
 * The one piece of UI the popup login draws on the game's page by itself: the code a person
 * confirms in a popup this page cannot see (its `window.open` returned nothing), the one sign
 * that ties the two together. A Lit element (an internal tag, `itch-oauth-code`) that draws its
 * <dialog> in the page itself, without a shadow root: `login()` uses it from the script tag too.
 * It speaks the game page's language (`<html lang>`, else the browser's; see src/i18n/).
 *
 * A modal <dialog> (https://html.spec.whatwg.org/multipage/interactive-elements.html#the-dialog-element):
 * it takes the focus, so a screen reader reads the code at once; the rest of the page is inert
 * while it shows, so Tab does not leave it for the page behind; closing it returns the focus to
 * where it was. Escape gives the page back, and the code stays in view (a non-modal dialog) until
 * the login ends: the person can still compare it with the popup's.
 */
import { format } from '../i18n/catalogue.js';
import { button as en } from '../i18n/locales/en.js';
import { messagesFor } from '../i18n/messages.js';
import { html } from './lit.js';
import { PageDialog } from './page-dialog.js';
import { createElement, documentProperty } from '../core/page-document.js';

class CodeOverlay extends PageDialog {
  /** The code the popup shows too. */
  declare code: string;

  /** In the page, not in a shadow root: the dialog is the page's own element (as a screen reader meets it). */
  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  /** Its place and colours through the CSS object model, which a strict `style-src` allows (a style attribute in markup it does not). */
  protected override firstUpdated(): void {
    const view = this.querySelector('dialog')!;
    view.style.cssText = 'position:fixed;z-index:2147483647;inset:auto 1rem 1rem auto;background:#222;color:#fff;font:16px system-ui';
    view.showModal();
  }

  /**
   * In English while the page's language loads: the code itself must not wait. Escape closes the
   * dialog (the focus is back where it was): it stays in view, without the modality and without
   * taking the focus again (show() would). On a removed one this changes nothing.
   */
  protected override render() {
    const words = messagesFor(documentProperty('documentElement'), en) ?? en;
    return html`<dialog @close=${(event: Event) => ((event.target as HTMLDialogElement).open = true)}>${format(words.code, { code: this.code })}</dialog>`;
  }
}

let codeView: CodeOverlay | undefined;

/** Shows the code (or, with `undefined`, removes it and returns the focus). */
export function showCode(code?: string): void {
  codeView?.querySelector('dialog')?.close();
  codeView?.remove();
  codeView = undefined;
  if (code === undefined) return;
  // Registered once per page: a second copy of the package (the button file beside the full one) draws with the first's.
  if (!customElements.get('itch-oauth-code')) customElements.define('itch-oauth-code', CodeOverlay);
  codeView = createElement('itch-oauth-code') as CodeOverlay;
  codeView.code = code;
  documentProperty('body').append(codeView);
}
