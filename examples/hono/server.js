// A Hono site with "Log in with itch.io" on Node: the two pages, the widget's two script files,
// the token handler at /auth/itch (on the pages' origin) and a session cookie.
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import { createTokenHandler } from 'itch-oauth-widget/server';

// The emulator (`npx itch-oauth-widget emulator`) by default. For the real itch.io: ITCH_BASE_URL=https://itch.io
// and your OAuth application's client id and id (https://itch.io/user/settings/oauth-apps).
const ITCH_BASE_URL = process.env.ITCH_BASE_URL ?? 'http://127.0.0.1:8787';
const ITCH_CLIENT_ID = process.env.ITCH_CLIENT_ID ?? 'emu-starfall-companion';
const ITCH_APPLICATION_ID = Number(process.env.ITCH_APPLICATION_ID ?? 7001);

// Where people reach this site, e.g. PUBLIC_ORIGIN=https://your.site behind a proxy that ends TLS.
// The pages' addresses and the cookie's Secure come from it, never from the request's Host or
// scheme: behind such a proxy the request is plain http, and Host is whatever the client sent.
const PORT = Number(process.env.PORT ?? 3000);
const PUBLIC_ORIGIN = new URL(process.env.PUBLIC_ORIGIN ?? `http://127.0.0.1:${PORT}`).origin;
const SECURE = PUBLIC_ORIGIN.startsWith('https:') ? '; Secure' : '';

const sessions = new Map(); // session id → itch.io user: yours to keep (a database, a signed cookie…)

const handleToken = createTokenHandler({
  applicationId: ITCH_APPLICATION_ID, // refuses tokens itch.io issued to another application
  baseUrl: ITCH_BASE_URL,
  apiBaseUrl: ITCH_BASE_URL === 'https://itch.io' ? 'https://api.itch.io' : `${ITCH_BASE_URL}/api`,
  allowedOrigins: [PUBLIC_ORIGIN], // the Origin browsers send when a proxy changes the host or scheme
  popup: true, // the login button's mode="popup"
  onLogin: ({ user }) => {
    const sid = randomUUID();
    sessions.set(sid, user);
    return { headers: { 'Set-Cookie': `sid=${sid}; HttpOnly; SameSite=Lax; Path=/${SECURE}` } };
  },
});

const app = new Hono();
app.all('/auth/itch', (c) => handleToken(c.req.raw));

app.get('/me', (c) => {
  const user = sessions.get(getCookie(c, 'sid'));
  return user ? c.json(user) : c.body(null, 401);
});

async function page(file, c) {
  const html = await readFile(new URL(file, import.meta.url), 'utf8');
  return c.html(html.replaceAll('%ITCH_CLIENT_ID%', ITCH_CLIENT_ID).replaceAll('%ITCH_BASE_URL%', ITCH_BASE_URL).replaceAll('%ORIGIN%', PUBLIC_ORIGIN));
}
app.get('/', (c) => page('public/index.html', c));
app.get('/callback.html', (c) => {
  c.header('Referrer-Policy', 'no-referrer');
  c.header('Cache-Control', 'no-store');
  c.header('Cross-Origin-Opener-Policy', 'same-origin');
  return page('public/callback.html', c);
});
for (const script of ['itch-oauth.iife.js', 'itch-oauth-capture.iife.js']) {
  const file = new URL(import.meta.resolve(`itch-oauth-widget/${script}`));
  app.get(`/${script}`, async (c) => c.body(await readFile(file), 200, { 'Content-Type': 'text/javascript' }));
}

serve({ fetch: app.fetch, port: PORT, hostname: '127.0.0.1' }, ({ port }) => {
  console.log(`listening on http://127.0.0.1:${port}`);
});
