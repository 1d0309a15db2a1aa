// Registers <itch-login-button> and <itch-oauth-callback>: the package's only side effect.
// A tag already defined (by the script-tag file, or a second copy of the package) is left as it is;
// where there is no custom element registry (a server that renders the app's pages imports this
// too), nothing is registered.
import { ItchLoginButton } from './elements/itch-login-button.js';
import { ItchOAuthCallback } from './elements/itch-oauth-callback.js';

for (const [tag, element] of [
  ['itch-login-button', ItchLoginButton],
  ['itch-oauth-callback', ItchOAuthCallback],
] as const) {
  if (globalThis.customElements && !customElements.get(tag)) customElements.define(tag, element);
}

// Importing this entry alone types both tags (HTMLElementTagNameMap) and their events
// (HTMLElementEventMap) in TypeScript, Angular's templates included.
export type { ItchLoginButton, ItchOAuthCallback, ItchLoginErrorDetail, ItchLoginStartDetail, ItchLoginSuccessDetail } from './index.js';
