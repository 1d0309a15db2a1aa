import type { ContentfulStatusCode } from 'hono/utils/http-status';

/**
 * The error messages the emulator's API answers with, in `{ "errors": [message] }`. The strings
 * marked "itch.io" are itch.io's own (its documentation and the recorded fixtures); the others are
 * the emulator's wording where itch.io's is not documented.
 */
export const API_ERRORS = {
  /** 401: no credential (itch.io). */
  authenticationRequired: 'authentication required',
  /** 401: unknown or revoked API key or access token. */
  invalidKey: 'invalid key',
  /** 401: unknown JWT. */
  invalidJwt: 'invalid jwt',
  /** 401: JWT past its `expires_at`. */
  expiredJwt: 'jwt expired',
  /** 404: game id unknown or not an integer (itch.io). */
  invalidGame: 'invalid game',
  /** 404: no such endpoint (itch.io). */
  invalidEndpoint: 'invalid api endpoint',
  /** 400: download_keys, the key is invalid, revoked or for another game (itch.io). */
  invalidDownloadKey: 'invalid download key',
  /** 404: download_keys, the user or address has neither bought nor claimed the game (itch.io). */
  noDownloadKeyFound: 'no download key found',
} as const;

/** 403: the credential's scopes do not include `scope` (itch.io's wording for API keys). */
export function scopeDeniedMessage(credentialType: 'key' | 'jwt', scope: string): string {
  return `${credentialType === 'jwt' ? 'jwt' : 'api key'} does not permit \`${scope}\``;
}

/**
 * Thrown by API handlers; the app turns it into `{ "errors": [message] }` with `status`.
 */
export class ApiError extends Error {
  override name = 'ApiError';
  readonly status: ContentfulStatusCode;

  constructor(status: ContentfulStatusCode, message: string) {
    super(message);
    this.status = status;
  }
}
