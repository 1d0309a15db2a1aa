/*
 * The "Continue with itch.io" button that `login()` shows over the page when it is called with no
 * user activation left (a game loop that reads its input a frame or seconds after the click, code
 * after an `await`): a browser opens a popup only in a person's click or key press, or shortly
 * after ("transient activation",
 * https://html.spec.whatwg.org/multipage/interaction.html#tracking-user-activation), so this
 * button asks for one. A modal `<dialog>` (https://html.spec.whatwg.org/multipage/interactive-elements.html#the-dialog-element):
 * it is drawn in the top layer, above a game's full-screen canvas too, takes the focus, and
 * closes on Escape. Plain DOM in a shadow root (see ./dom.ts): its text is set again when the
 * words change.
 * It speaks the page's language (`<html lang>`, else the browser's; see src/i18n/): the words
 * `login` (the dialog's name), `continue` and `dismiss`.
 */
import { button as en } from '../i18n/locales/en.js';
import { messagesFor, watch } from '../i18n/messages.js';
import { h, shadow, text } from './dom.js';

// Small on purpose (the script-tag file has a size budget): the browser's own focus ring, no
// animation at all (so none under prefers-reduced-motion), and a transparent border that forced
// colors make visible (https://www.w3.org/TR/css-color-adjust-1/#forced-colors-properties).
const styles = `dialog{border:2px solid transparent;border-radius:8px;font:16px system-ui}button{font:inherit;min-height:44px;margin:4px;padding:0 1rem;border:2px solid;border-radius:6px}[part=continue]{background:#d63b3b;color:#fff}`;

/**
 * Shows the button, with `go` run in its click (a person's own: a click a script made is ignored)
 * and `dismiss` on Cancel or Escape; returns what removes it and gives the focus back (`true` if it was shown).
 */
export function showContinue(go: () => void, dismiss: () => void): () => boolean {
  const previous = document.activeElement as HTMLElement | null;
  const host = document.createElement('div');
  let shown = true;
  const end = (then?: () => void) => (event: Event) => {
    if (!event.isTrusted || !shown) return;
    remove();
    then?.();
  };
  const remove = () => {
    const was = shown;
    shown = false;
    unwatch();
    host.remove();
    if (was) previous?.focus();
    return was;
  };
  const yes = h('button', { part: 'continue', autofocus: '' });
  const no = h('button', { part: 'dismiss' });
  const dialog = h('dialog', { part: 'dialog' }, yes, no);
  yes.onclick = end(go);
  // A key held down since before the button showed (a game's Enter or Space) must not press it:
  // its repeated keydowns are cancelled (Enter presses on a keydown, Space arms the button for its
  // keyup). The keyup of a key that did not go down here is cancelled too: Space presses on its
  // keyup, and no engine we test presses on a keyup without its keydown, but nothing promises
  // it. Only a key pressed anew counts. (The handlers return nothing: an on-handler's false
  // would cancel every key.)
  const pressed = new Set<string>();
  dialog.onkeydown = (event) => {
    if (event.repeat) event.preventDefault();
    else pressed.add(event.code);
  };
  dialog.onkeyup = (event) => {
    if (!pressed.delete(event.code)) event.preventDefault();
  };
  no.onclick = dialog.onclose = end(dismiss);
  shadow(host, styles).append(dialog);
  // In English while the page's language loads: the player's click must not wait.
  const draw = () => {
    const words = messagesFor(document.documentElement, en) ?? en;
    dialog.setAttribute('aria-label', words.login);
    text(yes, words.continue);
    text(no, words.dismiss);
  };
  draw();
  const unwatch = watch(draw);
  document.body.append(host);
  dialog.showModal();
  return remove;
}
