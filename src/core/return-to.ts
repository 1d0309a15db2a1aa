import { ItchOAuthError } from './errors.js';

// Control characters and white space are dropped or changed by the URL parser
// (`/\t/evil.example` parses as `//evil.example`), so any of them is refused outright.
const UNSAFE_CHARS = /[\x00-\x20\x7f\\]/;

/**
 * Checks where the user may be sent back to after logging in: only a path+query on the page's
 * own origin. Refuses absolute and protocol-relative URLs (`https://evil.example`,
 * `//evil.example`), other schemes (`javascript:`), backslash tricks (`/\evil.example`), control
 * characters, and their percent-encoded variants. Drops any fragment.
 *
 * @param value the candidate, e.g. `/games/42?tab=saves`.
 * @param origin the page's origin, e.g. `location.origin`.
 * @returns the normalised path+query.
 * @throws ItchOAuthError `config_invalid` when refused.
 * @see RFC 9700 section 4.11 (open redirection)
 */
export function assertReturnTo(value: string, origin: string): string {
  const refuse = (reason: string) =>
    new ItchOAuthError('config_invalid', `return-to must be a same-origin path: ${JSON.stringify(value.slice(0, 100))} ${reason}`);

  let decoded = value;
  try {
    // Decode twice so doubly encoded tricks (`/%252F%252Fevil`) are checked too.
    decoded = decodeURIComponent(decodeURIComponent(value));
  } catch {
    throw refuse('has a bad percent-escape');
  }
  if (UNSAFE_CHARS.test(value)) throw refuse('has a backslash, white space or a control character');
  // The path as a server or router will see it once decoded must not become another origin.
  const decodedPath = decoded.split('?')[0] ?? '';
  for (const candidate of [value, decodedPath]) {
    if (!candidate.startsWith('/')) throw refuse('does not start with "/"');
    if (candidate.startsWith('//')) throw refuse('is protocol-relative');
    if (UNSAFE_CHARS.test(candidate)) throw refuse('has an encoded backslash, white space or control character');
  }
  const url = new URL(value, origin);
  const result = url.pathname + url.search;
  // Dot segments can collapse into a protocol-relative path (`/.//evil.example` is `//evil.example`).
  if (url.origin !== new URL(origin).origin || result.startsWith('//')) throw refuse('leaves the origin');
  return result;
}

/** Like {@link assertReturnTo} but answers `fallback` instead of throwing. */
export function safeReturnTo(value: string | null | undefined, origin: string, fallback = '/'): string {
  if (value == null || value === '') return fallback;
  try {
    return assertReturnTo(value, origin);
  } catch {
    return fallback;
  }
}
