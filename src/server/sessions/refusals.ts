/*
 * The sessions' own refusals: the answers of a request without a valid credential, and of a
 * deployment that has not said what its origin is.
 */
import { missingOrigin } from '../own-origin.js';

/** The answer where the site's origin is neither configured nor loopback; the developer reads why in the log. */
export function misconfigured(): Response {
  const why = missingOrigin('createSessions');
  console.error(`itch-oauth-widget: ${why}`);
  return Response.json({ errors: [why] }, { status: 500, headers: { 'Cache-Control': 'no-store' } });
}

/** What `get` throws where the site's origin is neither configured nor loopback. */
export function noOrigin(): never {
  throw new TypeError(missingOrigin('createSessions'));
}

export function unauthorized(message: string): Response {
  // RFC 6750 section 3: a 401 names the scheme it wants.
  return Response.json({ errors: [message] }, { status: 401, headers: { 'WWW-Authenticate': 'Bearer', 'Cache-Control': 'no-store' } });
}
