/*
 * `login()` and `startLogin()` as the page gets them: the core's decisions (src/core/login.ts),
 * drawn with this folder's code overlay and Continue button.
 */
import {
  loginWith,
  startLogin as startDrawnBy,
  type LoginHandle,
  type LoginHooks,
  type LoginOptions,
  type LoginResult,
} from '../core/login.js';
import { gameSession as gameSessionDrawnBy, type GameSession, type GameSessionOptions } from '../core/game-session.js';
import { showCode } from './code-overlay.js';
import { showContinue } from './continue-button.js';

/**
 * Logs in with itch.io from code: a game engine's JavaScript bridge, or an app that draws its
 * own button. Popup mode (the default in a frame) opens the itch.io window at once when called
 * in a click or key handler (or shortly after one) and resolves with the backend's answer;
 * called later (a game loop that reads its input in the next frame or seconds later, code after
 * an `await`), it shows a "Continue with itch.io" button over the page whose click opens the
 * window. Redirect mode leaves the page.
 *
 * @example
 * button.onclick = () => ItchOAuth.login({ clientId, redirectUri, backend: '/auth/itch', mode: 'popup' })
 *   .then(({ response }) => startGame(response))
 *   .catch((error) => showError(error.code));
 * @throws never: failures reject with an `ItchOAuthError` (`popup_blocked`, `popup_closed` also
 *   when the person cancels the Continue button, `backend_rejected`, `service_unavailable` when
 *   the site's server or itch.io cannot answer, `cookies_blocked`, `config_invalid`, `aborted`
 *   when `signal` aborts). `playerMessage(error.code)` gives the player's sentence for it.
 * @group Log in from code
 */
export function login(options: LoginOptions): Promise<LoginResult> {
  return loginWith(options, showCode, showContinue);
}

/**
 * A framed game's login, kept and used (see the core's `gameSession` for all it does), drawn
 * with the code overlay and the Continue button.
 * @group Framed games
 */
export function gameSession(options: GameSessionOptions): GameSession {
  return gameSessionDrawnBy(options, showCode, showContinue);
}

/**
 * Starts a login, synchronously up to leaving the page or opening the popup (call it in a click
 * or key handler: popups need the user's activation). The code a popup asks to check is shown
 * over the page, unless `hooks.code` draws it.
 *
 * @throws ItchOAuthError `config_invalid` for bad options, `cookies_blocked` for storage the browser refuses (redirect mode).
 * @group Steps of a login
 */
export function startLogin(options: LoginOptions, hooks: LoginHooks = {}): LoginHandle {
  return startDrawnBy(options, { code: showCode, ...hooks });
}
