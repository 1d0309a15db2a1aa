// "Log in with itch.io" on Bun's own HTTP server: the two pages, the widget's two script files,
// the token handler at /auth/itch (on the pages' origin), and the session: a cookie
// createSessions encrypts (no database), read at /me, ended at /logout.
import { createSessions, createTokenHandler } from 'itch-oauth-widget/server';

// The emulator (`npx itch-oauth-widget emulator`) by default. For the real itch.io: ITCH_BASE_URL=https://itch.io
// and your OAuth application's client id and id (https://itch.io/user/settings/oauth-apps).
const ITCH_BASE_URL = process.env.ITCH_BASE_URL ?? 'http://127.0.0.1:4824';
const ITCH_CLIENT_ID = process.env.ITCH_CLIENT_ID ?? 'emu-starfall-companion';
const ITCH_APPLICATION_ID = Number(process.env.ITCH_APPLICATION_ID ?? 7001);

// Where people reach this site, e.g. PUBLIC_ORIGIN=https://your.site behind a proxy that ends TLS.
// The pages' addresses come from it, never from the request's Host (whatever the client sent),
// and the handler accepts its Origin: a login started from an https origin gets a Secure
// __Host- cookie, though behind such a proxy the request itself is plain http.
const PORT = Number(process.env.PORT ?? 3000);
const PUBLIC_ORIGIN = new URL(process.env.PUBLIC_ORIGIN ?? `http://127.0.0.1:${PORT}`).origin;

// SESSION_SECRET encrypts the session cookies: set it in production (`openssl rand -base64 32`),
// the same on every instance, and sessions outlive restarts. Without it, a random one for this
// run only: a restart then signs everyone out.
if (!process.env.SESSION_SECRET) console.warn('SESSION_SECRET is not set: a random one for this run (a restart signs everyone out)');
/** 32 random bytes, base64. */
const randomSecret = (): string => btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));
const sessions = createSessions({ secrets: [process.env.SESSION_SECRET ?? randomSecret()], origin: PUBLIC_ORIGIN });

// Each request's client address, as the server saw it (server.requestIP), for the handler's
// per-client rate limits (docs/guides/deploy.md, "Rate limits"): it travels beside the request,
// never in a header a client could write. Behind a proxy of yours, every connection is the proxy's:
// read the header it sets.
const addresses = new WeakMap<Request, string>();

const handleToken = createTokenHandler({
  applicationId: ITCH_APPLICATION_ID, // refuses tokens itch.io issued to another application
  baseUrl: ITCH_BASE_URL,
  apiBaseUrl: ITCH_BASE_URL === 'https://itch.io' ? 'https://api.itch.io' : `${ITCH_BASE_URL}/api`,
  origin: PUBLIC_ORIGIN, // this site, as browsers see it: never taken from the request's Host
  popup: true, // the login button's mode="popup"
  clientId: ITCH_CLIENT_ID, // the popup start page starts logins of this application only,
  redirectUri: `${PUBLIC_ORIGIN}/callback.html`, // and sends itch.io this callback page only
  onLogin: sessions.onLogin, // the session cookie (HttpOnly, SameSite=Lax)
  clientAddress: (request) => addresses.get(request),
});

const pages: Record<string, URL> = {
  '/': new URL('./public/index.html', import.meta.url),
  '/callback.html': new URL('./public/callback.html', import.meta.url),
};
const scripts: Record<string, URL> = {
  '/itch-oauth.iife.js': new URL(import.meta.resolve('itch-oauth-widget/itch-oauth.iife.js')),
  '/itch-oauth-capture.iife.js': new URL(import.meta.resolve('itch-oauth-widget/itch-oauth-capture.iife.js')),
};
// The full script file's languages other than English: it loads them from locales/ beside itself.
const locales = new URL('locales/', import.meta.resolve('itch-oauth-widget/itch-oauth.iife.js'));
// The callback page's headers: no Referer to what it loads, no copy in a cache, no window that
// opened it can reach it; only this site's scripts run, it is never framed, and of Trusted Types
// only the widget's policies and Lit's are allowed (docs/concepts/security.md).
const CALLBACK_HEADERS = {
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Content-Security-Policy':
    "script-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; " +
    "require-trusted-types-for 'script'; trusted-types itch-oauth-capture itch-oauth-locale lit-html",
};

async function app(request: Request): Promise<Response> {
  const url = new URL(request.url);
  if (url.pathname === '/auth/itch') return handleToken(request);
  if (url.pathname === '/me') {
    const session = await sessions.get(request);
    return session ? Response.json(session.user) : new Response(null, { status: 401 });
  }
  // POST from the site's own pages: 204, the cookie removed; from another site, refused (403).
  if (url.pathname === '/logout') return sessions.logout(request);
  const page = pages[url.pathname];
  if (page) {
    const html = (await Bun.file(page).text())
      .replaceAll('%ITCH_CLIENT_ID%', ITCH_CLIENT_ID)
      .replaceAll('%ITCH_BASE_URL%', ITCH_BASE_URL)
      .replaceAll('%ORIGIN%', PUBLIC_ORIGIN);
    const headers = url.pathname === '/callback.html' ? CALLBACK_HEADERS : {};
    return new Response(html, { headers: { 'Content-Type': 'text/html; charset=utf-8', ...headers } });
  }
  const script = scripts[url.pathname];
  if (script) return new Response(Bun.file(script), { headers: { 'Content-Type': 'text/javascript' } });
  const locale = /^\/locales\/([\w-]+\.js)$/.exec(url.pathname);
  const localeFile = locale && Bun.file(new URL(locale[1], locales));
  if (localeFile && (await localeFile.exists())) return new Response(localeFile, { headers: { 'Content-Type': 'text/javascript' } });
  return new Response('Not found', { status: 404 });
}

const server = Bun.serve({
  port: PORT,
  hostname: '127.0.0.1',
  fetch(request, server) {
    const address = server.requestIP(request)?.address;
    if (address !== undefined) addresses.set(request, address);
    return app(request);
  },
});
console.log(`listening on ${server.url}`);
