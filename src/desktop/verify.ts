import { ItchOAuthError } from '../core/errors.js';
import { createItchClient, type ItchClientOptions } from '../server/client.js';
import { ItchApiError } from '../server/errors.js';

/** What a desktop login resolves to: the access token and the scopes itch.io says it carries. */
export interface DesktopLoginResult {
  /** The OAuth access token (an itch.io API key), for `Authorization: Bearer …` on the OAuth endpoints. */
  accessToken: string;
  /** The token's scopes, as credentials/info answered them. */
  scopes: string[];
}

/** Where the key is checked: the site and the OAuth API of itch.io (or of the emulator). */
export interface VerifyOptions {
  baseUrl?: string | undefined;
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
  const clientOptions: ItchClientOptions = { credential: { type: 'oauth', accessToken } };
  if (options.baseUrl !== undefined) clientOptions.baseUrl = options.baseUrl;
  // TODO(merge main): ItchClientOptions gains apiBaseUrl (issue 11); drop the cast then.
  if (options.apiBaseUrl !== undefined) (clientOptions as { apiBaseUrl?: string }).apiBaseUrl = options.apiBaseUrl;
  try {
    const info = await createItchClient(clientOptions).credentialsInfo({ signal: options.signal });
    return { accessToken, scopes: [...info.scopes] };
  } catch (error) {
    if (error instanceof ItchApiError && error.code === 'aborted') throw options.signal?.reason ?? error;
    if (error instanceof ItchApiError && (error.code === 'api_error' || (error.status >= 400 && error.status < 500))) {
      throw Object.assign(new ItchOAuthError('backend_rejected', 'itch.io does not know this key (mistyped, revoked or expired): log in again'), { cause: error });
    }
    throw Object.assign(new ItchOAuthError('network_error', `could not check the key with itch.io: ${(error as Error).message}`), { cause: error });
  }
}
