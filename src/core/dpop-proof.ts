/*
 * The game's DPoP key and proofs (RFC 9449), by hand with Web Crypto: a few lines instead of a JOSE
 * library in the script-tag files. The key pair is ECDSA P-256 and not extractable: a script of
 * this origin (every game on itch.io's shared one) can have it sign while it runs here, but can
 * never take the private key away, so a game token copied out of storage is useless elsewhere.
 * It is kept as a `CryptoKeyPair` in IndexedDB (which stores keys without exporting them) so that
 * a reload keeps the login; where IndexedDB is refused, in memory for the page's life.
 */
import { base64url, createState, sha256Base64url } from './state.js';

/** A DPoP key pair: ES256, the private key not extractable. */
export function newKeyPair(): Promise<CryptoKeyPair> {
  return crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign']) as Promise<CryptoKeyPair>;
}

const part = (value: object) => base64url(new TextEncoder().encode(JSON.stringify(value)));

/**
 * A DPoP proof (RFC 9449 section 4.2) of a request: `typ: dpop+jwt`, `alg: ES256` and the public
 * `jwk` in its header; `htm` the method, `htu` the URL without query and fragment, `iat` (this
 * page's clock moved by `skew` seconds, the server's as the last game token told it), a random
 * `jti` (256 bits), `ath` the hash of `token` when one is presented, and the server's `nonce`
 * (RFC 9449 section 9) when it gave one. Web Crypto's ECDSA
 * signature is the raw `r || s` that JWS wants (RFC 7518 section 3.4).
 */
export async function dpopProof(
  keys: CryptoKeyPair,
  method: string,
  url: string,
  token?: string,
  skew = 0,
  nonce?: string,
): Promise<string> {
  const { kty, crv, x, y } = await crypto.subtle.exportKey('jwk', keys.publicKey);
  const input =
    part({ typ: 'dpop+jwt', alg: 'ES256', jwk: { kty, crv, x, y } }) +
    '.' +
    part({
      htm: method,
      htu: url.replace(/[?#].*/, ''),
      iat: Math.floor(Date.now() / 1000 + skew),
      jti: createState(),
      ath: token ? await sha256Base64url(token) : undefined,
      nonce,
    });
  const signature = await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, keys.privateKey, new TextEncoder().encode(input));
  return input + '.' + base64url(new Uint8Array(signature));
}

/**
 * One step on the key store (IndexedDB `itch-oauth-widget`, object store `keys`): its result, or
 * `undefined` where IndexedDB is missing, refused (some browsers in a third-party frame or a
 * private window) or fails. Writes resolve once their transaction completes.
 */
export function keyStore<T>(step: (keys: IDBObjectStore) => IDBRequest<T>, write?: boolean): Promise<T | undefined> {
  return new Promise((resolve) => {
    const fail = () => resolve(undefined);
    try {
      const open = indexedDB.open('itch-oauth-widget');
      open.onupgradeneeded = () => open.result.createObjectStore('keys');
      open.onerror = open.onblocked = fail;
      open.onsuccess = () => {
        const db = open.result;
        try {
          const transaction = db.transaction('keys', write ? 'readwrite' : 'readonly');
          const request = step(transaction.objectStore('keys'));
          transaction.oncomplete = () => resolve(request.result);
          transaction.onerror = transaction.onabort = fail;
        } catch {
          fail();
        }
        db.close();
      };
    } catch {
      fail();
    }
  });
}
