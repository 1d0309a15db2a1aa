// A site with "Log in with itch.io" on one origin, with node:http only: the two pages, the
// widget's two script files, the token handler at /auth/itch, and the session: a cookie
// createSessions encrypts (no database), read at /me, ended at /logout. And a framed game on a
// second origin (GAME_ORIGIN, as itch.io serves HTML5 games from html-classic.itch.zone): its
// popup login answers a game token, with which it saves at /api/progress and renews at
// /api/renew; any game server checks game tokens with /.well-known/jwks.json alone.
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { getRequestListener } from '@hono/node-server';
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
// Where the game is served from: another origin than the site's (localhost and 127.0.0.1 are two
// sites to a browser), so the site's cookie is third-party in the game's frame, as on itch.io.
const GAME_ORIGIN = new URL(process.env.GAME_ORIGIN ?? `http://localhost:${PORT}`).origin;

// SESSION_SECRET encrypts the session cookies: set it in production (`openssl rand -base64 32`),
// the same on every instance, and sessions outlive restarts. Without it, a random one for this
// run only: a restart then signs everyone out.
if (!process.env.SESSION_SECRET) console.warn('SESSION_SECRET is not set: a random one for this run (a restart signs everyone out)');
const sessions = createSessions({
  secrets: [process.env.SESSION_SECRET ?? randomBytes(32).toString('base64')],
  allowedOrigins: [GAME_ORIGIN], // logins the game started get a game token, not the cookie; its API calls get CORS
  origin: PUBLIC_ORIGIN, // logins started here get the cookie (__Host- on https); never taken from the request's Host
});

// Each request's client address, as the server's socket saw it, for the handler's per-client rate
// limits (docs/guides/deploy.md, "Rate limits"): it travels beside the request, never in a header a
// client could write. Behind a proxy of yours, every socket is the proxy's: read the header it
// sets.
const addresses = new WeakMap();

const handleToken = createTokenHandler({
  applicationId: ITCH_APPLICATION_ID, // refuses tokens itch.io issued to another application
  baseUrl: ITCH_BASE_URL,
  apiBaseUrl: ITCH_BASE_URL === 'https://itch.io' ? 'https://api.itch.io' : `${ITCH_BASE_URL}/api`,
  origin: PUBLIC_ORIGIN, // this site, as browsers see it, even behind a proxy that ends TLS
  allowedOrigins: [GAME_ORIGIN], // the framed game's popup logins
  popup: true, // the login button's mode="popup"
  clientId: ITCH_CLIENT_ID, // the popup start page starts logins of this application only,
  redirectUri: `${PUBLIC_ORIGIN}/callback.html`, // and sends itch.io this callback page only
  onLogin: sessions.onLogin, // the session cookie (HttpOnly, SameSite=Lax)
  clientAddress: (request) => addresses.get(request),
});

const file = (name) => new URL(name, import.meta.url);
const widget = (name) => fileURLToPath(import.meta.resolve(`itch-oauth-widget/${name}`));
const pages = {
  '/': file('public/index.html'),
  '/callback.html': file('public/callback.html'),
  '/play.html': file('public/play.html'),
  '/game/': file('public/game/index.html'),
};
const scripts = {
  '/itch-oauth.iife.js': widget('itch-oauth.iife.js'),
  '/itch-oauth-capture.iife.js': widget('itch-oauth-capture.iife.js'),
  '/itch-oauth-button.iife.js': widget('itch-oauth-button.iife.js'), // the framed game's: login() and gameSession()
};
// The script files' languages other than English: they load them from locales/ beside themselves.
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

/**
 * The request's JSON body, read no further than `limit` bytes: `request.json()` would hold a body
 * of any size in memory. Answers a Response instead when it refuses: 413 for a larger body (told
 * by its Content-Length before a byte is read, or counted while reading), 400 for one not JSON.
 */
async function readJson(request, limit) {
  const tooLarge = () => Response.json({ errors: [`the body is larger than ${limit} bytes`] }, { status: 413 });
  if (Number(request.headers.get('Content-Length')) > limit) return tooLarge();
  const reader = request.body?.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let size = 0;
  for (let chunk = await reader?.read(); chunk && !chunk.done; chunk = await reader.read()) {
    size += chunk.value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return tooLarge();
    }
    text += decoder.decode(chunk.value, { stream: true });
  }
  try {
    return JSON.parse(text + decoder.decode());
  } catch {
    return Response.json({ errors: ['the body is not JSON'] }, { status: 400 });
  }
}

/** The game's saves, by itch.io user id (yours to keep in a database). */
const progress = new Map();
// The game's API: `route` answers the game origin's CORS preflights, and calls the handler only
// with a valid game token (`allow: ['game']`: the site's cookie does not count here).
const gameProgress = sessions.route({ allow: ['game'] }, async (request, session) => {
  if (request.method === 'PUT') {
    // A save is a few bytes: anything past 1 KiB is refused (413) before it is read.
    const body = await readJson(request, 1024);
    if (body instanceof Response) return body;
    const { stars } = Object(body);
    if (!Number.isSafeInteger(stars) || stars < 0) return Response.json({ errors: ['stars must be a whole number'] }, { status: 400 });
    progress.set(session.user.id, { stars });
    return new Response(null, { status: 204 });
  }
  return Response.json({ progress: progress.get(session.user.id) ?? null });
});

async function app(request) {
  const url = new URL(request.url);
  if (url.pathname === '/auth/itch') return handleToken(request);
  if (url.pathname === '/api/progress') return gameProgress(request);
  // A fresh game token for a valid one, before it expires (never past the session's maxAge).
  if (url.pathname === '/api/renew') return sessions.renew(request);
  // The public keys that verify game tokens, for game servers (RFC 7517 section 5, a JWK Set).
  if (url.pathname === '/.well-known/jwks.json') return Response.json(await sessions.jwks());
  if (url.pathname === '/me') {
    const session = await sessions.get(request);
    return session ? Response.json(session.user) : new Response(null, { status: 401 });
  }
  // POST from the site's own pages: 204, the cookie removed; from another site, refused (403).
  if (url.pathname === '/logout') return sessions.logout(request);
  if (pages[url.pathname]) {
    const html = (await readFile(pages[url.pathname], 'utf8'))
      .replaceAll('%ITCH_CLIENT_ID%', ITCH_CLIENT_ID)
      .replaceAll('%ITCH_BASE_URL%', ITCH_BASE_URL)
      .replaceAll('%ORIGIN%', PUBLIC_ORIGIN)
      .replaceAll('%GAME_ORIGIN%', GAME_ORIGIN);
    const headers = url.pathname === '/callback.html' ? CALLBACK_HEADERS : {};
    return new Response(html, { headers: { 'Content-Type': 'text/html; charset=utf-8', ...headers } });
  }
  if (scripts[url.pathname]) return new Response(await readFile(scripts[url.pathname]), { headers: { 'Content-Type': 'text/javascript' } });
  const locale = /^\/locales\/([\w-]+\.js)$/.exec(url.pathname);
  const localeFile = locale && (await readFile(new URL(locale[1], locales)).catch(() => undefined));
  if (localeFile) return new Response(localeFile, { headers: { 'Content-Type': 'text/javascript' } });
  return new Response('Not found', { status: 404 });
}

const server = createServer(
  getRequestListener((request, { incoming }) => {
    addresses.set(request, incoming.socket.remoteAddress);
    return app(request);
  }),
);
server.listen(PORT, '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}`);
});
