/**
 * A credential for the itch.io API, one of the kinds of spec section 5.1, or an OAuth access
 * token (section 5.3):
 *
 * - `api-key`: `/api/1/key/...` with `Authorization: Bearer <key>`;
 * - `api-key-in-path`: `/api/1/<key>/...`, no header (the key shows in every URL: prefer `api-key`);
 * - `jwt`: `/api/1/jwt/...` with `Authorization: Bearer <token>`;
 * - `oauth`: an access token from the OAuth flow, for the `/api/...` endpoints of table B.
 *
 * @see ../shared/spec/itch-api.md sections 5.1 and 5.3
 */
export type ItchCredential =
  | { type: 'api-key'; key: string }
  | { type: 'api-key-in-path'; key: string }
  | { type: 'jwt'; token: string }
  | { type: 'oauth'; accessToken: string };

export type ItchCredentialType = ItchCredential['type'];

/** Which table of spec section 4 a credential reaches: A (server-side) or B (OAuth). */
export type EndpointTable = 'A' | 'B';

/** How requests carry a credential. */
export interface CredentialPlacement {
  type: ItchCredentialType;
  table: EndpointTable;
  /** Path prefix of every endpoint, the key URL-encoded when it is in the path. */
  pathPrefix: string;
  /** The same prefix as shown in errors, with a key in the path replaced by `KEY`. */
  endpointPrefix: string;
  /** The `Authorization` header value, when the credential travels in a header. */
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
 * @see ../shared/spec/itch-api.md section 5.1
 */
export function placeCredential(credential: ItchCredential): CredentialPlacement {
  const type: unknown = (credential as { type?: unknown } | null)?.type;
  if (typeof type !== 'string' || !(CREDENTIAL_TYPES as readonly string[]).includes(type)) {
    throw new TypeError(`credential.type must be one of ${CREDENTIAL_TYPES.map((t) => `"${t}"`).join(', ')}`);
  }
  switch (credential.type) {
    case 'api-key': {
      const key = checkSecret(credential.key, 'credential.key');
      return { type: 'api-key', table: 'A', pathPrefix: '/api/1/key', endpointPrefix: '/api/1/key', authorization: `Bearer ${key}`, secret: key };
    }
    case 'api-key-in-path': {
      const key = checkSecret(credential.key, 'credential.key');
      if (PATH_UNSAFE.test(key) || key === '.' || key === '..') {
        throw new TypeError('credential.key must not contain "/", "?", "#", "%" or "\\" when it is sent in the path');
      }
      return { type: 'api-key-in-path', table: 'A', pathPrefix: `/api/1/${key}`, endpointPrefix: '/api/1/KEY', authorization: undefined, secret: key };
    }
    case 'jwt': {
      const token = checkSecret(credential.token, 'credential.token');
      return { type: 'jwt', table: 'A', pathPrefix: '/api/1/jwt', endpointPrefix: '/api/1/jwt', authorization: `Bearer ${token}`, secret: token };
    }
    case 'oauth': {
      const token = checkSecret(credential.accessToken, 'credential.accessToken');
      return { type: 'oauth', table: 'B', pathPrefix: '/api', endpointPrefix: '/api', authorization: `Bearer ${token}`, secret: token };
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
