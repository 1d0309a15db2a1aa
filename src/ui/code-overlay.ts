/*
 * The one piece of UI the popup login draws on the game's page by itself: the code a person
 * confirms in a popup this page cannot see (its `window.open` returned nothing), the one sign
 * that ties the two together. Plain DOM, no framework: `login()` uses it from the script tag too.
 */

let codeView: HTMLElement | undefined;

/** Shows the code (or, with `undefined`, removes it), in a polite live region. */
export function showCode(code: string | undefined): void {
  codeView?.remove();
  codeView = undefined;
  if (code === undefined) return;
  codeView = document.createElement('div');
  codeView.setAttribute('role', 'status');
  codeView.style.cssText =
    'position:fixed;z-index:2147483647;right:1rem;bottom:1rem;max-width:20rem;padding:1rem;background:#222;color:#fff;font:16px system-ui';
  codeView.textContent = `itch.io login: confirm in its window only if it shows the code ${code}.`;
  document.body.append(codeView);
}
