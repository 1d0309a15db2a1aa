/*
 * Verification of an access token with itch.io: the application it was issued to, its scopes,
 * the user's profile and, with the `ownership` option, the games the user owns. itch.io is asked
 * once per token (see ../itch-api/token-checks.ts), within the site's ceiling of calls.
 */
import { missingScopes } from '../../core/scopes.js';
import type { ItchOAuthErrorCode } from '../../core/errors.js';
import { createLoginClient } from '../itch-api/login-client.js';
import { failureInWords, isRefusedByItch, ItchApiError } from '../itch-api/errors.js';
import { tokenChecks } from '../itch-api/token-checks.js';
import { createOwnershipCheck, type Owns } from './ownership.js';
import type { User } from '../itch-api/login-schemas.js';
import { errorResponse } from '../http/answers.js';
import { ItchCeilingReached, type CheckTicket } from '../rate-limit/limiter.js';
import type { FetchFunction } from '../itch-api/request.js';
import type { HandlerSettings } from './read-options.js';

/** A token itch.io vouched for: its user, its scopes and, with `ownership`, the games owned. */
export interface VerifiedToken {
  user: User;
  scopes: string[];
  owns?: Owns;
}

/**
 * Verifies one token: what itch.io vouches for, or the answer that refuses it. `ticket`, the
 * request's token check (see ../rate-limit/limiter.ts), is told when itch.io refused the token
 * when this request asked it.
 */
export type Verify = (token: string, ticket?: CheckTicket) => Promise<VerifiedToken | Response>;

/** Why a token gets no login, as every request that brings it is answered. */
interface Refused {
  status: number;
  message: string;
  code?: ItchOAuthErrorCode | undefined;
  headers?: Record<string, string> | undefined;
  /** A refusal of the token itself (itch.io's, the application's, the scopes'): remembered. */
  ofToken: boolean;
}

/**
 * The verification of the handler's tokens: `{apiBaseUrl}/credentials/info` (a token of another
 * application, or without a required scope, is refused with 403), `{apiBaseUrl}/profile`, then the
 * ownership check. itch.io refusing the token is a 401; itch.io failing is a 502; the site at its
 * ceiling of calls to itch.io is a 503 with `Retry-After`.
 *
 * @param itchFetch the `fetch` that reaches itch.io, within the ceiling of calls.
 * @see https://itch.io/docs/api/oauth
 * @see https://www.rfc-editor.org/rfc/rfc9700#section-4.6
 */
export function createVerify(settings: HandlerSettings, itchFetch: FetchFunction): Verify {
  const { baseUrl, apiBaseUrl, requiredScopes, applicationId, timeoutMs, ownership } = settings;
  const fetch = itchFetch;
  const checkOwnership = ownership === undefined ? undefined : createOwnershipCheck(ownership, { baseUrl, apiBaseUrl, fetch, timeoutMs });
  const checks = tokenChecks<VerifiedToken | Refused>((outcome) => 'ofToken' in outcome && outcome.ofToken);

  const ask = async (token: string): Promise<VerifiedToken | Refused> => {
    const itch = createLoginClient({ baseUrl, apiBaseUrl, credential: { type: 'oauth', accessToken: token }, fetch, timeoutMs });
    try {
      const info = await itch.credentialsInfo();
      const missing = missingScopes(info.scopes, requiredScopes);
      if (missing.length > 0)
        return {
          status: 403,
          message: `the access token lacks the required scope${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`,
          ofToken: true,
        };
      if (info.oauth_application_id !== applicationId)
        return { status: 403, message: 'the access token was not issued to this application', ofToken: true };
      const user = await itch.profile();
      if (checkOwnership === undefined) return { user, scopes: info.scopes };
      const ownership = await checkOwnership({ token, user, scopes: info.scopes });
      if ('refusal' in ownership) return { ...ownership.refusal, ofToken: false };
      return { user, scopes: info.scopes, owns: ownership.owns };
    } catch (error) {
      return upstreamRefusal(error, apiBaseUrl);
    }
  };

  return async (token, ticket) => {
    const { outcome, asked } = await checks.check(token, () => ask(token));
    if (!('ofToken' in outcome)) return outcome;
    if (asked && outcome.ofToken) ticket?.refused();
    return errorResponse(outcome.status, outcome.message, outcome.code, outcome.headers);
  };
}

/**
 * itch.io refusing the token is the client's fault (401); the site at its ceiling of calls is a
 * 503; anything else is itch.io's (502), said with the address asked (a handler left pointed at
 * the real itch.io while you try the emulator fails here).
 */
function upstreamRefusal(error: unknown, apiBaseUrl: string): Refused {
  if (!(error instanceof ItchApiError)) throw error;
  if (isRefusedByItch(error)) {
    return {
      status: 401,
      message: 'itch.io did not accept the access token',
      headers: { 'WWW-Authenticate': 'Bearer error="invalid_token"' },
      ofToken: true,
    };
  }
  if (error.cause instanceof ItchCeilingReached)
    return { status: 503, message: error.cause.message, code: 'service_unavailable', headers: { 'Retry-After': '1' }, ofToken: false };
  return { status: 502, message: `itch.io could not verify the access token (${failureInWords(error)}) at ${apiBaseUrl}`, ofToken: false };
}
