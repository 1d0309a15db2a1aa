/**
 * `itch-oauth-widget`: what a page calls to log in with itch.io: the two elements, `login()`, the
 * error codes, the elements' words, and the game engines' bridge. Importing it registers nothing
 * (see `itch-oauth-widget/define`) and needs no DOM. The building blocks under `login()` are in
 * `itch-oauth-widget/protocol`.
 * @module
 */
export { ItchLoginButton } from './elements/itch-login-button.js';
export { ITCH_LOGIN_BUTTON_PREUPGRADE_CSS } from './elements/itch-login-button.styles.js';
export { ItchOAuthCallback, ERROR_MESSAGES } from './elements/itch-oauth-callback.js';
export type { ItchLoginErrorDetail, ItchLoginStartDetail, ItchLoginSuccessDetail } from './elements/events.js';
// Programmatic login (the button's behaviour, from code): also `ItchOAuth.login` in the script-tag file.
export { login } from './ui/login.js';
export type { LoginOptions, LoginResult, LoginMode } from './core/login.js';
// The token endpoint's answer with createSessions: `response` of login() and of itch-login-success.
export type { LoginAnswer } from './core/login-answer.js';
// A framed game's login, kept, renewed and sent to its site (also `ItchOAuth.gameSession` in the script-tag files).
export { gameSession } from './ui/login.js';
export type { GameSession, GameSessionOptions } from './core/game-session.js';
export { ERROR_CODES, ItchOAuthError, isErrorCode, type ItchOAuthErrorCode } from './core/errors.js';
// The elements' words: overrides and added languages (also `ItchOAuth.setMessages` in the script-tag file).
export { setMessages } from './i18n/messages.js';
// The player's sentence for an error code, for games that draw their own interface (also `ItchOAuth.playerMessage`).
export { playerMessage } from './i18n/player-message.js';
export type { WidgetMessages } from './i18n/catalogue.js';
// Game engines' bridge (string options in, a JSON string to a named callback out): also
// `ItchOAuth.bridge` from dist/itch-oauth-bridge.iife.js.
export { createBridge, type Bridge, type BridgeResult } from './bridge/bridge.js';
