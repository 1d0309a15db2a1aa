/*
 * The one piece of UI the popup login draws on the game's page by itself: the code a person
 * confirms in a popup this page cannot see (its `window.open` returned nothing), the one sign
 * that ties the two together. Plain DOM, no framework: `login()` uses it from the script tag too.
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
import { messagesFor, watch } from '../i18n/messages.js';

let codeView: HTMLDialogElement | undefined;
let unwatch: (() => void) | undefined;

/** Shows the code (or, with `undefined`, removes it and returns the focus). */
export function showCode(code: string | undefined): void {
  codeView?.close();
  codeView?.remove();
  codeView = undefined;
  unwatch?.();
  if (code === undefined) return;
  const view = (codeView = document.createElement('dialog'));
  view.style.cssText = 'position:fixed;z-index:2147483647;inset:auto 1rem 1rem auto;background:#222;color:#fff;font:16px system-ui';
  // In English while the page's language loads: the code itself must not wait.
  const say = () => (view.textContent = format((messagesFor(document.documentElement, en) ?? en).code, { code }));
  say();
  unwatch = watch(say);
  // Escape closed it (the focus is back where it was): it stays in view, without the modality
  // and without taking the focus again (show() would). On a removed one this changes nothing.
  view.onclose = () => {
    view.open = true;
  };
  document.body.append(view);
  view.showModal();
}
