// A Vite + React app with "Log in with itch.io". The plugin puts the capture first in <head> of
// callback.html (in dev and in the build) and, in `vite` and `vite preview`, answers /auth/itch,
// /me and /logout with app() below and sends callback.html with its security headers. In
// production, serve dist/ and app() from one origin, and callback.html with the same headers.
import { randomBytes } from 'node:crypto';
import react from '@vitejs/plugin-react';
import { createSessions, createTokenHandler } from 'itch-oauth-widget/server';
import { itchOAuthCapture } from 'itch-oauth-widget/vite';
import { defineConfig } from 'vite';

// The emulator (`npx itch-oauth-widget emulator`) by default. For the real itch.io: ITCH_BASE_URL=https://itch.io
// and your OAuth application's client id and id (https://itch.io/user/settings/oauth-apps).
const ITCH_BASE_URL = process.env.ITCH_BASE_URL ?? 'http://127.0.0.1:4824';
const ITCH_CLIENT_ID = process.env.ITCH_CLIENT_ID ?? 'emu-starfall-companion';
const ITCH_APPLICATION_ID = Number(process.env.ITCH_APPLICATION_ID ?? 7001);
// http://127.0.0.1:3000, the redirect URI given to the emulator (PORT=… moves it). Where people
// reach the site (PUBLIC_ORIGIN, e.g. https://your.site behind a proxy that ends TLS): the
// handler accepts its Origin, never the request's Host.
const PORT = Number(process.env.PORT ?? 3000);
const PUBLIC_ORIGIN = new URL(process.env.PUBLIC_ORIGIN ?? `http://127.0.0.1:${PORT}`).origin;

// SESSION_SECRET encrypts the session cookies: set it in production (`openssl rand -base64 32`).
// Without it, a random one for this run only: a restart signs everyone out.
const sessions = createSessions({
  secrets: [process.env.SESSION_SECRET ?? randomBytes(32).toString('base64')],
  origin: PUBLIC_ORIGIN,
});
const handleToken = createTokenHandler({
  applicationId: ITCH_APPLICATION_ID, // refuses tokens itch.io issued to another application
  baseUrl: ITCH_BASE_URL,
  apiBaseUrl: ITCH_BASE_URL === 'https://itch.io' ? 'https://api.itch.io' : `${ITCH_BASE_URL}/api`,
  origin: PUBLIC_ORIGIN, // this site, as browsers see it
  onLogin: sessions.onLogin, // the session cookie (HttpOnly, SameSite=Lax)
});

/** The token endpoint and the session's routes: /auth/itch, /me and /logout. */
async function app(request) {
  const { pathname } = new URL(request.url);
  if (pathname === '/auth/itch') return handleToken(request);
  // POST from the site's own pages: 204, the cookie removed; from another site, refused (403).
  if (pathname === '/logout') return sessions.logout(request);
  const session = await sessions.get(request); // /me
  return session ? Response.json(session.user) : new Response(null, { status: 401 });
}

export default defineConfig({
  // What the page's code reads as import.meta.env.ITCH_BASE_URL and import.meta.env.ITCH_CLIENT_ID.
  define: {
    'import.meta.env.ITCH_BASE_URL': JSON.stringify(ITCH_BASE_URL),
    'import.meta.env.ITCH_CLIENT_ID': JSON.stringify(ITCH_CLIENT_ID),
  },
  build: { rollupOptions: { input: ['index.html', 'callback.html'] } },
  server: { host: '127.0.0.1', port: PORT, strictPort: true },
  preview: { host: '127.0.0.1', port: PORT, strictPort: true },
  plugins: [react(), itchOAuthCapture({ callback: '/callback.html', backend: '/auth/itch', handler: app, routes: ['/me', '/logout'] })],
});
