/*
 * The claims of cookies and game tokens this instance has already decrypted or verified, by
 * their exact value: a user's browser sends the same cookie with every request, and decrypting
 * it again costs a Web Crypto call each time. A changed character is another key, so a tampered
 * value is never found here; expiry is checked again at every hit, revocation by the caller.
 */
import { boundedCache } from '../bounded-cache.js';
import type { SessionClaims } from './session.js';

/** At most this many values: about 1 KiB each, some megabytes in all. */
const MAX_ENTRIES = 5000;

export interface VerifiedCache<Claims extends SessionClaims> {
  /** The claims of a value verified before, if it has not expired since. */
  get(value: string): Claims | undefined;
  set(value: string, claims: Claims): void;
}

export function createVerifiedCache<Claims extends SessionClaims>(): VerifiedCache<Claims> {
  const cache = boundedCache<Claims>(MAX_ENTRIES);
  return {
    get(value) {
      const claims = cache.get(value);
      if (claims === undefined) return undefined;
      if (claims.exp * 1000 <= Date.now()) {
        cache.delete(value);
        return undefined;
      }
      return claims;
    },
    set(value, claims) {
      cache.set(value, claims);
    },
  };
}
