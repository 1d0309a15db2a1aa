/**
 * `itch-oauth-widget/server`: the typed itch.io API client, the endpoint that receives the
 * access token, the zod schemas of the API, and the scope helpers. Runs wherever `fetch` runs.
 */
export { createItchClient, DEFAULT_TIMEOUT_MS, DEFAULT_API_BASE_URL } from './itch-api/client.js';
export type { WharfChannel, ItchClient, ItchClientOptions, DownloadKeyLookup, PurchaseLookup } from './itch-api/client-types.js';
export type { ItchCredential, ItchCredentialType } from './itch-api/credential.js';
export type { CallOptions, FetchFunction } from './itch-api/request.js';
export { ItchApiError, type ItchApiErrorCode, type ItchApiErrorInit } from './itch-api/errors.js';
export {
  createTokenHandler,
  DEFAULT_MAX_BODY_BYTES,
  type TokenHandlerOptions,
  type LoginContext,
  type Refusal,
  type OnLoginResult,
  type SetIfAbsent,
  DEFAULT_RATE_LIMITS,
  type RateLimitOptions,
  type ClientAddress,
} from './token-handler/index.js';
export { OWNERSHIP_SCOPE, type OwnershipOptions, type Owns } from './token-handler/ownership.js';
export * from './itch-api/schemas.js';
export { ITCH_SCOPES, parseScopes, isKnownScope, scopeIncludes, satisfies, missingScopes, type ItchScope } from '../core/scopes.js';
export { createSessions, type Sessions, type SessionsOptions, type SessionCarrier } from './sessions/sessions.js';
export type { Session } from './sessions/session.js';
export { SessionStoreError } from './sessions/revocation.js';
