/*
 * CORS (Fetch standard, "CORS protocol") for the answers that framed games read from another
 * origin: only the `allowedOrigins`, and never with credentials (cookies do not cross; a game
 * sends its token in `Authorization`, which a preflight must allow).
 */

/**
 * The answer to a CORS preflight (`OPTIONS` with `Access-Control-Request-Method`), or
 * `undefined` when the request is not one.
 * @see https://fetch.spec.whatwg.org/#cors-preflight-fetch
 */
export function preflight(request: Request, allowed: ReadonlySet<string>): Response | undefined {
  if (request.method !== 'OPTIONS' || !request.headers.has('access-control-request-method')) return undefined;
  const origin = request.headers.get('origin');
  if (origin === null || !allowed.has(origin)) {
    return Response.json(
      { errors: ['cross-origin request refused: this origin is not in allowedOrigins'] },
      { status: 403, headers: { Vary: 'Origin' } },
    );
  }
  return new Response(null, {
    status: 204,
    headers: {
      'Access-Control-Allow-Origin': origin,
      'Access-Control-Allow-Methods': 'GET, HEAD, POST, PUT, PATCH, DELETE',
      'Access-Control-Allow-Headers': 'Authorization, Content-Type',
      'Access-Control-Max-Age': '600',
      Vary: 'Origin',
    },
  });
}

/** The answer, readable by the request's origin when it is an allowed one. */
export function withCors(request: Request, allowed: ReadonlySet<string>, own: string, response: Response): Response {
  const origin = request.headers.get('origin');
  const headers = new Headers(response.headers);
  headers.append('Vary', 'Origin');
  if (origin !== null && allowed.has(origin) && origin !== own) headers.set('Access-Control-Allow-Origin', origin);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
