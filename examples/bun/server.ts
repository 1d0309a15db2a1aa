// "Log in with itch.io" on Bun's own HTTP server: the two pages, the widget's two script files,
// the token handler at /auth/itch (on the pages' origin) and a session cookie.
import { createTokenHandler, type User } from 'itch-oauth-widget/server';

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

const sessions = new Map<string, User>(); // session id → itch.io user: yours to keep (bun:sqlite, a database…)

const handleToken = createTokenHandler({
  applicationId: ITCH_APPLICATION_ID, // refuses tokens itch.io issued to another application
  baseUrl: ITCH_BASE_URL,
  apiBaseUrl: ITCH_BASE_URL === 'https://itch.io' ? 'https://api.itch.io' : `${ITCH_BASE_URL}/api`,
  allowedOrigins: [PUBLIC_ORIGIN], // the Origin browsers send when a proxy changes the host or scheme
  popup: true, // the login button's mode="popup"
  onLogin: ({ user }) => {
    const sid = crypto.randomUUID();
    sessions.set(sid, user);
    return { headers: { 'Set-Cookie': `sid=${sid}; HttpOnly; SameSite=Lax; Path=/${SECURE}` } };
  },
});

const pages: Record<string, URL> = { '/': new URL('./public/index.html', import.meta.url), '/callback.html': new URL('./public/callback.html', import.meta.url) };
const scripts: Record<string, URL> = {
  '/itch-oauth.iife.js': new URL(import.meta.resolve('itch-oauth-widget/itch-oauth.iife.js')),
  '/itch-oauth-capture.iife.js': new URL(import.meta.resolve('itch-oauth-widget/itch-oauth-capture.iife.js')),
};
const CALLBACK_HEADERS = { 'Referrer-Policy': 'no-referrer', 'Cache-Control': 'no-store', 'Cross-Origin-Opener-Policy': 'same-origin' };

async function app(request: Request): Promise<Response> {
  const url = new URL(request.url);
  if (url.pathname === '/auth/itch') return handleToken(request);
  if (url.pathname === '/me') {
    const user = sessions.get(request.headers.get('cookie')?.match(/(?:^|;\s*)sid=([^;]+)/)?.[1] ?? '');
    return user ? Response.json(user) : new Response(null, { status: 401 });
  }
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
  return new Response('Not found', { status: 404 });
}

const server = Bun.serve({ port: PORT, hostname: '127.0.0.1', fetch: app });
console.log(`listening on ${server.url}`);
