import type { ItchOAuthErrorCode } from '../core/errors.js';

/**
 * `itch-login-start`: the button was clicked; cancel it to stay on the page.
 * @group Elements
 */
export interface ItchLoginStartDetail {
  /** The itch.io authorization address the user is about to be sent to. */
  url: string;
}

/**
 * `itch-login-success`: the backend accepted the token.
 * @group Elements
 */
export interface ItchLoginSuccessDetail {
  /** The backend's JSON answer (never the token). */
  response: unknown;
}

/**
 * `itch-login-error`: the login failed.
 * @group Elements
 */
export interface ItchLoginErrorDetail {
  code: ItchOAuthErrorCode;
  message: string;
}

/** An `itch-login-error` event (bubbles, composed; cancelable for `popup_blocked`). */
export function errorEvent(code: ItchOAuthErrorCode, message: string, cancelable = false): CustomEvent<ItchLoginErrorDetail> {
  return new CustomEvent('itch-login-error', { detail: { code, message }, bubbles: true, composed: true, cancelable });
}

declare global {
  interface GlobalEventHandlersEventMap {
    'itch-login-start': CustomEvent<ItchLoginStartDetail>;
    'itch-login-success': CustomEvent<ItchLoginSuccessDetail>;
    'itch-login-error': CustomEvent<ItchLoginErrorDetail>;
  }
}
