/**
 * A credential for the itch.io API:
 *
 * - `api-key`: a key from the account's API keys page. `Authorization: Bearer <key>`, on the
 *   current API (`https://api.itch.io/…`) and on the legacy `/api/1/key/…`;
 * - `api-key-in-path`: the same key in the legacy path `/api/1/<key>/…`, no header (the key shows
 *   in every URL: prefer `api-key`); legacy endpoints only;
 * - `jwt`: the token the itch app hands a game that asks for API scopes in its manifest, as a
 *   Bearer header on the current API and on `/api/1/jwt/…`;
 * - `oauth`: an access token from the OAuth flow, as a Bearer header on the current API.
 *
 * @see https://itch.io/docs/api/serverside
 * @see https://itch.io/docs/api/oauth
 * @group itch.io API client
 */
export type ItchCredential =
  | { type: 'api-key'; key: string }
  | { type: 'api-key-in-path'; key: string }
  | { type: 'jwt'; token: string }
  | { type: 'oauth'; accessToken: string };

/** @group itch.io API client */
export type ItchCredentialType = ItchCredential['type'];

/** How requests carry a credential. */
export interface CredentialPlacement {
  type: ItchCredentialType;
  /**
   * Path prefix on the legacy API (`/api/1/key`, `/api/1/<key>`, `/api/1/jwt`); `undefined` for
   * an OAuth token, which the legacy API does not take.
   */
  legacyPrefix: string | undefined;
  /** The same prefix as shown in errors, with a key in the path replaced by `KEY`. */
  legacyEndpointPrefix: string | undefined;
  /**
   * The `Authorization` header value; `undefined` for a key in the path, which the current API
   * does not take.
   */
  authorization: string | undefined;
  /** The secret itself, only to redact it from text that might echo it. */
  secret: string;
}

const CREDENTIAL_TYPES: readonly ItchCredentialType[] = ['api-key', 'api-key-in-path', 'jwt', 'oauth'];
/** Visible ASCII: what an `Authorization` header value and a key can hold. */
const VISIBLE_ASCII = /^[\x21-\x7e]+$/;
/** Characters that would change the meaning of a URL path. */
const PATH_UNSAFE = /[/?#%\\]/;
const MAX_SECRET_LENGTH = 4096;

/**
 * Checks a credential and tells how requests carry it. Messages name the problem, never the
 * secret.
 * @throws TypeError for an unknown kind, or a secret that is empty, too long, holds whitespace
 *   or control characters, or (in the path) `/`, `?`, `#`, `%` or `\`.
 * @see https://itch.io/docs/api/serverside
 */
export function placeCredential(credential: ItchCredential): CredentialPlacement {
  const type: unknown = (credential as { type?: unknown } | null)?.type;
  if (typeof type !== 'string' || !(CREDENTIAL_TYPES as readonly string[]).includes(type)) {
    throw new TypeError(`credential.type must be one of ${CREDENTIAL_TYPES.map((t) => `"${t}"`).join(', ')}`);
  }
  switch (credential.type) {
    case 'api-key': {
      const key = checkSecret(credential.key, 'credential.key');
      return {
        type: 'api-key',
        legacyPrefix: '/api/1/key',
        legacyEndpointPrefix: '/api/1/key',
        authorization: `Bearer ${key}`,
        secret: key,
      };
    }
    case 'api-key-in-path': {
      const key = checkSecret(credential.key, 'credential.key');
      if (PATH_UNSAFE.test(key) || key === '.' || key === '..') {
        throw new TypeError('credential.key must not contain "/", "?", "#", "%" or "\\" when it is sent in the path');
      }
      return {
        type: 'api-key-in-path',
        legacyPrefix: `/api/1/${key}`,
        legacyEndpointPrefix: '/api/1/KEY',
        authorization: undefined,
        secret: key,
      };
    }
    case 'jwt': {
      const token = checkSecret(credential.token, 'credential.token');
      return {
        type: 'jwt',
        legacyPrefix: '/api/1/jwt',
        legacyEndpointPrefix: '/api/1/jwt',
        authorization: `Bearer ${token}`,
        secret: token,
      };
    }
    case 'oauth': {
      const token = checkSecret(credential.accessToken, 'credential.accessToken');
      return { type: 'oauth', legacyPrefix: undefined, legacyEndpointPrefix: undefined, authorization: `Bearer ${token}`, secret: token };
    }
  }
}

function checkSecret(value: unknown, name: string): string {
  if (typeof value !== 'string' || value === '') throw new TypeError(`${name} must be a non-empty string`);
  if (value.length > MAX_SECRET_LENGTH) throw new TypeError(`${name} is longer than ${MAX_SECRET_LENGTH} characters`);
  if (!VISIBLE_ASCII.test(value)) throw new TypeError(`${name} must be visible ASCII, without whitespace or control characters`);
  return value;
}

/** Replaces every occurrence of the secret in a text that may echo it (e.g. an upstream message). */
export function redactSecret(text: string, secret: string): string {
  return text.split(secret).join('KEY');
}
