// An Express site with "Log in with itch.io": the two pages, the widget's two script files, the
// token handler at /auth/itch (on the pages' origin) and a session cookie.
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { getRequestListener } from '@hono/node-server';
import express from 'express';
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

const app = express();
// Before any body parser: the handler reads the request body itself.
app.all('/auth/itch', getRequestListener(handleToken));

app.get('/me', (req, res) => {
  const user = sessions.get(req.headers.cookie?.match(/(?:^|;\s*)sid=([^;]+)/)?.[1]);
  if (user) res.json(user);
  else res.sendStatus(401);
});

async function page(file, res) {
  const html = (await readFile(new URL(file, import.meta.url), 'utf8'))
    .replaceAll('%ITCH_CLIENT_ID%', ITCH_CLIENT_ID)
    .replaceAll('%ITCH_BASE_URL%', ITCH_BASE_URL)
    .replaceAll('%ORIGIN%', PUBLIC_ORIGIN);
  res.type('html').send(html);
}
app.get('/', (_req, res) => page('public/index.html', res));
app.get('/callback.html', (_req, res) => {
  res.set({ 'Referrer-Policy': 'no-referrer', 'Cache-Control': 'no-store', 'Cross-Origin-Opener-Policy': 'same-origin' });
  return page('public/callback.html', res);
});
for (const script of ['itch-oauth.iife.js', 'itch-oauth-capture.iife.js']) {
  app.get(`/${script}`, (req, res) => res.sendFile(fileURLToPath(import.meta.resolve(`itch-oauth-widget/${script}`))));
}

const server = app.listen(PORT, '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}`);
});
