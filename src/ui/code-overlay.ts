/*
 * The one piece of UI the popup login draws on the game's page by itself: the code a person
 * confirms in a popup this page cannot see (its `window.open` returned nothing), the one sign
 * that ties the two together. Plain DOM, no framework: `login()` uses it from the script tag too.
 * It speaks the game page's language (`<html lang>`, else the browser's; see src/i18n/).
 */
import { format } from '../i18n/catalogue.js';
import { button as en } from '../i18n/locales/en.js';
import { messagesFor, watch } from '../i18n/messages.js';

let codeView: HTMLElement | undefined;
let unwatch: (() => void) | undefined;

/** Shows the code (or, with `undefined`, removes it), in a polite live region. */
export function showCode(code: string | undefined): void {
  codeView?.remove();
  codeView = undefined;
  unwatch?.();
  if (code === undefined) return;
  const view = (codeView = document.createElement('div'));
  view.setAttribute('role', 'status');
  view.style.cssText =
    'position:fixed;z-index:2147483647;right:1rem;bottom:1rem;max-width:20rem;padding:1rem;background:#222;color:#fff;font:16px system-ui';
  // In English while the page's language loads: the code itself must not wait.
  const say = () => (view.textContent = format((messagesFor(document.documentElement, en) ?? en).code, { code }));
  say();
  unwatch = watch(say);
  document.body.append(view);
}
