// A Vite single-page app with "Log in with itch.io": the plugin puts the capture first in <head> of
// callback.html (in dev and in the build), and the backend (backend.js) answers /auth/itch, /me and
// /logout on the same origin, in `vite` and `vite preview`. In production, serve dist/ and
// backend.js's app() from one origin (see the README), and callback.html with CALLBACK_HEADERS.
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { getRequestListener } from '@hono/node-server';
import { itchOAuthCapture } from 'itch-oauth-widget/vite';
import { defineConfig } from 'vite';
import { createBackend } from './backend.js';

// The emulator (`npx itch-oauth-widget emulator`) by default. For the real itch.io: ITCH_BASE_URL=https://itch.io
// and your OAuth application's client id and id (https://itch.io/user/settings/oauth-apps).
const itch = {
  baseUrl: process.env.ITCH_BASE_URL ?? 'http://127.0.0.1:8787',
  clientId: process.env.ITCH_CLIENT_ID ?? 'emu-starfall-companion',
  applicationId: Number(process.env.ITCH_APPLICATION_ID ?? 7001),
};

// The callback page's headers, as every example sends them: no Referer to the page's scripts, no
// copy in a cache, and no window that opened it can reach it.
const CALLBACK_HEADERS = { 'Referrer-Policy': 'no-referrer', 'Cache-Control': 'no-store', 'Cross-Origin-Opener-Policy': 'same-origin' };

// SESSION_SECRET encrypts the session cookies: set it in production (`openssl rand -base64 32`),
// the same on every instance, and sessions outlive restarts. Without it, a random one for this
// run only: a restart (Vite's too, when this file changes) then signs everyone out.
if (!process.env.SESSION_SECRET) console.warn('SESSION_SECRET is not set: a random one for this run (a restart signs everyone out)');
const sessionSecret = process.env.SESSION_SECRET ?? randomBytes(32).toString('base64');

const pathOf = (req) => req.url.split('?')[0];

/**
 * Mounts the backend's routes in Vite's dev and preview servers. PUBLIC_ORIGIN: where people reach
 * the site (e.g. https://your.site behind a proxy that ends TLS); by default the server's own.
 */
function backend() {
  const mount = (server, port) => {
    const publicOrigin = new URL(process.env.PUBLIC_ORIGIN ?? `http://127.0.0.1:${port}`).origin;
    const listener = getRequestListener(createBackend({ ...itch, publicOrigin, sessionSecret }).app);
    server.middlewares.use((req, res, next) => (['/auth/itch', '/me', '/logout'].includes(pathOf(req)) ? listener(req, res) : next()));
  };
  return {
    name: 'backend',
    configureServer: (server) => mount(server, server.config.server.port),
    configurePreviewServer: (server) => mount(server, server.config.preview.port),
  };
}

/**
 * Serves callback.html with CALLBACK_HEADERS (Vite's own answer would say `Cache-Control: no-cache`):
 * in dev through Vite's HTML transforms (which add the capture), in preview the built page.
 */
function callbackPage() {
  const serve = (server, html) => {
    server.middlewares.use(async (req, res, next) => {
      if (pathOf(req) !== '/callback.html') return next();
      try {
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', ...CALLBACK_HEADERS }).end(await html());
      } catch (error) {
        next(error);
      }
    });
  };
  return {
    name: 'callback-page',
    configureServer: (server) =>
      serve(server, async () =>
        server.transformIndexHtml('/callback.html', await readFile(path.join(server.config.root, 'callback.html'), 'utf8')),
      ),
    configurePreviewServer: (server) =>
      serve(server, () => readFile(path.resolve(server.config.root, server.config.build.outDir, 'callback.html'), 'utf8')),
  };
}

export default defineConfig({
  // What the page's code needs: window.ITCH (see src/main.js).
  define: { ITCH: JSON.stringify({ baseUrl: itch.baseUrl, clientId: itch.clientId }) },
  build: { rollupOptions: { input: ['index.html', 'callback.html'] } },
  // http://127.0.0.1:3000, the redirect URI given to the emulator (`npm run dev -- --port N` moves it).
  server: { host: '127.0.0.1', port: 3000 },
  preview: { host: '127.0.0.1', port: 3000 },
  plugins: [
    itchOAuthCapture({
      callback: '/callback.html',
      backend: '/auth/itch',
      colorScheme: 'light dark',
      pendingStyle: 'output { display: block; margin: 3rem auto; font: 1.25rem system-ui, sans-serif; text-align: center }',
    }),
    backend(),
    callbackPage(),
  ],
});
