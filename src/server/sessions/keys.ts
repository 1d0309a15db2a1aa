/*
 * The keys of a deployment, derived from its secrets alone, so that every instance that shares
 * the secrets has the same keys without any key file or key exchange: for each secret, an
 * AES-256-GCM key that encrypts site-session cookies and an Ed25519 key pair that signs game
 * tokens. The first secret encrypts and signs; all of them decrypt and verify (rotation).
 */
import { base64url, calculateJwkThumbprint, type JWK } from 'jose';

/** The shortest secret accepted: 32 characters, at least 256 bits for a random base64 or hex secret. */
export const MIN_SECRET_LENGTH = 32;

/** A key that encrypts and decrypts site-session cookies (JWE `dir` + `A256GCM`). */
export interface CookieKey {
  /** Names the key in the JWE header: derived from the secret, so it says nothing about the key. */
  kid: string;
  key: CryptoKey;
}

/** A key pair that signs and verifies game tokens (JWS `EdDSA`, Ed25519). */
export interface SigningKey {
  /** The RFC 7638 thumbprint of the public key. */
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  /** The public key as served by `jwks()`: no private part. */
  jwk: JWK;
}

export interface DeploymentKeys {
  /** In the order of the secrets: the first one encrypts. */
  cookie: CookieKey[];
  /** In the order of the secrets: the first one signs. */
  signing: SigningKey[];
  /** HMAC-SHA256 keys of the DPoP nonces (./dpop-nonce.ts), in the order of the secrets: the first one makes them. */
  nonce: CryptoKey[];
}

/**
 * Checks the `secrets` option: a non-empty list of strings of at least 32 characters.
 * @throws TypeError naming the position of a bad secret, never its value.
 */
export function assertSecrets(secrets: unknown): readonly string[] {
  if (!Array.isArray(secrets) || secrets.length === 0) {
    throw new TypeError('secrets must be a non-empty list of strings of at least 32 characters (e.g. 32 random bytes in base64)');
  }
  secrets.forEach((secret: unknown, index) => {
    if (typeof secret !== 'string' || secret.length < MIN_SECRET_LENGTH) {
      throw new TypeError(`secrets[${index}] must be a string of at least ${MIN_SECRET_LENGTH} characters`);
    }
  });
  return [...(secrets as string[])];
}

/** Derives the keys of every secret, in order. */
export async function deriveKeys(secrets: readonly string[]): Promise<DeploymentKeys> {
  const derived = await Promise.all(secrets.map(deriveSecretKeys));
  return {
    cookie: derived.map((keys) => keys.cookie),
    signing: derived.map((keys) => keys.signing),
    nonce: derived.map((keys) => keys.nonce),
  };
}

const encoder = new TextEncoder();
/** HKDF's salt (RFC 5869 section 3.1): fixed, naming the application; the secret is the entropy. */
const SALT = encoder.encode('itch-oauth-widget sessions');

/**
 * The keys of one secret. Each use has its own HKDF `info` label (RFC 5869 section 3.2), so the
 * cookie key, the cookie key id and the signing key are independent of each other.
 */
async function deriveSecretKeys(secret: string): Promise<{ cookie: CookieKey; signing: SigningKey; nonce: CryptoKey }> {
  const material = await crypto.subtle.importKey('raw', encoder.encode(secret), 'HKDF', false, ['deriveBits']);
  const bits = async (info: string, length: number) =>
    new Uint8Array(
      await crypto.subtle.deriveBits({ name: 'HKDF', hash: 'SHA-256', salt: SALT, info: encoder.encode(info) }, material, length),
    );

  const cookieKey = await crypto.subtle.importKey('raw', await bits('cookie A256GCM key', 256), 'AES-GCM', false, ['encrypt', 'decrypt']);
  const cookieKid = base64url.encode(await bits('cookie key id', 72));
  const nonce = await crypto.subtle.importKey(
    'raw',
    await bits('DPoP nonce HMAC-SHA256 key', 256),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign', 'verify'],
  );
  return {
    cookie: { kid: cookieKid, key: cookieKey },
    signing: await ed25519FromSeed(await bits('game token Ed25519 seed', 256)),
    nonce,
  };
}

/**
 * An Ed25519 key pair from a 32-byte seed. Any 32 bytes are a valid Ed25519 private key
 * (RFC 8032 section 5.1.5), which is why Ed25519 rather than ES256 (whose private scalar would
 * need reducing modulo the curve order): Web Crypto imports the seed as PKCS #8 and computes the
 * public key itself. The PKCS #8 wrapping of an Ed25519 seed is a fixed 16-byte prefix
 * (RFC 8410 section 7).
 */
async function ed25519FromSeed(seed: Uint8Array): Promise<SigningKey> {
  const pkcs8 = new Uint8Array([...PKCS8_ED25519_PREFIX, ...seed]);
  const privateKey = await crypto.subtle.importKey('pkcs8', pkcs8, { name: 'Ed25519' }, true, ['sign']);
  const { kty, crv, x } = (await crypto.subtle.exportKey('jwk', privateKey)) as JWK;
  const publicJwk: JWK = { kty: kty!, crv: crv!, x: x! };
  const publicKey = await crypto.subtle.importKey('jwk', publicJwk as JsonWebKey, { name: 'Ed25519' }, true, ['verify']);
  // The private key is only needed to sign: a non-extractable copy, so nothing can export it later.
  const signOnly = await crypto.subtle.importKey('pkcs8', pkcs8, { name: 'Ed25519' }, false, ['sign']);
  pkcs8.fill(0);
  const kid = await calculateJwkThumbprint(publicJwk, 'sha256');
  return { kid, privateKey: signOnly, publicKey, jwk: { ...publicJwk, kid, alg: 'EdDSA', use: 'sig' } };
}

/** SEQUENCE { INTEGER 0, SEQUENCE { OID 1.3.101.112 }, OCTET STRING { OCTET STRING (32 bytes) } }. */
const PKCS8_ED25519_PREFIX = [0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20];
