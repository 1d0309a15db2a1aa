/*
 * The site session's cookie: the session's claims encrypted and authenticated as a JWE
 * (RFC 7516, `dir` + `A256GCM`: one AES-256-GCM key, no key wrapping), so that the browser
 * holds the session and no server keeps anything; and the rules on when a cookie counts.
 */
import { EncryptJWT, jwtDecrypt, type JWTPayload } from 'jose';
import { parse as parseCookies, serialize as serializeCookie } from 'hono/utils/cookie';
import type { CookieKey } from './keys.js';
import { isSessionClaims, type SessionClaims } from './session.js';

/**
 * On https: the `__Host-` prefix makes the browser refuse the cookie unless it is `Secure`, has
 * `Path=/` and no `Domain`, so no sibling subdomain and no plain-http page can plant or overwrite
 * it (RFC 6265bis section 4.1.3.2).
 */
export const SECURE_COOKIE = '__Host-itch-session';
/**
 * On an http site (local development): browsers refuse `Secure` cookies there, and with it
 * `__Host-`. Never issued nor read for an https site, where anyone who can toss a cookie (a
 * sibling subdomain, another port, a plain-http response) could plant it.
 */
export const PLAIN_COOKIE = 'itch-session';

/** What the cookie holds: the session, whether it was set as `__Host-`, and the access token with `keepToken`. */
export interface CookieClaims extends SessionClaims {
  /** Set as `__Host-itch-session`: such a session is refused under the plain name, where anyone could plant it. */
  host: boolean;
  /** The itch.io access token, only with `keepToken`. Encrypted with the rest. */
  itch_token?: string;
}

/** A JWE `cty`/`typ` of its own, so that no other JWT of the deployment passes for a cookie (RFC 8725 section 3.11). */
const COOKIE_TYPE = 'itch-session+jwt';

/** Encrypts the claims with the first key: a fresh random IV every time, so every login's value is new. */
export async function sealCookie(claims: CookieClaims, keys: readonly CookieKey[]): Promise<string> {
  const { kid, key } = keys[0]!;
  return new EncryptJWT(claims as unknown as JWTPayload)
    .setProtectedHeader({ alg: 'dir', enc: 'A256GCM', kid, typ: COOKIE_TYPE })
    .encrypt(key);
}

/**
 * The claims of a cookie value, if one of the keys decrypts and authenticates it, it has not
 * expired, its `iat` is not in the future (beyond `clockTolerance` seconds), it is no older than
 * `maxAge`, and it was set under the name it came with. Anything else, including a value made
 * with a secret no longer listed, is `undefined`; jose's error, which holds the payload, is dropped.
 */
export async function openCookie(
  value: string,
  keys: readonly CookieKey[],
  options: { host: boolean; maxAge: number; clockTolerance: number },
): Promise<CookieClaims | undefined> {
  try {
    const { payload } = await jwtDecrypt(
      value,
      (header) => {
        const match = keys.find((candidate) => candidate.kid === header.kid);
        if (match === undefined) throw new Error('unknown key');
        return match.key;
      },
      {
        keyManagementAlgorithms: ['dir'],
        contentEncryptionAlgorithms: ['A256GCM'],
        typ: COOKIE_TYPE,
        maxTokenAge: options.maxAge,
        clockTolerance: options.clockTolerance,
        requiredClaims: ['exp', 'iat', 'sid'],
      },
    );
    if (!isSessionClaims(payload) || payload['host'] !== options.host) return undefined;
    const token = payload['itch_token'];
    if (token !== undefined && typeof token !== 'string') return undefined;
    return payload as unknown as CookieClaims;
  } catch {
    return undefined;
  }
}

/**
 * The session cookie a request carries under the one name the site uses: `__Host-itch-session`
 * on an https site (`host`), `itch-session` on an http one. The other name is never read.
 */
export function readCookie(request: Request, host: boolean): string | undefined {
  const header = request.headers.get('cookie');
  return header === null ? undefined : parseCookies(header)[host ? SECURE_COOKIE : PLAIN_COOKIE];
}

/** The `Set-Cookie` of a new session: `HttpOnly`, `SameSite=Lax`, `Path=/`, `Max-Age`, and `__Host-` + `Secure` on https. */
export function sessionCookie(value: string, host: boolean, maxAge: number): string {
  return host
    ? serializeCookie(SECURE_COOKIE, value, { path: '/', secure: true, httpOnly: true, sameSite: 'Lax', maxAge })
    : serializeCookie(PLAIN_COOKIE, value, { path: '/', httpOnly: true, sameSite: 'Lax', maxAge });
}

/**
 * The `Set-Cookie`s that remove the site's session cookie and every plain one this response can
 * reach (RFC 6265bis section 5.7: `Max-Age=0` expires it at once): host-only, and one per
 * `Domain` the site's host may set (itself and each parent), where a sibling subdomain would
 * have planted one. A plain cookie on another path, or planted for a parent domain that is a
 * public suffix, cannot be reached from here; on an https site it is never read either.
 */
export function clearingCookies(origin: string): string[] {
  const { hostname, protocol } = new URL(origin);
  const host = protocol === 'https:';
  const cookies = [sessionCookie('', host, 0)];
  if (host) cookies.push(sessionCookie('', false, 0));
  const labels = hostname.split('.');
  if (!/^[\d.]+$|^\[/.test(hostname)) {
    for (let at = 0; at < labels.length - 1; at++) {
      cookies.push(
        serializeCookie(PLAIN_COOKIE, '', { path: '/', domain: labels.slice(at).join('.'), httpOnly: true, sameSite: 'Lax', maxAge: 0 }),
      );
    }
  }
  return cookies;
}

/** Methods that change nothing (RFC 9110 section 9.2.1): a cookie counts on them whatever the origin. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Whether a cookie may count for this request. `SameSite=Lax` already keeps the cookie off
 * cross-site subrequests, but browsers send it on a cross-site top-level form POST for two minutes
 * after it is set (Chrome's "Lax+POST"), and "same-site" includes sibling subdomains and, in
 * some browsers, the site's plain-http twin. So on a method that may change something, the
 * request must be same-origin: when the browser sends Fetch Metadata, `Sec-Fetch-Site:
 * same-origin` decides; else its `Origin` must be the site's configured origin (`own`, never
 * the request URL's, which a proxy or the client sets). A request with neither header (not a
 * browser's) is refused too: it has no CSRF to fear, but also no reason to carry the cookie.
 *
 * @see https://datatracker.ietf.org/doc/html/draft-ietf-httpbis-rfc6265bis#section-8.8
 * @see https://www.w3.org/TR/fetch-metadata/
 */
export function cookieMayCount(request: Request, own: string): boolean {
  if (SAFE_METHODS.has(request.method)) return true;
  const site = request.headers.get('sec-fetch-site');
  const origin = request.headers.get('origin');
  if (site !== null) return site === 'same-origin' && (origin === null || origin === own);
  return origin === own;
}
