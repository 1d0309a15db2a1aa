// The browser entry: element classes and the framework-free core. Importing it registers
// nothing (see ./define).
export * from './core/index.js';
export { ItchLoginButton } from './elements/itch-login-button.js';
export { ITCH_LOGIN_BUTTON_PREUPGRADE_CSS } from './elements/itch-login-button.styles.js';
export { ItchOAuthCallback, ERROR_MESSAGES } from './elements/itch-oauth-callback.js';
export type { ItchLoginErrorDetail, ItchLoginStartDetail, ItchLoginSuccessDetail } from './elements/events.js';
// Programmatic login (the button's behaviour, from code): also `ItchOAuth.login` in the script-tag file.
export { login, type LoginOptions, type LoginResult } from './core/login.js';
// The elements' words: overrides and added languages (also `ItchOAuth.setMessages` in the script-tag file).
export { setMessages } from './i18n/messages.js';
// The player's sentence for an error code, for games that draw their own interface (also `ItchOAuth.playerMessage`).
export { playerMessage } from './i18n/player-message.js';
export type { WidgetMessages } from './i18n/catalogue.js';
// Game engines' bridge (string options in, a JSON string to a named callback out): also
// `ItchOAuth.bridge` from dist/itch-oauth-bridge.iife.js.
export { createBridge, type Bridge, type BridgeResult } from './bridge/bridge.js';
