// A Hono site with "Log in with itch.io" on Node: the two pages, the widget's two script files,
// the token handler at /auth/itch (on the pages' origin), and the session: a cookie
// createSessions encrypts (no database), read at /me, ended at /logout.
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { serve } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { Hono } from 'hono';
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
const sessions = createSessions({ secrets: [process.env.SESSION_SECRET ?? randomBytes(32).toString('base64')], origin: PUBLIC_ORIGIN });

// Each request's client address, as the server's socket saw it (Hono's getConnInfo), for the
// handler's per-client rate limits (docs/guides/deploy.md, "Rate limits"): it travels beside the
// request, never in a header a client could write. Behind a proxy of yours, every socket is the
// proxy's: read the header it sets.
const addresses = new WeakMap();

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

const app = new Hono();
app.all('/auth/itch', (c) => {
  addresses.set(c.req.raw, getConnInfo(c).remote.address);
  return handleToken(c.req.raw);
});

app.get('/me', async (c) => {
  const session = await sessions.get(c.req.raw);
  return session ? c.json(session.user) : c.body(null, 401);
});
// POST from the site's own pages: 204, the cookie removed; from another site, refused (403).
app.all('/logout', (c) => sessions.logout(c.req.raw));

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

async function page(file, c) {
  const html = await readFile(new URL(file, import.meta.url), 'utf8');
  return c.html(
    html.replaceAll('%ITCH_CLIENT_ID%', ITCH_CLIENT_ID).replaceAll('%ITCH_BASE_URL%', ITCH_BASE_URL).replaceAll('%ORIGIN%', PUBLIC_ORIGIN),
  );
}
app.get('/', (c) => page('public/index.html', c));
app.get('/callback.html', (c) => {
  for (const [name, value] of Object.entries(CALLBACK_HEADERS)) c.header(name, value);
  return page('public/callback.html', c);
});
for (const script of ['itch-oauth.iife.js', 'itch-oauth-capture.iife.js']) {
  const file = new URL(import.meta.resolve(`itch-oauth-widget/${script}`));
  app.get(`/${script}`, async (c) => c.body(await readFile(file), 200, { 'Content-Type': 'text/javascript' }));
}
// The full script file's languages other than English: it loads them from locales/ beside itself.
const locales = new URL('locales/', import.meta.resolve('itch-oauth-widget/itch-oauth.iife.js'));
app.get('/locales/:file{[\\w-]+\\.js}', async (c) => {
  const file = await readFile(new URL(c.req.param('file'), locales)).catch(() => undefined);
  return file ? c.body(file, 200, { 'Content-Type': 'text/javascript' }) : c.notFound();
});

serve({ fetch: app.fetch, port: PORT, hostname: '127.0.0.1' }, ({ port }) => {
  console.log(`listening on http://127.0.0.1:${port}`);
});
