/*
 * Checks on the browser's POST of the access token that come before any use of the token:
 * where it comes from, and reading its body within a size limit.
 */
import { parseOrigin } from './own-origin.js';

/**
 * Normalises configured origins (`https://example.com`, a trailing slash allowed).
 * @throws TypeError for anything that is not an http(s) origin.
 */
export function parseAllowedOrigins(origins: readonly string[]): Set<string> {
  if (!Array.isArray(origins)) throw new TypeError('allowedOrigins must be a list of origins such as "https://example.com"');
  return new Set(origins.map((origin) => parseOrigin(origin, 'allowedOrigins')));
}

/**
 * Why a request must be refused as cross-site, or `undefined` when it may go on.
 *
 * An `Origin` header must be the server's own origin (`own`, configured: never the request
 * URL's, which a proxy or the client sets) or one of the configured ones. A `Sec-Fetch-Site`
 * other than `same-origin` or `none` is accepted only with an `Origin` the application listed
 * itself. A request with neither header (not sent by a browser) goes on.
 *
 * @see https://fetch.spec.whatwg.org/#origin-header and https://www.w3.org/TR/fetch-metadata/
 */
export function crossSiteProblem(request: Request, own: string, configured: ReadonlySet<string> | undefined): string | undefined {
  const origin = request.headers.get('origin');
  if (origin !== null && origin !== own && configured?.has(origin) !== true) {
    return `cross-origin request refused: origin ${JSON.stringify(origin)} is not this site's (${own}) nor in allowedOrigins`;
  }
  const site = request.headers.get('sec-fetch-site');
  if (site !== null && site !== 'same-origin' && site !== 'none' && (origin === null || configured?.has(origin) !== true)) {
    return `cross-site request refused (Sec-Fetch-Site: ${site})`;
  }
  return undefined;
}

/** Whether the Content-Type is `application/json`, with or without parameters. */
export function isJsonContentType(value: string | null): boolean {
  return value !== null && value.split(';', 1)[0]?.trim().toLowerCase() === 'application/json';
}

/**
 * Reads a request body, stopping as soon as it exceeds `limit` bytes: a Content-Length above
 * the limit is refused before reading, and a body longer than it claims (or chunked, without
 * one) is cut off while streaming.
 * @returns the bytes, or `'too-large'`.
 */
export async function readBodyWithLimit(request: Request, limit: number): Promise<Uint8Array | 'too-large'> {
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > limit) return 'too-large';
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      void reader.cancel().catch(() => undefined);
      return 'too-large';
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}
