/**
 * `itch-oauth-widget/server`: the typed itch.io API client, the endpoint that receives the
 * access token, the sessions it can give, and the zod schemas of itch.io's data. Runs wherever
 * `fetch` runs. Every name is listed here; what is not listed is the package's own.
 * @module
 */

// The itch.io API client.
export { createItchClient } from './itch-api/client.js';
export type { ItchClient, ItchClientOptions, DownloadKeyLookup, PurchaseLookup, WharfChannel } from './itch-api/client-types.js';
export type { ItchCredential } from './itch-api/credential.js';
export type { CallOptions, FetchFunction } from './itch-api/request.js';
export { ItchApiError, type ItchApiErrorCode } from './itch-api/errors.js';

// The token endpoint.
export {
  createTokenHandler,
  type TokenHandlerOptions,
  type LoginContext,
  type OnLoginResult,
  type Refusal,
  type SetIfAbsent,
  type RateLimitOptions,
  type ClientAddress,
} from './token-handler/index.js';
export type { OwnershipOptions, Owns } from './token-handler/ownership.js';

// Sessions.
export { createSessions, type Sessions, type SessionsOptions, type SessionCarrier } from './sessions/sessions.js';
export type { Session } from './sessions/session.js';
export { SessionStoreError } from './sessions/revocation.js';

// The schemas of itch.io's data, and their types: its resources, and the two answers the client
// returns whole (the other answers' wrappers are the client's business).
export {
  itchDateSchema,
  userSummarySchema,
  userSchema,
  credentialInfoSchema,
  downloadKeySchema,
  gameOwnershipResponseSchema,
  type UserSummary,
  type User,
  type CredentialInfo,
  type DownloadKey,
  type GameOwnershipResponse,
} from './itch-api/login-schemas.js';
export {
  earningSchema,
  gameSchema,
  purchaseSchema,
  collectionSchema,
  ownedKeySchema,
  claimedRewardSchema,
  profileOwnedKeysResponseSchema,
  type Earning,
  type Game,
  type PurchaseType,
  type Purchase,
  type Collection,
  type OwnedKey,
  type ClaimedReward,
  type ProfileOwnedKeysResponse,
} from './itch-api/schemas.js';
