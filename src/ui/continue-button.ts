/*
 * The "Continue with itch.io" button that `login()` shows over the page when it is called with no
 * user activation left (a game loop that reads its input a frame or seconds after the click, code
 * after an `await`): a browser opens a popup only in a person's click or key press, or shortly
 * after ("transient activation",
 * https://html.spec.whatwg.org/multipage/interaction.html#tracking-user-activation), so this
 * button asks for one. A modal `<dialog>` (https://html.spec.whatwg.org/multipage/interactive-elements.html#the-dialog-element):
 * it is drawn in the top layer, above a game's full-screen canvas too, takes the focus, and
 * closes on Escape. A Lit element (an internal tag, `itch-oauth-continue`) drawn at once when
 * shown, so the dialog is open and focused when `login()` returns.
 * It speaks the page's language (`<html lang>`, else the browser's; see src/i18n/): the words
 * `login` (the dialog's name), `continue` and `dismiss`.
 */
import { button as en } from '../i18n/locales/en.js';
import { messagesFor } from '../i18n/messages.js';
import { html, unsafeCSS } from './lit.js';
import { PageDialog } from './page-dialog.js';
import { createElement, documentProperty } from '../core/page-document.js';

// Small on purpose (the script-tag file has a size budget): the browser's own focus ring, no
// animation at all (so none under prefers-reduced-motion), and a transparent border that forced
// colors make visible (https://www.w3.org/TR/css-color-adjust-1/#forced-colors-properties).
const styles = `dialog{border:2px solid transparent;border-radius:8px;font:16px system-ui}button{font:inherit;min-height:44px;margin:4px;padding:0 1rem;border:2px solid;border-radius:6px}[part=continue]{background:#d63b3b;color:#fff}`;

/** The dialog; `showContinue` makes one. */
class ContinueDialog extends PageDialog {
  static override styles = unsafeCSS(styles);

  /** Continue's click (a person's own), and Cancel's or Escape's. */
  declare go: (event: Event) => void;
  declare dismiss: (event: Event) => void;

  /** The keys that went down in the dialog (by `code`) and are not up yet. */
  #pressed = new Set<string>();
  protected override firstUpdated(): void {
    this.renderRoot.querySelector('dialog')!.showModal();
  }

  // A key held down since before the button showed (a game's Enter or Space) must not press it:
  // its repeated keydowns are cancelled (Enter presses on a keydown, Space arms the button for its
  // keyup). The keyup of a key that did not go down here is cancelled too: Space presses on its
  // keyup, and no engine we test presses on a keyup without its keydown, but nothing promises
  // it. Only a key pressed anew counts.
  #keydown(event: KeyboardEvent): void {
    if (event.repeat) event.preventDefault();
    else this.#pressed.add(event.code);
  }

  #keyup(event: KeyboardEvent): void {
    if (!this.#pressed.delete(event.code)) event.preventDefault();
  }

  /** In English while the page's language loads: the player's click must not wait. */
  protected override render() {
    const words = messagesFor(documentProperty('documentElement'), en) ?? en;
    return html`<dialog part="dialog" aria-label=${words.login} @keydown=${this.#keydown} @keyup=${this.#keyup} @close=${this.dismiss}><button part="continue" autofocus @click=${this.go}>${words.continue}</button><button part="dismiss" @click=${this.dismiss}>${words.dismiss}</button></dialog>`;
  }
}

/**
 * Shows the button, with `go` run in its click (a person's own: a click a script made is ignored)
 * and `dismiss` on Cancel or Escape; returns what removes it and gives the focus back (`true` if it was shown).
 */
export function showContinue(go: () => void, dismiss: () => void): () => boolean {
  const previous = documentProperty('activeElement') as HTMLElement | null;
  // Registered once per page: a second copy of the package (the button file beside the full one) draws with the first's.
  if (!customElements.get('itch-oauth-continue')) customElements.define('itch-oauth-continue', ContinueDialog);
  const host = createElement('itch-oauth-continue') as ContinueDialog;
  let shown = true;
  const end = (then?: () => void) => (event: Event) => {
    if (!event.isTrusted || !shown) return;
    remove();
    then?.();
  };
  const remove = () => {
    const was = shown;
    shown = false;
    host.remove();
    if (was) previous?.focus();
    return was;
  };
  host.go = end(go);
  host.dismiss = end(dismiss);
  documentProperty('body').append(host);
  return remove;
}
