/**
 * `itch-oauth-widget/desktop`: log in with itch.io from a desktop game, launcher or command-line
 * tool (Node, Electron main process): the key the itch app passes to a game it launches
 * (`fromItchApp`), a loopback redirect URI the app listens on, or the out-of-band page where
 * itch.io shows the key to paste. Try them in that order.
 * @see https://itch.io/docs/api/oauth
 * @module
 */
export { loginWithLoopback } from './loopback.js';
export { DEFAULT_LOGIN_TIMEOUT_MS, type LoopbackLoginOptions } from './loopback-options.js';
export { loginOutOfBand, type OutOfBandLoginOptions } from './out-of-band.js';
export {
  fromItchApp,
  ITCH_APP_KEY_VARIABLE,
  ITCH_APP_EXPIRY_VARIABLE,
  type FromItchAppOptions,
  type ItchAppLogin,
} from './from-itch-app.js';
export type { DesktopLoginResult } from './verify.js';
export { ItchOAuthError, type ItchOAuthErrorCode } from '../core/errors.js';
export { OOB_REDIRECT_URI } from '../core/authorize-url.js';
