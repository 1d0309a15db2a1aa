// "Log in with itch.io" on Cloudflare Workers: the pages and the widget's script files are static
// assets (`npx itch-oauth-widget assets public`, wrangler's build command, puts the scripts in
// public/); the Worker answers the token endpoint (/auth/itch) and reads (/me) and ends (/logout)
// the sessions: cookies createSessions encrypts with SESSION_SECRET. The framed game (public/game/,
// served for GAME_ORIGIN, as itch.io serves HTML5 games from html-classic.itch.zone) logs in with a
// popup and gets a game token, which the Worker checks at /api/progress (its saves in Workers KV)
// and renews at /api/renew; game servers check it with /.well-known/jwks.json.
//
// The popup logins under way and the revoked sessions are in the package's ItchOAuthStore, Durable
// Objects that every Worker instance reaches (durableObjectStore): the first deposit wins
// and a login is collected once, which Workers KV (eventually consistent) cannot promise.
import { durableObjectStore } from 'itch-oauth-widget/cloudflare';
import { createSessions, createTokenHandler } from 'itch-oauth-widget/server';

// The store's Durable Object: wrangler.jsonc binds it as ITCH_OAUTH_STORE.
export { ItchOAuthStore } from 'itch-oauth-widget/cloudflare';

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

// Made once per isolate, from env, and the same in every instance: SESSION_SECRET (.dev.vars for
// `wrangler dev`; deployed, a secret) derives the same keys everywhere, so any instance opens a
// cookie another one set.
let app;
const appOf = (env) =>
  (app ??= (() => {
    // Where people reach the site (wrangler.jsonc's PUBLIC_ORIGIN): what counts as same-origin, and
    // on https the Secure __Host- cookie. Never taken from the request's address.
    const origin = new URL(env.PUBLIC_ORIGIN).origin;
    const gameOrigin = new URL(env.GAME_ORIGIN).origin;
    const store = durableObjectStore(env.ITCH_OAUTH_STORE);
    const sessions = createSessions({
      secrets: [env.SESSION_SECRET],
      origin,
      allowedOrigins: [gameOrigin], // the game's logins get a game token, its API calls CORS
      store, // logout revokes the session in every instance
    });
    const handleToken = createTokenHandler({
      applicationId: Number(env.ITCH_APPLICATION_ID), // refuses tokens itch.io issued to another application
      origin,
      baseUrl: env.ITCH_BASE_URL,
      apiBaseUrl: env.ITCH_BASE_URL === 'https://itch.io' ? 'https://api.itch.io' : `${env.ITCH_BASE_URL}/api`,
      allowedOrigins: [gameOrigin], // the framed game's popup logins
      popup: true, // the login button's mode="popup"
      clientId: env.ITCH_CLIENT_ID, // the popup start page starts logins of this application only,
      redirectUri: `${origin}/callback.html`, // and sends itch.io this callback page only
      store, // the popup logins under way, shared by every instance
      onLogin: sessions.onLogin, // the session cookie (HttpOnly, SameSite=Lax), or the game's token
    });
    // The game's API: `route` answers the game origin's CORS preflights and calls the handler only
    // with a valid game token (`allow: ['game']`: the site's cookie does not count here).
    const gameProgress = sessions.route({ allow: ['game'] }, async (request, session) => {
      const key = `progress:${session.user.id}`;
      if (request.method === 'PUT') {
        // A save is a few bytes: anything past 1 KiB is refused (413) before it is read.
        const body = await readJson(request, 1024);
        if (body instanceof Response) return body;
        const { stars } = Object(body);
        if (!Number.isSafeInteger(stars) || stars < 0) return Response.json({ errors: ['stars must be a whole number'] }, { status: 400 });
        await env.PROGRESS.put(key, JSON.stringify({ stars }));
        return new Response(null, { status: 204 });
      }
      return Response.json({ progress: await env.PROGRESS.get(key, 'json') });
    });
    return { sessions, handleToken, gameProgress };
  })());

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    const { sessions, handleToken, gameProgress } = appOf(env);
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
