// The entry of dist/itch-oauth.iife.js, everything browser-side for a plain <script src>.
// First in <head> of a callback page (with data-backend) it performs the capture before
// anything else, exactly as the capture-only file does; then it registers both elements.
// Its exports are the `ItchOAuth` global: `ItchOAuth.login({...})` for game engines' bridges,
// `ItchOAuth.setMessages(locale, messages)` for a site's own words, `ItchOAuth.playerMessage(code,
// lang?)` for the player's sentence after a failure.
import './capture/script-tag.js';
import './define.js';

export { login } from './ui/login.js';
export { ItchOAuthError, ERROR_CODES } from './core/errors.js';
export { setMessages } from './i18n/messages.js';
export { gameSession } from './ui/login.js';
export { playerMessage } from './i18n/player-message.js';
