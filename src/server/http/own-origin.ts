/*
 * The server's own origin: the origin the browser reaches it at, which decides what counts as
 * same-origin, which name a session or binding cookie has (`__Host-` on https), where a popup
 * login may be opened from, and the issuer and audience of game tokens.
 *
 * It comes from configuration (`origin`, e.g. `https://example.com`), never from the request:
 * behind a TLS-ending proxy `request.url` is `http://<whatever Host the client sent>`, so a
 * request could choose the scheme (and with it the cookie's name) and the host it is judged by.
 * Without `origin`, only a request on a loopback address (local development) is served: its own
 * URL's origin is then taken, as a browser on this machine sees it. Anywhere else the server
 * does not guess; it refuses, naming the option. That address comes from the request's `Host`,
 * so a client can name a loopback one: the fallback is for a machine no one else reaches, and
 * the first request it serves says so in the log.
 */

/** Whether an origin's host is this machine (127.0.0.0/8, ::1, localhost): plain http is then local development. */
export function isLoopbackOrigin(origin: string): boolean {
  const host = URL.canParse(origin) ? new URL(origin).hostname : '';
  return /^127(\.\d{1,3}){3}$/.test(host) || host === '[::1]' || host === 'localhost' || host.endsWith('.localhost');
}

/**
 * Checks a configured origin (`https://example.com`, a trailing slash allowed).
 * @throws TypeError naming `option` for anything that is not an http(s) origin.
 */
export function parseOrigin(value: unknown, option: string): string {
  const bare = typeof value === 'string' ? value.replace(/\/$/, '') : '';
  if (!URL.canParse(bare) || new URL(bare).origin !== bare || !/^https?:$/.test(new URL(bare).protocol)) {
    throw new TypeError(`${option}: ${JSON.stringify(value)} is not an http(s) origin such as "https://example.com"`);
  }
  return bare;
}

/**
 * The own origin of each request: the configured one, or, without one, the request URL's origin
 * when it is on loopback; `undefined` otherwise (the caller refuses, see {@link missingOrigin}).
 */
export type OwnOrigin = (request: Request) => string | undefined;

/** The {@link OwnOrigin} of a configured `origin` (checked), or of local development without one. */
export function ownOrigin(configured: unknown, factory: string): OwnOrigin {
  if (configured !== undefined) {
    const origin = parseOrigin(configured, 'origin');
    return () => origin;
  }
  let warned = false;
  return (request) => {
    const { origin } = new URL(request.url);
    if (!isLoopbackOrigin(origin)) return undefined;
    // "Loopback" is what the request's address says, which the client's Host header makes: a
    // deployment others can reach must not rely on it. Said once, where the developer looks.
    if (!warned) {
      warned = true;
      console.warn(
        `itch-oauth-widget: ${factory} has no origin option: serving ${origin} as local development. Set origin in any deployment others can reach.`,
      );
    }
    return origin;
  };
}

/** Why a request was refused for want of `origin`, for the developer. */
export function missingOrigin(factory: string): string {
  return (
    `${factory} has no origin option, and this request is not on a loopback address: set origin to the site's public ` +
    `origin as the browser sees it (e.g. origin: 'https://example.com'). It is never taken from the request, whose ` +
    `address a proxy or the client sets.`
  );
}
