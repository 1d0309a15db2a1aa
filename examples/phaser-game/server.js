// The site of a Phaser game framed on itch.io, with Hono on Node: the game's page (which frames
// the game, as itch.io's page does), the built game (dist/, served for GAME_ORIGIN: another site,
// as html-classic.itch.zone is), the callback page and the token handler at /auth/itch, which
// checks with itch.io whether the player owns the game and answers the game a game token, the
// owners-only level's data at /api/levels/vault, sent only for a game token of an owner, and the
// game token's renewal at /api/renew.
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { serve } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { createSessions, createTokenHandler } from 'itch-oauth-widget/server';

// The emulator (`npx itch-oauth-widget emulator`) by default. For the real itch.io: ITCH_BASE_URL=https://itch.io
// and your OAuth application's client id and id (https://itch.io/user/settings/oauth-apps).
const ITCH_BASE_URL = process.env.ITCH_BASE_URL ?? 'http://127.0.0.1:4824';
const ITCH_CLIENT_ID = process.env.ITCH_CLIENT_ID ?? 'emu-starfall-companion';
const ITCH_APPLICATION_ID = Number(process.env.ITCH_APPLICATION_ID ?? 7001);
// The game whose owners open the vault (the emulator's Starfall Keep by default), and its store page.
const GAME_ID = Number(process.env.ITCH_GAME_ID ?? 2001);
const STORE_URL = process.env.STORE_URL ?? 'https://pixelforge.itch.io/starfall-keep';
// Your own itch.io API key (server-side only): ownership is then checked by download key and the
// player consents to `profile:me` alone. Without it, the login asks for `game:view:ownership`,
// which covers only games of the OAuth application's creator.
const ITCH_API_KEY = process.env.ITCH_API_KEY || undefined;

const PORT = Number(process.env.PORT ?? 3000);
const PUBLIC_ORIGIN = new URL(process.env.PUBLIC_ORIGIN ?? `http://127.0.0.1:${PORT}`).origin;
// Where the game is served from: another site than this one (localhost and 127.0.0.1 are two
// sites to a browser), so this site's cookie is third-party in the game's frame, as on itch.io.
const GAME_ORIGIN = new URL(process.env.GAME_ORIGIN ?? `http://localhost:${PORT}`).origin;

if (!process.env.SESSION_SECRET) console.warn('SESSION_SECRET is not set: a random one for this run (a restart signs everyone out)');
const sessions = createSessions({
  secrets: [process.env.SESSION_SECRET ?? randomBytes(32).toString('base64')],
  allowedOrigins: [GAME_ORIGIN], // logins the game started get a game token, not the cookie; its API calls get CORS
  origin: PUBLIC_ORIGIN, // logins started here get the cookie; never taken from the request's Host
});

// Each request's client address, as the server's socket saw it (Hono's getConnInfo), for the
// handler's per-client rate limits (docs/guides/deploy.md, "Rate limits"): it travels beside the
// request, never in a header a client could write. Behind a proxy of yours, every socket is the
// proxy's: read the header it sets.
const addresses = new WeakMap();

const handleToken = createTokenHandler({
  applicationId: ITCH_APPLICATION_ID, // refuses tokens itch.io issued to another application
  baseUrl: ITCH_BASE_URL,
  apiBaseUrl: ITCH_BASE_URL === 'https://itch.io' ? 'https://api.itch.io' : `${ITCH_BASE_URL}/api`,
  origin: PUBLIC_ORIGIN, // this site, as browsers see it, even behind a proxy that ends TLS
  allowedOrigins: [GAME_ORIGIN],
  popup: true, // the game's login is a popup
  clientId: ITCH_CLIENT_ID, // the popup start page starts logins of this application only,
  redirectUri: `${PUBLIC_ORIGIN}/callback.html`, // and sends itch.io this callback page only
  // Asked of itch.io once per login; the answer is `owns: { [GAME_ID]: true | false }`, kept in
  // the game token, which this server signs: the game cannot change it.
  ownership: { gameIds: [GAME_ID], apiKey: ITCH_API_KEY },
  onLogin: sessions.onLogin, // the game's login: { user, owns, gameToken }
  clientAddress: (request) => addresses.get(request),
});

/** The owners-only level: it lives here, and never ships in the game. */
const VAULT = {
  name: 'The vault',
  stars: [
    { x: 120, y: 120 },
    { x: 300, y: 200 },
    { x: 500, y: 120 },
    { x: 680, y: 200 },
    { x: 400, y: 300 },
  ],
};

const app = new Hono();
app.all('/auth/itch', (c) => {
  addresses.set(c.req.raw, getConnInfo(c).remote.address);
  return handleToken(c.req.raw);
});
// `route` answers the game origin's CORS preflights and calls the handler only with a valid game
// token (else 401); whether the player owns the game is read from that token, never from the game.
const vault = sessions.route({ allow: ['game'] }, async (_request, session) =>
  session.owns?.[GAME_ID] === true
    ? Response.json(VAULT)
    : Response.json({ errors: ['the vault is for owners of the game'], code: 'not_owner', storeUrl: STORE_URL }, { status: 403 }),
);
app.on(['GET', 'OPTIONS'], '/api/levels/vault', (c) => vault(c.req.raw));
// A fresh game token for a valid one, before it expires (never past the session's maxAge): the
// game's session asks here (CORS for the game's origin included).
app.on(['POST', 'OPTIONS'], '/api/renew', (c) => sessions.renew(c.req.raw));

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
  return c.html(html.replaceAll('%GAME_ORIGIN%', GAME_ORIGIN).replaceAll('%STORE_URL%', STORE_URL));
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

// The game: what `npm run build` made in dist/, and its config.json (in an upload to itch.io, a
// file beside index.html with these values).
app.get('/game/config.json', (c) =>
  c.json({
    site: PUBLIC_ORIGIN,
    clientId: ITCH_CLIENT_ID,
    itchBaseUrl: ITCH_BASE_URL,
    scope: ITCH_API_KEY ? 'profile:me' : 'profile:me game:view:ownership',
    gameId: GAME_ID,
    storeUrl: STORE_URL,
  }),
);
app.get('/game', (c) => c.redirect('/game/'));
app.use('/game/*', serveStatic({ root: './dist', rewriteRequestPath: (path) => path.slice('/game'.length) }));

serve({ fetch: app.fetch, port: PORT, hostname: '127.0.0.1' }, ({ port }) => {
  console.log(`listening on http://127.0.0.1:${port}`);
});
