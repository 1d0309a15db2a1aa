/*
 * The answer of the token endpoint that `createTokenHandler` with `createSessions().onLogin`
 * serves: the `response` of `login()` and of the `itch-login-success` event.
 */
import type { Owns, User } from './wire-types.js';

/**
 * What `createTokenHandler({ onLogin: sessions.onLogin })` answers a login: the player, what
 * they own (with the handler's `ownership` option), and, for a login started from one of
 * `createSessions({ allowedOrigins })` (a framed game), the game token. A backend of your own may
 * answer something else: this is the type of `response` only with `createSessions`.
 *
 * @example
 * const { response } = await login({ clientId, redirectUri, backend: '/auth/itch' });
 * greet((response as LoginAnswer).user.display_name);
 * @group Log in from code
 */
export interface LoginAnswer {
  /** The itch.io profile of the player. */
  user: User;
  /** `{ [gameId]: boolean }`, with the token handler's `ownership` option only. */
  owns?: Owns;
  /** The game token (a JWT) for `Authorization: Bearer`; only for a login started from a game's origin (no cookie then). */
  gameToken?: string;
}
