// A Vite single-page app with "Log in with itch.io": the plugin puts the capture first in <head> of
// callback.html (in dev and in the build), and, in `vite` and `vite preview`, answers /auth/itch,
// /me and /logout with the backend (backend.js) and sends callback.html with its security headers.
// In production, serve dist/ and backend.js's app() from one origin (see the README), and
// callback.html with the same headers (the guide lists them for common hosts).
import { randomBytes } from 'node:crypto';
import { itchOAuthCapture } from 'itch-oauth-widget/vite';
import { defineConfig } from 'vite';
import { createBackend } from './backend.js';

// The emulator (`npx itch-oauth-widget emulator`) by default. For the real itch.io: ITCH_BASE_URL=https://itch.io
// and your OAuth application's client id and id (https://itch.io/user/settings/oauth-apps).
const itch = {
  baseUrl: process.env.ITCH_BASE_URL ?? 'http://127.0.0.1:4824',
  clientId: process.env.ITCH_CLIENT_ID ?? 'emu-starfall-companion',
  applicationId: Number(process.env.ITCH_APPLICATION_ID ?? 7001),
};

// SESSION_SECRET encrypts the session cookies: set it in production (`openssl rand -base64 32`),
// the same on every instance, and sessions outlive restarts. Without it, a random one for this
// run only: a restart (Vite's too, when this file changes) then signs everyone out.
if (!process.env.SESSION_SECRET) console.warn('SESSION_SECRET is not set: a random one for this run (a restart signs everyone out)');
const sessionSecret = process.env.SESSION_SECRET ?? randomBytes(32).toString('base64');

export default defineConfig(({ command }) => {
  // http://127.0.0.1:3000, the redirect URI given to the emulator (`npm run dev -- --port N` moves
  // it: Vite reads --port after this file, so the site's origin reads it here too).
  const port = Number(process.argv[process.argv.indexOf('--port') + 1]) || 3000;
  // Where people reach the site (e.g. https://your.site behind a proxy that ends TLS); by default the server's own.
  const publicOrigin = new URL(process.env.PUBLIC_ORIGIN ?? `http://127.0.0.1:${port}`).origin;
  const backend = command === 'serve' ? createBackend({ ...itch, publicOrigin, sessionSecret }) : undefined;
  return {
    // What the page's code needs: window.ITCH (see src/main.js).
    define: { ITCH: JSON.stringify({ baseUrl: itch.baseUrl, clientId: itch.clientId }) },
    build: { rollupOptions: { input: ['index.html', 'callback.html'] } },
    server: { host: '127.0.0.1', port },
    preview: { host: '127.0.0.1', port },
    plugins: [
      itchOAuthCapture({
        callback: '/callback.html',
        backend: '/auth/itch',
        // The token endpoint in `vite` and `vite preview`, with the session's routes.
        handler: backend?.app,
        routes: ['/me', '/logout'],
        colorScheme: 'light dark',
        pendingStyle: 'output { display: block; margin: 3rem auto; font: 1.25rem system-ui, sans-serif; text-align: center }',
      }),
    ],
  };
});
