// The game site's backend: it receives the access token from the callback page, verifies it with
// itch.io (credentials/info, then the profile), and hands the session to the package's
// `createSessions`: an encrypted HttpOnly cookie for the site's own pages, a signed game token for
// the framed game. The itch.io token never goes back to the browser.
import { randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { createStorage } from 'unstorage';
import { createSessions, createTokenHandler, type Owns, type User } from '../../src/server/index.js';
import { VAULT } from './vault.js';

/** The paths the backend answers; everything else is the site's pages. */
export const BACKEND_PATHS = [
  '/auth/itch',
  '/api/session',
  '/logout',
  '/api/vault',
  '/api/game/progress',
  '/api/game/vault',
  '/api/game/renew',
  '/.well-known/jwks.json',
] as const;

/** What `GET /api/session` answers for a signed-in user. */
export interface SessionInfo {
  user: User;
  scopes: string[];
  /** ISO 8601 time of the login. */
  signedInAt: string;
  /** Whether the player owns the game of the vault (undefined when the demo has no vault). */
  ownsGame: boolean | undefined;
}

/**
 * The owners-only vault: which game's owners may open it, and how the backend asks itch.io.
 * With the emulator, the seeded developer's API key; with real itch.io, yours (ITCH_API_KEY).
 */
export interface VaultSettings {
  /** The itch.io id of the game. */
  gameId: number;
  /** Its store page, where the others are sent to buy it. */
  storeUrl: string;
  /** The developer's API key (server-side only). Without it, the login must ask for `game:view:ownership`. */
  apiKey?: string | undefined;
  /** Refuse the login itself (403 `not_owner`) to a player who does not own the game. */
  requireOwnership?: boolean | undefined;
}

export interface DemoBackendOptions {
  /** The itch.io site (or the emulator's `url`). */
  baseUrl: string;
  /** Where the token is checked: `https://api.itch.io` (or the emulator's `apiUrl`). */
  apiBaseUrl: string;
  /** The OAuth application's id: tokens issued to any other application are refused. */
  applicationId: number;
  /**
   * The site's public origin behind a tunnel (e.g. `https://abc.trycloudflare.com`). Without it the
   * demo is on loopback, whose own address is its origin.
   */
  origin?: string | undefined;
  /**
   * Pass the players' itch.io avatar addresses on to the pages. Off with the emulator, whose
   * avatar addresses point nowhere (the pages show a monogram instead of a failed image).
   */
  avatars?: boolean | undefined;
  /**
   * The origin of the browser game, framed on the site from another site (as itch.io frames
   * HTML5 games from itch.zone): it logs in through a popup and gets a game token, not a cookie
   * (a cookie set for the site is third-party in the frame), and saves progress with it.
   */
  gameOrigin?: string | undefined;
  /**
   * The secrets that encrypt the session cookies and sign the game tokens (each at least 32
   * characters; the first signs, all are accepted). Default: one random secret made at start,
   * so restarting the demo signs everyone out (`demo/serve.ts` passes `ITCH_SESSION_SECRET`).
   */
  sessionSecrets?: readonly string[] | undefined;
  /** The owners-only vault; without it, the vault page says it is not set up. */
  vault?: VaultSettings | undefined;
  /**
   * When the game's login window has no opener to check (the game framed on a cross-origin
   * isolated page, see /isolated.html): the player confirms a code (default), or the login fails.
   */
  severedOpener?: 'confirm' | 'refuse' | undefined;
}

/**
 * `POST /auth/itch` (the capture's `data-backend`), `GET /api/session` (204 No Content when nobody
 * is signed in: not an error, so the pages' probe leaves the browser console clean), `POST /logout`,
 * the vault, the framed game's API (`/api/game/*`, with its game token) and the keys that verify
 * game tokens (`/.well-known/jwks.json`, RFC 7517 section 5).
 */
export function createDemoBackend(options: DemoBackendOptions): Hono {
  const { gameOrigin, vault } = options;
  const sessions = createSessions({
    // 32 random bytes (256 bits) unless the secret is given: see `sessionSecrets`.
    secrets: options.sessionSecrets ?? [randomBytes(32).toString('base64url')],
    // Logins started by the framed game get a game token, never the site's cookie.
    allowedOrigins: gameOrigin === undefined ? [] : [gameOrigin],
    origin: options.origin,
    // Revocations in memory: "Log out" ends the session on the server too, not only in the
    // browser that asked (a copy of the cookie is then refused). A restart forgets them.
    store: createStorage(),
  });

  /** The game's saves by itch.io user id: they follow the player to every visit. */
  const progress = new Map<number, unknown>();
  const ownsGame = (owns: Owns | undefined): boolean => vault !== undefined && owns?.[vault.gameId] === true;
  /** The vault for an owner; for the others, the refusal the token handler would give (`not_owner`) and where to buy. */
  const openVault = (owns: Owns | undefined): Response => {
    if (vault === undefined) return Response.json({ errors: ['the vault is not set up on this demo'] }, { status: 404 });
    if (!ownsGame(owns))
      return Response.json(
        { errors: ['the vault is for owners of the game'], code: 'not_owner', storeUrl: vault.storeUrl },
        { status: 403 },
      );
    return Response.json(VAULT);
  };

  const receiveToken = createTokenHandler({
    baseUrl: options.baseUrl,
    apiBaseUrl: options.apiBaseUrl,
    applicationId: options.applicationId,
    popup: { severedOpener: options.severedOpener ?? 'confirm' },
    origin: options.origin,
    allowedOrigins: gameOrigin === undefined ? [] : [gameOrigin],
    // Checked once per login with itch.io, the developer's key staying here on the server.
    ownership: vault === undefined ? undefined : { gameIds: [vault.gameId], apiKey: vault.apiKey, require: vault.requireOwnership },
    // Where the browser proved the login started decides the session, never a header of this
    // request: the framed game's logins (and those confirmed by a code, which any page can show)
    // get `{ user, owns, gameToken }`; the site's own pages get the cookie.
    onLogin: sessions.onLogin,
  });

  const app = new Hono();
  app.use('*', async (c, next) => {
    await next();
    c.header('Cache-Control', 'no-store');
  });

  // GET: the popup's start page; POST: the token, the start page's binding and the collection; OPTIONS: CORS.
  app.on(['GET', 'POST', 'OPTIONS'], '/auth/itch', (c) => receiveToken(c.req.raw));

  // The framed game's saves and vault level, with its game token (`route` answers the game
  // origin's CORS preflights and refuses a request without a valid token: 401).
  const gameProgress = sessions.route({ allow: ['game'] }, async (request, session) => {
    if (request.method === 'PUT') {
      const body = (await request.json().catch(() => ({}))) as { progress?: unknown };
      progress.set(session.user.id, body.progress ?? null);
    }
    return Response.json({ progress: progress.get(session.user.id) ?? null });
  });
  // A save is read no further than 2 KiB (Hono's bodyLimit: told by Content-Length, or counted).
  const saveLimit = bodyLimit({ maxSize: 2048, onError: (c) => c.json({ errors: ['the body is larger than 2 KiB'] }, 413) });
  app.on(['GET', 'PUT', 'OPTIONS'], '/api/game/progress', saveLimit, (c) => gameProgress(c.req.raw));
  const gameVault = sessions.route({ allow: ['game'] }, (_request, session) => openVault(session.owns));
  app.on(['GET', 'OPTIONS'], '/api/game/vault', (c) => gameVault(c.req.raw));
  // A fresh game token for a valid one, before it expires (never past the session's `maxAge`).
  app.on(['POST', 'OPTIONS'], '/api/game/renew', (c) => sessions.renew(c.req.raw));
  // Anyone can check a game token with these public keys alone (RFC 7517 section 5, JWK Set).
  app.get('/.well-known/jwks.json', async (c) => c.json(await sessions.jwks()));

  // The site's vault page asks here: the content never ships in the page itself.
  app.get('/api/vault', async (c) => {
    const session = await sessions.get(c.req.raw);
    return session === undefined ? c.json({ errors: ['not signed in'] }, 401) : openVault(session.owns);
  });

  app.get('/api/session', async (c) => {
    const session = await sessions.get(c.req.raw);
    if (session === undefined) return c.body(null, 204);
    const { cover_url: avatar, ...user } = session.user;
    const info: SessionInfo = {
      user: options.avatars === true && avatar !== undefined ? { ...user, cover_url: avatar } : user,
      scopes: session.scopes,
      signedInAt: session.issuedAt.toISOString(),
      ownsGame: vault === undefined ? undefined : ownsGame(session.owns),
    };
    return c.json(info);
  });

  // A plain form POST (works without JavaScript). `logout` refuses one from another origin (403)
  // and answers 204 with the cookie's removal, which the redirect back home carries (303 See
  // Other: the browser follows it with a GET, RFC 9110 section 15.4.4).
  app.post('/logout', async (c) => {
    const answer = await sessions.logout(c.req.raw);
    if (!answer.ok) return answer;
    const home = c.redirect('/', 303);
    for (const cookie of answer.headers.getSetCookie()) home.headers.append('Set-Cookie', cookie);
    return home;
  });

  return app;
}
