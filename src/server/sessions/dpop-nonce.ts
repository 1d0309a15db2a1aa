/*
 * DPoP nonces (RFC 9449 section 9): a value the server chooses and a proof must carry, so that
 * proofs cannot be made ahead of time. A page that can use a player's key (a hostile game on
 * itch.io's shared origin, while it runs) could otherwise sign proofs dated hours ahead and send
 * them later, after it is gone (RFC 9449 section 11.2). A nonce here is the HMAC of the current
 * minute under a key derived from the sessions' secrets: every instance that shares the secrets
 * makes and accepts the same ones, with nothing stored.
 * @see https://www.rfc-editor.org/rfc/rfc9449#section-9
 * @see https://www.rfc-editor.org/rfc/rfc9449#section-11.2
 */
import { base64url } from 'jose';

/** A nonce changes every minute, and is accepted in that minute and the ones before and after it (instances' clocks differ). */
export const NONCE_PERIOD_MS = 60_000;

const encoder = new TextEncoder();
/** What a period's nonce is the HMAC of. */
const periodBytes = (period: number) => encoder.encode(`itch-oauth-widget DPoP nonce ${period}`);

/** The nonce of the last period asked for, per deployment's keys: made once a minute, not at every answer. */
const made = new WeakMap<readonly CryptoKey[], { period: number; nonce: Promise<string> }>();

/** The nonce of this moment, made with the first secret's key. */
export function currentNonce(keys: readonly CryptoKey[], now = Date.now()): Promise<string> {
  const period = Math.floor(now / NONCE_PERIOD_MS);
  const last = made.get(keys);
  if (last?.period === period) return last.nonce;
  const nonce = crypto.subtle.sign('HMAC', keys[0]!, periodBytes(period)).then((mac) => base64url.encode(new Uint8Array(mac)));
  made.set(keys, { period, nonce });
  return nonce;
}

/**
 * The nonces found valid before, by the period each belongs to, per deployment's keys: a request
 * with one of them costs no HMAC (each Web Crypto call takes tens of µs in Node). Only nonces that
 * held enter, one per period and secret, and those past use are dropped as others enter.
 */
const verified = new WeakMap<readonly CryptoKey[], Map<string, number>>();

/**
 * Whether `nonce` is one this deployment made in this minute, the one before or the one after,
 * under any of its secrets (a secret being retired still vouches for its nonces). The comparison
 * is Web Crypto's HMAC verification, in constant time.
 */
export async function nonceHolds(keys: readonly CryptoKey[], nonce: unknown, now = Date.now()): Promise<boolean> {
  if (typeof nonce !== 'string' || !/^[\w-]{43}$/.test(nonce)) return false;
  const period = Math.floor(now / NONCE_PERIOD_MS);
  let known = verified.get(keys);
  if (known === undefined) verified.set(keys, (known = new Map()));
  const seen = known.get(nonce);
  if (seen !== undefined) return Math.abs(seen - period) <= 1;
  const mac = base64url.decode(nonce) as Uint8Array<ArrayBuffer>;
  for (const key of keys)
    for (const at of [period, period - 1, period + 1]) {
      if (!(await crypto.subtle.verify('HMAC', key, mac, periodBytes(at)))) continue;
      for (const [old, itsPeriod] of known) if (itsPeriod < period - 1) known.delete(old);
      known.set(nonce, at);
      return true;
    }
  return false;
}
