import { ItchOAuthError } from './errors.js';

/** Longest fragment accepted. itch.io's keys are tens of characters; anything near this is an attack. */
export const MAX_FRAGMENT_LENGTH = 4096;

/** What itch.io put in the fragment of the redirect: a token, or an RFC 6749 error. */
export type CallbackResponse =
  | { type: 'token'; accessToken: string; state?: string }
  | { type: 'error'; error: string; errorDescription?: string; state?: string };

// RFC 6749 Appendix A: access_token and state are VSCHAR (%x20-7E); a bearer token has no spaces
// (RFC 6750 section 2.1). error and error_description are NQSCHAR (no `"` and no `\`).
const TOKEN_CHARS = /^[\x21-\x7e]+$/;
const STATE_CHARS = /^[\x20-\x7e]+$/;
const ERROR_CHARS = /^[\x20\x21\x23-\x5b\x5d-\x7e]+$/;

/**
 * Whether a fragment looks like an implicit-flow response (has an `access_token` or `error`
 * parameter). Only such fragments are read and cleared; any other fragment belongs to the page.
 */
export function isCallbackFragment(fragment: string): boolean {
  return /(?:^#?|&)(?:access_token|error)=/.test(fragment);
}

function invalid(reason: string): ItchOAuthError {
  return new ItchOAuthError('invalid_response', `the itch.io response in the address is malformed: ${reason}`);
}

/**
 * Parses the fragment of the redirect back from itch.io, strictly: a repeated parameter, a bad
 * percent-escape, an empty or ill-formed value, a response that is both or neither a token and an
 * error, or a fragment over {@link MAX_FRAGMENT_LENGTH} is refused. Unrecognised parameters are
 * ignored (RFC 6749 section 4.2.2). Throws nothing but `ItchOAuthError`, whose message never
 * contains a parameter value.
 *
 * @param fragment `location.hash`, with or without its leading `#`.
 * @throws ItchOAuthError `invalid_response`.
 * @see ../shared/spec/itch-api.md section 5.3 ("Callback"); RFC 6749 sections 4.2.2 and 4.2.2.1
 */
export function parseCallbackFragment(fragment: string): CallbackResponse {
  const body = fragment.startsWith('#') ? fragment.slice(1) : fragment;
  if (body.length > MAX_FRAGMENT_LENGTH) throw invalid(`longer than ${MAX_FRAGMENT_LENGTH} characters`);

  const params = new Map<string, string>();
  for (const part of body.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    let name: string;
    let value: string;
    try {
      name = decodeURIComponent((eq < 0 ? part : part.slice(0, eq)).replace(/\+/g, ' '));
      value = eq < 0 ? '' : decodeURIComponent(part.slice(eq + 1).replace(/\+/g, ' '));
    } catch {
      throw invalid('a parameter has a bad percent-escape');
    }
    if (params.has(name)) throw invalid(`the parameter ${JSON.stringify(name.slice(0, 32))} is repeated`);
    params.set(name, value);
  }

  const token = params.get('access_token');
  const error = params.get('error');
  const state = params.get('state');
  if (state !== undefined && !STATE_CHARS.test(state)) throw invalid('state is empty or has characters outside RFC 6749');

  if (token !== undefined && error !== undefined) throw invalid('it carries both access_token and error');
  if (token !== undefined) {
    if (!TOKEN_CHARS.test(token)) throw invalid('access_token is empty or has characters outside RFC 6750');
    return state === undefined ? { type: 'token', accessToken: token } : { type: 'token', accessToken: token, state };
  }
  if (error !== undefined) {
    if (!ERROR_CHARS.test(error)) throw invalid('error is empty or has characters outside RFC 6749');
    const response: CallbackResponse = { type: 'error', error };
    const description = params.get('error_description');
    if (description !== undefined && ERROR_CHARS.test(description)) response.errorDescription = description;
    if (state !== undefined) response.state = state;
    return response;
  }
  throw invalid('it carries neither access_token nor error');
}
