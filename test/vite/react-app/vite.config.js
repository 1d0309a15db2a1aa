// A Vite + React app set up as the SPA guide says: @vitejs/plugin-react, and the capture plugin with
// the token handler and the session as its handler. The test starts it with ITCH_BASE_URL (its
// emulator) and PORT; `vite`, `vite build` and `vite preview` read this file as a user's would.
import react from '@vitejs/plugin-react';
import { createSessions, createTokenHandler } from 'itch-oauth-widget/server';
import { itchOAuthCapture } from 'itch-oauth-widget/vite';
import { defineConfig } from 'vite';

const baseUrl = process.env.ITCH_BASE_URL;
const port = Number(process.env.PORT);
const origin = `http://127.0.0.1:${port}`;
const sessions = createSessions({ secrets: ['a test secret of at least 32 characters'], origin });
const handleToken = createTokenHandler({
  applicationId: 7001,
  baseUrl,
  apiBaseUrl: `${baseUrl}/api`,
  origin,
  onLogin: sessions.onLogin,
});

async function app(request) {
  if (new URL(request.url).pathname === '/auth/itch') return handleToken(request);
  // /me: null when signed out (a 401 would be a red line in the browser's console on every visit).
  const session = await sessions.get(request);
  return Response.json(session?.user ?? null);
}

export default defineConfig({
  define: { ITCH_BASE_URL: JSON.stringify(baseUrl) },
  build: { rollupOptions: { input: ['index.html', 'callback.html'] } },
  server: { host: '127.0.0.1', port, strictPort: true },
  preview: { host: '127.0.0.1', port, strictPort: true },
  plugins: [react(), itchOAuthCapture({ callback: '/callback.html', backend: '/auth/itch', handler: app, routes: ['/me'] })],
});
