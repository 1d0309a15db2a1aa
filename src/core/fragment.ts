import { ItchOAuthError } from './errors.js';

/**
 * Longest fragment accepted. itch.io's keys are tens of characters; anything near this is an attack.
 * @group Callback fragment
 */
export const MAX_FRAGMENT_LENGTH = 4096;

/**
 * What itch.io put in the fragment of the redirect: a token, or an RFC 6749 error.
 * @group Callback fragment
 */
export type CallbackResponse =
  { type: 'token'; accessToken: string; state?: string } | { type: 'error'; error: string; errorDescription?: string; state?: string };

/**
 * Why a fragment was refused (see {@link readCallbackFragment}): an index into
 * {@link FRAGMENT_PROBLEMS}. Numbers rather than names because the capture script must stay tiny.
 * @group Callback fragment
 */
export type FragmentProblem = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7;

/**
 * What each {@link FragmentProblem} means. 0 is no implicit-flow response at all.
 * @group Callback fragment
 */
export const FRAGMENT_PROBLEMS = [
  'it carries neither access_token nor error',
  `longer than ${MAX_FRAGMENT_LENGTH} characters`,
  'a parameter has a bad percent-escape',
  'a parameter is repeated',
  'it carries both access_token and error',
  'access_token is empty or has characters outside RFC 6750',
  'state is empty or has characters outside RFC 6749',
  'error is empty or has characters outside RFC 6749',
] as const;

// RFC 6749 Appendix A: access_token and state are VSCHAR (%x20-7E); a bearer token has no spaces
// (RFC 6750 section 2.1). error and error_description are NQSCHAR (no `"` and no `\`).
const TOKEN_CHARS = /^[!-~]+$/;
const STATE_CHARS = /^[ -~]+$/;
const ERROR_CHARS = /^[ !#-[\]-~]+$/;

/**
 * The parameters of a well-formed response, as {@link readCallbackFragment} finds them.
 * @group Callback fragment
 */
export interface CallbackParams {
  access_token?: string;
  error?: string;
  state?: string;
}

/**
 * The reading behind {@link parseCallbackFragment}, kept small for the capture script, which
 * needs only this much: the parameters, or the number of what is wrong with them
 * ({@link FragmentProblem}). A fragment without an `access_token` or `error` parameter is not an
 * implicit-flow response (0) and belongs to the page. Refuses an oversized fragment, a bad
 * percent-escape, a repeated parameter, both `access_token` and `error`, and an empty token. The
 * characters of the token (JSON-encoded for the token endpoint), the state (only ever looked up) and the
 * error (only known codes are ever shown) are checked by {@link parseCallbackFragment}. Never throws.
 *
 * @param body the fragment without its `#`.
 * @group Callback fragment
 */
export function readCallbackFragment(body: string): CallbackParams | FragmentProblem {
  const params = new URLSearchParams(body);
  const result: CallbackParams = Object.fromEntries(params);
  const { access_token: token, error } = result;
  if (token == null && error == null) return 0;
  try {
    // URLSearchParams decodes leniently; decoding the whole body refuses any bad escape.
    // (The result is used so that no minifier takes the call for dead code.)
    if (decodeURIComponent(body).length > MAX_FRAGMENT_LENGTH) return 1;
  } catch {
    return 2;
  }
  return Object.keys(result).length < [...params].length ? 3 : token == null ? result : error != null ? 4 : token ? result : 5;
}

/**
 * Whether a fragment is an implicit-flow response (has an `access_token` or `error` parameter,
 * however encoded). Only such fragments are read and cleared; any other belongs to the page.
 * @group Callback fragment
 */
export function isCallbackFragment(fragment: string): boolean {
  return readCallbackFragment(fragment.replace(/^#/, '')) !== 0;
}

/**
 * Parses the fragment of the redirect back from itch.io, strictly: a repeated parameter, a bad
 * percent-escape, an empty or ill-formed value, a response that is both or neither a token and an
 * error, or a fragment over 4,096 characters is refused. Unrecognised parameters are
 * ignored (RFC 6749 section 4.2.2). Throws nothing but `ItchOAuthError`, whose message never
 * contains a parameter value.
 *
 * @param fragment `location.hash`, with or without its leading `#`.
 * @throws ItchOAuthError `invalid_response`.
 * @see https://itch.io/docs/api/oauth (RFC 6749 sections 4.2.2 and 4.2.2.1)
 * @group Callback fragment
 */
export function parseCallbackFragment(fragment: string): CallbackResponse {
  const body = fragment.replace(/^#/, '');
  const result = readCallbackFragment(body);
  const problem =
    typeof result === 'number'
      ? result
      : result.access_token != null && !TOKEN_CHARS.test(result.access_token)
        ? 5
        : result.state != null && !STATE_CHARS.test(result.state)
          ? 6
          : result.error != null && !ERROR_CHARS.test(result.error)
            ? 7
            : undefined;
  if (problem !== undefined) {
    throw new ItchOAuthError('invalid_response', `the itch.io response in the address is malformed: ${FRAGMENT_PROBLEMS[problem]}`);
  }
  const { access_token: accessToken, error, state } = result as CallbackParams;
  const response: CallbackResponse = accessToken != null ? { type: 'token', accessToken } : { type: 'error', error: error as string };
  if (response.type === 'error') {
    const description = new URLSearchParams(body).get('error_description');
    if (description != null && ERROR_CHARS.test(description)) response.errorDescription = description;
  }
  if (state != null) response.state = state;
  return response;
}
