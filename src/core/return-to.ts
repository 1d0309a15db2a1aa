import { ItchOAuthError } from './errors.js';

// A path must start with one "/" followed by anything but another "/" or "\". Control characters
// and white space are refused outright: the URL parser drops or changes them
// (`/\t/evil.example` parses as `//evil.example`).
const SAFE_PATH = /^\/(?![/\\])[^\0- \x7f\\]*$/;
// Decoded, a path may hold spaces (`/games/my%20game`), but still no control character or "\".
// eslint-disable-next-line no-control-regex -- control characters are what it refuses
const SAFE_DECODED_PATH = /^\/(?![/\\])[^\0-\x1f\x7f\\]*$/;

/**
 * Whether `value` is a path+query on the page's own origin, also once decoded (twice, for doubly
 * encoded tricks like `/%252F%252Fevil`) and once normalised (`/.//evil` is `//evil`). Refuses
 * absolute and protocol-relative URLs, other schemes (`javascript:`), backslash tricks and
 * control characters. Never throws.
 *
 * @see RFC 9700 section 4.11 (open redirection)
 * @group Return-to paths
 */
export function isSafeReturnTo(value: string, origin: string): boolean {
  try {
    const url = new URL(value, origin);
    const decodedPath = decodeURIComponent(decodeURIComponent(value)).split('?')[0] as string;
    return (
      SAFE_PATH.test(value) && SAFE_DECODED_PATH.test(decodedPath) && SAFE_PATH.test(url.pathname) && url.origin === new URL(origin).origin
    );
  } catch {
    return false;
  }
}

/**
 * Checks where the user may be sent back to after logging in (see {@link isSafeReturnTo}).
 *
 * @param value the candidate, e.g. `/games/42?tab=saves`.
 * @param origin the page's origin, e.g. `location.origin`.
 * @returns the normalised path+query (any fragment dropped).
 * @throws ItchOAuthError `config_invalid` when refused.
 * @group Return-to paths
 */
export function assertReturnTo(value: string, origin: string): string {
  if (!isSafeReturnTo(value, origin)) {
    throw new ItchOAuthError('config_invalid', `return-to must be a same-origin path+query, got ${JSON.stringify(value.slice(0, 100))}`);
  }
  const url = new URL(value, origin);
  return url.pathname + url.search;
}

/**
 * Like {@link assertReturnTo} but answers `fallback` instead of throwing.
 * @group Return-to paths
 */
export function safeReturnTo(value: string | null | undefined, origin: string, fallback = '/'): string {
  return value && isSafeReturnTo(value, origin) ? assertReturnTo(value, origin) : fallback;
}
