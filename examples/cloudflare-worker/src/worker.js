// "Log in with itch.io" on Cloudflare Workers: the pages and the widget's script files are static
// assets (`npx itch-oauth-widget assets public`, wrangler's build command, puts the scripts in public/), the token endpoint (/auth/itch) runs inside one Durable Object,
// and the Worker itself reads (/me) and ends (/logout) the sessions: cookies createSessions
// encrypts with SESSION_SECRET, which any instance opens without asking anyone. The framed game
// (public/game/, served for GAME_ORIGIN, as itch.io serves HTML5 games from html-classic.itch.zone)
// logs in with a popup and gets a game token, which the Worker checks itself at /api/progress (its
// saves in Workers KV) and renews at /api/renew; game servers check it with /.well-known/jwks.json.
//
// Why a Durable Object: a popup login waits on the server until the page that opened the popup
// collects it; the first deposit must win and the outcome be collected once. Workers KV is
// eventually consistent (about 60 s) and has no atomic create, so two Worker instances could both
// win. The handler takes a deposit with a lock in its own memory, exact when one instance serves
// every request: here one Durable Object (idFromName), single-threaded, whose strongly consistent
// storage keeps the logins under way when it is evicted.
import { DurableObject } from 'cloudflare:workers';
import { createSessions, createTokenHandler } from 'itch-oauth-widget/server';
import { createStorage, defineDriver } from 'unstorage';
const CALLBACK_HEADERS = { 'Referrer-Policy': 'no-referrer', 'Cache-Control': 'no-store', 'Cross-Origin-Opener-Policy': 'same-origin' };

// The sessions, the same in the Worker and in the Durable Object: SESSION_SECRET (wrangler.jsonc's
// dev value; deployed, a secret) derives the same keys in every instance, so a cookie the Durable
// Object sets at login is opened by any Worker instance, with no round trip.
let sessions;
const sessionsOf = (env) =>
  (sessions ??= createSessions({
    secrets: [env.SESSION_SECRET],
    allowedOrigins: [new URL(env.GAME_ORIGIN).origin], // the game's logins get a game token, its API calls CORS
  }));

// The game's API: `route` answers the game origin's CORS preflights and calls the handler only with
// a valid game token (`allow: ['game']`: the site's cookie does not count here).
let gameProgress;
const gameProgressOf = (env) =>
  (gameProgress ??= sessionsOf(env).route({ allow: ['game'] }, async (request, session) => {
    const key = `progress:${session.user.id}`;
    if (request.method === 'PUT') {
      const { stars } = await request.json();
      if (!Number.isSafeInteger(stars) || stars < 0) return Response.json({ errors: ['stars must be a whole number'] }, { status: 400 });
      await env.PROGRESS.put(key, JSON.stringify({ stars }));
      return new Response(null, { status: 204 });
    }
    return Response.json({ progress: await env.PROGRESS.get(key, 'json') });
  }));

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname === '/auth/itch') return env.TOKEN_ENDPOINT.get(env.TOKEN_ENDPOINT.idFromName('itch-oauth')).fetch(request);
    // In the Worker itself, no round trip to the Durable Object: the game token is checked with keys
    // derived from SESSION_SECRET.
    if (url.pathname === '/api/progress') return gameProgressOf(env)(request);
    // A fresh game token for a valid one, before it expires (never past the session's maxAge).
    if (url.pathname === '/api/renew') return sessionsOf(env).renew(request);
    // The public keys that verify game tokens, for game servers (RFC 7517 section 5, a JWK Set).
    if (url.pathname === '/.well-known/jwks.json') return Response.json(await sessionsOf(env).jwks());
    if (url.pathname === '/me') {
      const session = await sessionsOf(env).get(request);
      return session ? Response.json(session.user) : new Response(null, { status: 401 });
    }
    // POST from the site's own pages: 204, the cookie removed; from another site, refused (403).
    if (url.pathname === '/logout') return sessionsOf(env).logout(request);
    const asset = await env.ASSETS.fetch(request);
    if (!asset.headers.get('Content-Type')?.startsWith('text/html')) return asset;
    // The pages name the settings as %PLACEHOLDERS%; fill them in from wrangler.jsonc's vars (the
    // site's address from PUBLIC_ORIGIN, never from the request's Host).
    const html = (await asset.text())
      .replaceAll('%ITCH_CLIENT_ID%', env.ITCH_CLIENT_ID)
      .replaceAll('%ITCH_BASE_URL%', env.ITCH_BASE_URL)
      .replaceAll('%ORIGIN%', new URL(env.PUBLIC_ORIGIN).origin)
      .replaceAll('%GAME_ORIGIN%', new URL(env.GAME_ORIGIN).origin);
    const headers = new Headers(asset.headers);
    if (url.pathname.startsWith('/callback')) for (const [name, value] of Object.entries(CALLBACK_HEADERS)) headers.set(name, value);
    return new Response(html, { status: asset.status, headers });
  },
};

/** The token endpoint, one instance for the whole app; its storage holds only the popup logins under way. */
export class TokenEndpoint extends DurableObject {
  constructor(ctx, env) {
    super(ctx, env);
    // Where people reach the site (wrangler.jsonc's PUBLIC_ORIGIN): the handler accepts its Origin,
    // and a login started from an https origin gets a Secure __Host- cookie.
    const publicOrigin = new URL(env.PUBLIC_ORIGIN).origin;
    this.handleToken = createTokenHandler({
      applicationId: Number(env.ITCH_APPLICATION_ID), // refuses tokens itch.io issued to another application
      baseUrl: env.ITCH_BASE_URL,
      apiBaseUrl: env.ITCH_BASE_URL === 'https://itch.io' ? 'https://api.itch.io' : `${env.ITCH_BASE_URL}/api`,
      allowedOrigins: [publicOrigin, new URL(env.GAME_ORIGIN).origin], // the Origin browsers send, should a proxy change the host or scheme; the game's
      popup: true, // the login button's mode="popup"
      store: createStorage({ driver: durableObjectStorage({ storage: ctx.storage }) }),
      onLogin: sessionsOf(env).onLogin, // the session cookie (HttpOnly, SameSite=Lax); nothing stored
    });
  }

  async fetch(request) {
    return this.handleToken(request);
  }

  /** Drops the popup logins nobody collected (they wait 5 minutes at most). */
  async alarm() {
    const now = Date.now();
    const entries = await this.ctx.storage.list({ prefix: 'popup:' });
    for (const [key, entry] of entries) if (entry.expires <= now) await this.ctx.storage.delete(key);
    if (entries.size > 0) await this.ctx.storage.setAlarm(now + 60_000);
  }
}

/** An unstorage driver over Durable Object storage, for the handler's `store` (with its TTL). */
const durableObjectStorage = defineDriver(({ storage }) => {
  const read = async (key) => {
    const entry = await storage.get(`popup:${key}`);
    return entry && entry.expires > Date.now() ? entry.value : null;
  };
  return {
    name: 'durable-object',
    hasItem: async (key) => (await read(key)) !== null,
    getItem: read,
    setItem: async (key, value, { ttl = 300 } = {}) => {
      await storage.put(`popup:${key}`, { value, expires: Date.now() + ttl * 1000 });
      if ((await storage.getAlarm()) === null) await storage.setAlarm(Date.now() + 60_000);
    },
    removeItem: (key) => storage.delete(`popup:${key}`),
    getKeys: async () => [...(await storage.list({ prefix: 'popup:' })).keys()].map((key) => key.slice('popup:'.length)),
    clear: async () => {
      for (const key of (await storage.list({ prefix: 'popup:' })).keys()) await storage.delete(key);
    },
  };
});
