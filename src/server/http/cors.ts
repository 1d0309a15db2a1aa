/*
 * CORS (Fetch standard, "CORS protocol") for the answers that framed games read from another
 * origin: the token endpoint's popup collections, and the sessions' `renew`, `logout` and
 * `route`. Only listed origins, and never with credentials (cookies do not cross; a game sends
 * its token in `Authorization`, which a preflight must then allow).
 */
import { errorResponse } from './answers.js';

/** Which other origins may read an endpoint's answers, and what their preflights may ask for. */
export interface CorsPolicy {
  /** The origins, besides the site's own, whose pages may read the answers. */
  allowed: ReadonlySet<string>;
  /** `Access-Control-Allow-Methods` of a preflight's answer, e.g. `POST`. */
  methods: string;
  /** `Access-Control-Allow-Headers` of a preflight's answer, e.g. `Content-Type`. */
  headers: string;
  /** `Access-Control-Expose-Headers` of the answers, when a page must read a header of them. */
  expose?: string | undefined;
}

/**
 * The answer to a CORS preflight (`OPTIONS` with `Access-Control-Request-Method`), or
 * `undefined` when the request is not one. A preflight from an origin that is neither `own` nor
 * allowed is refused (403).
 * @see https://fetch.spec.whatwg.org/#cors-preflight-fetch
 */
export function preflight(request: Request, own: string, policy: CorsPolicy): Response | undefined {
  if (request.method !== 'OPTIONS' || !request.headers.has('access-control-request-method')) return undefined;
  const origin = request.headers.get('origin');
  if (origin === null || (origin !== own && !policy.allowed.has(origin))) {
    return errorResponse(403, 'cross-origin request refused: this origin is not in allowedOrigins', undefined, { Vary: 'Origin' });
  }
  return withCors(
    request,
    own,
    policy,
    new Response(null, {
      status: 204,
      headers: {
        'Access-Control-Allow-Methods': policy.methods,
        'Access-Control-Allow-Headers': policy.headers,
        'Access-Control-Max-Age': '600',
      },
    }),
  );
}

/**
 * The answer, readable by the request's origin when it is an allowed one (the site's own needs
 * no CORS). It always says that it varies by `Origin`, so that no cache hands one origin's
 * answer to another.
 */
export function withCors(request: Request, own: string, policy: Pick<CorsPolicy, 'allowed' | 'expose'>, response: Response): Response {
  const origin = request.headers.get('origin');
  const headers = new Headers(response.headers);
  if (!/\borigin\b/i.test(headers.get('vary') ?? '')) headers.append('Vary', 'Origin');
  if (origin !== null && origin !== own && policy.allowed.has(origin)) {
    headers.set('Access-Control-Allow-Origin', origin);
    // Beside any the answer exposes itself.
    if (policy.expose !== undefined) headers.append('Access-Control-Expose-Headers', policy.expose);
  }
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
