// The entry of dist/itch-oauth-button.iife.js, the button alone for a plain <script src>: a
// framed game's page, which starts logins (with the button or with `ItchOAuth.login()` from the
// engine's bridge) but is never a callback page. No capture, no <itch-oauth-callback>: the
// popup's callback page loads dist/itch-oauth.iife.js or dist/itch-oauth-capture.iife.js.
// Its exports are the same `ItchOAuth` global as the full file's.
import { ItchLoginButton } from './elements/itch-login-button.js';

// Guarded as in ./define.ts: the full script-tag file or the npm build may be on the page too.
if (!customElements.get('itch-login-button')) customElements.define('itch-login-button', ItchLoginButton);

export { login } from './ui/login.js';
export { ItchOAuthError, ERROR_CODES } from './core/errors.js';
export { gameSession } from './ui/login.js';
// The button's words, as from the full file: `ItchOAuth.setMessages(locale, messages)`.
export { setMessages } from './i18n/messages.js';
export { playerMessage } from './i18n/player-message.js';
