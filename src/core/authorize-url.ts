import { ItchOAuthError } from './errors.js';
import { assertRequestScopes } from './scopes.js';

/**
 * The itch.io origin logins go to unless another `base-url` is given.
 * @group Authorize URL
 */
export const DEFAULT_BASE_URL = 'https://itch.io';

/**
 * The redirect URI that makes itch.io show the key on a page instead of redirecting.
 * @group Authorize URL
 */
export const OOB_REDIRECT_URI = 'urn:ietf:wg:oauth:2.0:oob';

/**
 * The options of `buildAuthorizeUrl`: the OAuth application, the scopes and the login's `state`.
 * @group Authorize URL
 */
export interface AuthorizeUrlOptions {
  /** Client ID of the itch.io OAuth application. */
  clientId: string;
  /** The redirect URI registered for that application, exactly. */
  redirectUri: string;
  /** Space-separated scopes, or a list of them. */
  scope: string | readonly string[];
  /** The one-time `state` of this login (see `createState`). */
  state: string;
  /** Where itch.io lives; may carry a path prefix. Default `https://itch.io`. */
  baseUrl?: string | undefined;
  /**
   * Sends scopes that are not itch.io's documented ones. Only for a server that is known to
   * accept them; a typo'd scope otherwise fails at itch.io, in front of the user.
   */
  dangerouslyAllowUnknownScopes?: boolean | undefined;
}

function parseHttpUrl(value: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ItchOAuthError('config_invalid', `${what} must be an absolute URL, got ${JSON.stringify(value)}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ItchOAuthError('config_invalid', `${what} must be an http(s) URL, got ${JSON.stringify(url.protocol)}`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new ItchOAuthError('config_invalid', `${what} must not carry credentials`);
  }
  return url;
}

/**
 * Checks a redirect URI: an absolute http(s) URL without fragment, or the out-of-band URN.
 * @group Authorize URL
 */
export function assertRedirectUri(value: string): string {
  if (value === OOB_REDIRECT_URI) return value;
  if (value === '') throw new ItchOAuthError('config_invalid', 'redirect-uri is required');
  const url = parseHttpUrl(value, 'redirect-uri');
  if (url.hash !== '' || value.includes('#')) {
    throw new ItchOAuthError('config_invalid', 'redirect-uri must not contain a fragment (RFC 6749 section 3.1.2)');
  }
  return value;
}

/**
 * Checks a base URL (http(s), may carry a path prefix) and returns it without a trailing slash.
 * @group Authorize URL
 */
export function assertBaseUrl(value: string): string {
  const url = parseHttpUrl(value, 'base-url');
  if (url.search !== '' || url.hash !== '') {
    throw new ItchOAuthError('config_invalid', 'base-url must not carry a query or fragment');
  }
  return url.href.replace(/\/+$/, '');
}

/**
 * Builds the address of itch.io's authorization page for the implicit flow, checking every
 * input first. Always `response_type=token`, always the given `state`.
 *
 * @throws ItchOAuthError `config_invalid` naming the bad input.
 * @see https://itch.io/docs/api/oauth (RFC 6749 section 4.2.1)
 * @group Authorize URL
 */
export function buildAuthorizeUrl(options: AuthorizeUrlOptions): URL {
  const clientId = options.clientId.trim();
  if (clientId === '') throw new ItchOAuthError('config_invalid', 'client-id is required');
  const redirectUri = assertRedirectUri(options.redirectUri);
  const scopes = assertRequestScopes(options.scope, options.dangerouslyAllowUnknownScopes === true);
  if (options.state === '') throw new ItchOAuthError('config_invalid', 'state is required');

  const url = new URL(`${assertBaseUrl(options.baseUrl ?? DEFAULT_BASE_URL)}/user/oauth`);
  url.search = new URLSearchParams({
    client_id: clientId,
    scope: scopes.join(' '),
    redirect_uri: redirectUri,
    response_type: 'token',
    state: options.state,
  }).toString();
  return url;
}
