import type { MiddlewareHandler } from 'hono';
import { satisfies } from '../core/scopes.js';
import { API_ERRORS, ApiError, scopeDeniedMessage } from './api-error.js';
import type { ApiKeyRecord, JwtRecord, OAuthApplicationRecord, UserRecord } from './seed.js';
import type { EmulatorStore } from './store.js';

/** The credential a request was authenticated with, and whom it acts for. */
export type Credential =
  | {
      type: 'key';
      user: UserRecord;
      record: ApiKeyRecord;
      /** Set for access tokens issued by the OAuth flow. */
      application: OAuthApplicationRecord | undefined;
    }
  | { type: 'jwt'; user: UserRecord; record: JwtRecord };

/** Hono environment of the API routes: the credential the request was authenticated with. */
export type ApiEnv = { Variables: { credential: Credential } };

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/**
 * The token of an `Authorization: Bearer <token>` header (RFC 6750 section 2.1), or undefined
 * when the header is absent or uses another scheme.
 */
export function bearerToken(header: string | undefined): string | undefined {
  return /^Bearer +([A-Za-z0-9._~+/-]+=*) *$/i.exec(header ?? '')?.[1];
}

/**
 * An API key (personal, or an OAuth access token) that exists and is not revoked.
 * @throws ApiError 401 `authentication required` when absent, `invalid key` when unknown or revoked.
 */
export function authenticateApiKey(store: EmulatorStore, key: string | undefined): Credential {
  if (key === undefined || key === '') throw new ApiError(401, API_ERRORS.authenticationRequired);
  const record = store.activeApiKey(key);
  const user = record === undefined ? undefined : store.user(record.user_id);
  if (record === undefined || user === undefined) throw new ApiError(401, API_ERRORS.invalidKey);
  const application = record.oauth_application_id === undefined ? undefined : store.application(record.oauth_application_id);
  return { type: 'key', user, record, application };
}

/**
 * A JWT that exists and has not expired (it is refused from its `expires_at` on).
 * @throws ApiError 401 `authentication required`, `invalid jwt` or `jwt expired`.
 * @see https://itch.io/docs/api/serverside
 */
export function authenticateJwt(store: EmulatorStore, token: string | undefined): Credential {
  if (token === undefined || token === '') throw new ApiError(401, API_ERRORS.authenticationRequired);
  const record = store.jwt(token);
  const user = record === undefined ? undefined : store.user(record.user_id);
  if (record === undefined || user === undefined) throw new ApiError(401, API_ERRORS.invalidJwt);
  if (store.now().getTime() >= record.expires_at.getTime()) throw new ApiError(401, API_ERRORS.expiredJwt);
  return { type: 'jwt', user, record };
}

/** A Bearer token of either kind: JWT-shaped values are checked as JWTs, others as API keys. */
export function authenticateBearer(store: EmulatorStore, token: string | undefined): Credential {
  return token !== undefined && JWT_SHAPE.test(token) ? authenticateJwt(store, token) : authenticateApiKey(store, token);
}

/** The scopes a credential carries; `undefined` for an unscoped API key (which reaches every endpoint). */
export function credentialScopes(credential: Credential): string[] | undefined {
  return credential.record.scopes === undefined ? undefined : [...credential.record.scopes];
}

/**
 * Checks that the credential reaches an endpoint guarded by `scope`: unscoped keys always do,
 * others when one of their scopes includes it (a scope includes its subscopes).
 * @throws ApiError 403 ``api key does not permit `<scope>` ``.
 * @see https://itch.io/docs/api/oauth
 */
export function requireScope(credential: Credential, scope: string): void {
  const scopes = credentialScopes(credential);
  if (scopes !== undefined && !satisfies(scopes, scope)) {
    throw new ApiError(403, scopeDeniedMessage(credential.type, scope));
  }
}

/** Route middleware: {@link requireScope} on the request's credential. */
export function scoped(scope: string): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    requireScope(c.get('credential'), scope);
    await next();
  };
}

/**
 * The credential information both API families answer with: `type`, `scopes` (empty for an
 * unscoped key), `oauth_application_id` for OAuth access tokens, `expires_at` for JWTs.
 * @see https://itch.io/docs/api/serverside
 * @see https://github.com/itchio/itch.io/issues/1664 (a real answer with `oauth_application_id`)
 */
export function credentialInfo(credential: Credential, formatDate: (date: Date) => string): Record<string, unknown> {
  const scopes = credentialScopes(credential) ?? [];
  if (credential.type === 'jwt') {
    return { type: 'jwt', scopes, expires_at: formatDate(credential.record.expires_at) };
  }
  return {
    type: 'key',
    scopes,
    ...(credential.application === undefined ? {} : { oauth_application_id: credential.application.id }),
  };
}
