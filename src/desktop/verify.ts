import { ItchOAuthError } from '../core/errors.js';
import { createItchClient } from '../server/itch-api/client.js';
import { ItchApiError } from '../server/itch-api/errors.js';

/** What a desktop login resolves to: the access token and the scopes itch.io says it carries. */
export interface DesktopLoginResult {
  /** The OAuth access token (an itch.io API key), for `Authorization: Bearer …` on the OAuth endpoints. */
  accessToken: string;
  /** The token's scopes, as credentials/info answered them. */
  scopes: string[];
}

/** Where the key is checked: itch.io's OAuth API (or the emulator's `apiUrl`). */
export interface VerifyOptions {
  apiBaseUrl?: string | undefined;
  signal?: AbortSignal | undefined;
}

// RFC 6750 section 2.1: a bearer token is visible ASCII without spaces.
const TOKEN_CHARS = /^[!-~]{1,512}$/;

/**
 * Asks itch.io's credentials/info about a key before anyone uses it: a key itch.io does not know
 * (mistyped, revoked, pasted from somewhere else) is an error, never a result.
 *
 * @throws ItchOAuthError `backend_rejected` when itch.io refuses the key (or the pasted text
 *   cannot be a key), `network_error` when itch.io cannot be reached; the signal's reason on abort.
 * @see https://itch.io/docs/api/oauth
 */
export async function verifyAccessToken(key: string, options: VerifyOptions): Promise<DesktopLoginResult> {
  const accessToken = key.trim();
  if (!TOKEN_CHARS.test(accessToken)) {
    throw new ItchOAuthError('backend_rejected', 'that is not an itch.io key: copy the whole key shown on the itch.io page');
  }
  // credentials/info lives on the OAuth API (apiBaseUrl); the site's baseUrl is not needed here.
  let client;
  try {
    client = createItchClient({ apiBaseUrl: options.apiBaseUrl, credential: { type: 'oauth', accessToken } });
  } catch (error) {
    throw new ItchOAuthError('config_invalid', (error as Error).message, { cause: error });
  }
  try {
    const info = await client.credentialsInfo({ signal: options.signal });
    return { accessToken, scopes: [...info.scopes] };
  } catch (error) {
    if (error instanceof ItchApiError && error.code === 'aborted') throw options.signal?.reason ?? error;
    if (error instanceof ItchApiError && (error.code === 'api_error' || (error.status >= 400 && error.status < 500))) {
      throw new ItchOAuthError('backend_rejected', 'itch.io does not know this key (mistyped, revoked or expired): log in again', {
        cause: error,
      });
    }
    throw new ItchOAuthError('network_error', `could not check the key with itch.io: ${(error as Error).message}`, { cause: error });
  }
}
