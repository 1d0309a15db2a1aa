/*
 * Verification of an access token with itch.io: the application it was issued to, its scopes,
 * the user's profile and, with the `ownership` option, the games the user owns.
 */
import { missingScopes } from '../../core/scopes.js';
import { createLoginClient } from '../itch-api/login-client.js';
import { failureInWords, isRefusedByItch, ItchApiError } from '../itch-api/errors.js';
import { createOwnershipCheck, type Owns } from './ownership.js';
import type { User } from '../itch-api/login-schemas.js';
import { errorResponse } from '../http/answers.js';
import type { HandlerSettings } from './read-options.js';

/** A token itch.io vouched for: its user, its scopes and, with `ownership`, the games owned. */
export interface VerifiedToken {
  user: User;
  scopes: string[];
  owns?: Owns;
}

/** Verifies one token: what itch.io vouches for, or the answer that refuses it. */
export type Verify = (token: string) => Promise<VerifiedToken | Response>;

/**
 * The verification of the handler's tokens: `{apiBaseUrl}/credentials/info` (a token of another
 * application, or without a required scope, is refused with 403), `{apiBaseUrl}/profile`, then the
 * ownership check. itch.io refusing the token is a 401; itch.io failing is a 502.
 *
 * @see https://itch.io/docs/api/oauth
 * @see https://www.rfc-editor.org/rfc/rfc9700#section-4.6
 */
export function createVerify(settings: HandlerSettings): Verify {
  const { baseUrl, apiBaseUrl, requiredScopes, applicationId, fetch, timeoutMs, ownership } = settings;
  const checkOwnership = ownership === undefined ? undefined : createOwnershipCheck(ownership, { baseUrl, apiBaseUrl, fetch, timeoutMs });

  return async (token) => {
    const itch = createLoginClient({ baseUrl, apiBaseUrl, credential: { type: 'oauth', accessToken: token }, fetch, timeoutMs });
    try {
      const info = await itch.credentialsInfo();
      const missing = missingScopes(info.scopes, requiredScopes);
      if (missing.length > 0)
        return errorResponse(403, `the access token lacks the required scope${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`);
      if (info.oauth_application_id !== applicationId) return errorResponse(403, 'the access token was not issued to this application');
      const user = await itch.profile();
      if (checkOwnership === undefined) return { user, scopes: info.scopes };
      const ownership = await checkOwnership({ token, user, scopes: info.scopes });
      if ('refusal' in ownership) return errorResponse(ownership.refusal.status, ownership.refusal.message, ownership.refusal.code);
      return { user, scopes: info.scopes, owns: ownership.owns };
    } catch (error) {
      return upstreamErrorResponse(error, apiBaseUrl);
    }
  };
}

/**
 * itch.io refusing the token is the client's fault (401); anything else is itch.io's (502), said
 * with the address asked (a handler left pointed at the real itch.io while you try the emulator
 * fails here).
 */
function upstreamErrorResponse(error: unknown, apiBaseUrl: string): Response {
  if (!(error instanceof ItchApiError)) throw error;
  if (isRefusedByItch(error)) {
    return errorResponse(401, 'itch.io did not accept the access token', undefined, { 'WWW-Authenticate': 'Bearer error="invalid_token"' });
  }
  return errorResponse(502, `itch.io could not verify the access token (${failureInWords(error)}) at ${apiBaseUrl}`);
}
