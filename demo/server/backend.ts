// The game site's backend: it receives the access token from the callback page, verifies it with
// itch.io (credentials/info, then the profile), and keeps a server-side session behind an HttpOnly
// cookie. The token never goes back to the browser.
import { randomBytes } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { deleteCookie, generateCookie, getCookie } from 'hono/cookie';
import { parse as parseCookies, type CookieOptions } from 'hono/utils/cookie';
import { cors } from 'hono/cors';
import { csrf } from 'hono/csrf';
import { createTokenHandler, type Owns, type User } from '../../src/server/index.js';
import { VAULT } from './vault.js';

/** The paths the backend answers; everything else is the site's pages. */
export const BACKEND_PATHS = ['/auth/itch', '/api/session', '/logout', '/api/game/progress', '/api/vault', '/api/game/vault'] as const;

/** The session cookie: an opaque random id, nothing else. */
export const SESSION_COOKIE = 'starfall_session';

/** How long a session lasts without a new login. */
const SESSION_LIFETIME_S = 7 * 24 * 60 * 60;

interface Session {
  user: User;
  scopes: string[];
  /** Kept for the site's own later API calls; never sent to the browser. */
  token: string;
  createdAt: number;
  /** Which of the vault's games the player owned at login (empty without `vault`). */
  owns: Owns;
}

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
   * The site's own origins, as its visitors' browsers see them: only a login started from one of
   * them (`startedFrom`) gets the site's session cookie; the first one decides `Secure`.
   */
  siteOrigins: readonly string[];
  /** Origins that may POST the token, when the public origin differs from the request's own. */
  allowedOrigins?: readonly string[] | undefined;
  /**
   * Pass the players' itch.io avatar addresses on to the pages. Off with the emulator, whose
   * avatar addresses point nowhere (the pages show a monogram instead of a failed image).
   */
  avatars?: boolean | undefined;
  /**
   * The origin of the browser game, framed on the site from another site (as itch.io frames
   * HTML5 games from itch.zone): it logs in through a popup and gets a session token, not a
   * cookie (a cookie set for the site is third-party in the frame), and saves progress with it.
   */
  gameOrigin?: string | undefined;
  /** The owners-only vault; without it, the vault page says it is not set up. */
  vault?: VaultSettings | undefined;
  /**
   * When the game's login window has no opener to check (the game framed on a cross-origin
   * isolated page, see /isolated.html): the player confirms a code (default), or the login fails.
   */
  severedOpener?: 'confirm' | 'refuse' | undefined;
}

/** A game session: the framed game saves with its Bearer token. */
interface GameSession {
  user: User;
  createdAt: number;
  owns: Owns;
}

/**
 * `POST /auth/itch` (the capture's `data-backend`), `GET /api/session` (204 No Content when nobody
 * is signed in: not an error, so the pages' probe leaves the browser console clean), `POST /logout`.
 * Sessions live in memory: restarting the demo signs everyone out.
 */
export function createDemoBackend(options: DemoBackendOptions): Hono {
  const sessions = new Map<string, Session>();
  // Secure from the site's configured origin: behind a proxy that ends TLS, the request's own
  // address is plain http although the browser's is not.
  const cookieOptions = (): CookieOptions => ({
    httpOnly: true,
    sameSite: 'Lax',
    path: '/',
    secure: options.siteOrigins[0]?.startsWith('https:') === true,
  });
  const sessionOf = (c: Context): Session | undefined => {
    const id = getCookie(c, SESSION_COOKIE);
    const session = id === undefined ? undefined : sessions.get(id);
    if (id !== undefined && session !== undefined && Date.now() - session.createdAt > SESSION_LIFETIME_S * 1000) {
      sessions.delete(id);
      return undefined;
    }
    return session;
  };

  const gameSessions = new Map<string, GameSession>();
  /** The game's saves by itch.io user id: they follow the player to every visit. */
  const progress = new Map<number, unknown>();
  const { gameOrigin, vault } = options;
  const ownsGame = (owns: Owns): boolean => vault !== undefined && owns[vault.gameId] === true;
  /** The vault for an owner; for the others, the refusal the token handler would give (`not_owner`) and where to buy. */
  const openVault = (c: Context, owns: Owns | undefined) => {
    if (owns === undefined) return c.json({ errors: ['not signed in'] }, 401);
    if (vault === undefined) return c.json({ errors: ['the vault is not set up on this demo'] }, 404);
    if (!ownsGame(owns)) return c.json({ errors: ['the vault is for owners of the game'], code: 'not_owner', storeUrl: vault.storeUrl }, 403);
    return c.json(VAULT);
  };
  const gameSessionOf = (c: Context): GameSession | undefined => {
    const id = /^Bearer ([A-Za-z0-9_-]{43})$/.exec(c.req.header('authorization') ?? '')?.[1];
    const session = id === undefined ? undefined : gameSessions.get(id);
    return session !== undefined && Date.now() - session.createdAt < SESSION_LIFETIME_S * 1000 ? session : undefined;
  };

  const receiveToken = createTokenHandler({
    baseUrl: options.baseUrl,
    apiBaseUrl: options.apiBaseUrl,
    applicationId: options.applicationId,
    popup: { severedOpener: options.severedOpener ?? 'confirm' },
    allowedOrigins: [...(options.allowedOrigins ?? []), ...(gameOrigin === undefined ? [] : [gameOrigin])],
    // Checked once per login with itch.io, the developer's key staying here on the server.
    ownership: vault === undefined ? undefined : { gameIds: [vault.gameId], apiKey: vault.apiKey, require: vault.requireOwnership },
    onLogin({ user, scopes, token, request, owns = {}, startedFrom }) {
      // Where the browser proved the login started decides the session, never a header of this
      // request: a login started by the framed game (or confirmed by a code, which any page can
      // show) gets the game's narrow session token; only the site's own pages get the site cookie.
      if (startedFrom === null || !options.siteOrigins.includes(startedFrom)) {
        const id = randomBytes(32).toString('base64url');
        gameSessions.set(id, { user, createdAt: Date.now(), owns });
        const player = { id: user.id, username: user.username, display_name: user.display_name };
        return new Response(JSON.stringify({ user: player, gameSession: id, ownsGame: ownsGame(owns) }), {
          headers: { 'Content-Type': 'application/json' },
        });
      }
      // A new id on every login (no session fixation); the old session, if any, ends.
      const previous = parseCookies(request.headers.get('cookie') ?? '', SESSION_COOKIE)[SESSION_COOKIE];
      if (previous !== undefined) sessions.delete(previous);
      const id = randomBytes(32).toString('base64url');
      sessions.set(id, { user, scopes, token, createdAt: Date.now(), owns });
      return { headers: { 'Set-Cookie': generateCookie(SESSION_COOKIE, id, { ...cookieOptions(), maxAge: SESSION_LIFETIME_S }) } };
    },
  });

  const app = new Hono();
  app.use('*', async (c, next) => {
    await next();
    c.header('Cache-Control', 'no-store');
  });

  // GET: the popup's start page; POST: the token, the start page's binding and the collection; OPTIONS: CORS.
  app.on(['GET', 'POST', 'OPTIONS'], '/auth/itch', (c) => receiveToken(c.req.raw));

  // The framed game's saves, with its session token (CORS for the game's origin only).
  app.use(
    '/api/game/*',
    cors({ origin: (origin) => (origin === gameOrigin ? origin : null), allowMethods: ['GET', 'PUT'], allowHeaders: ['Authorization', 'Content-Type'], maxAge: 600 }),
  );
  app.get('/api/game/progress', (c) => {
    const session = gameSessionOf(c);
    if (session === undefined) return c.json({ errors: ['not signed in'] }, 401);
    return c.json({ progress: progress.get(session.user.id) ?? null });
  });
  app.put('/api/game/progress', async (c) => {
    const session = gameSessionOf(c);
    if (session === undefined) return c.json({ errors: ['not signed in'] }, 401);
    const body = await c.req.json<{ progress?: unknown }>().catch(() => ({}) as { progress?: unknown });
    if (JSON.stringify(body.progress ?? null).length > 2048) return c.json({ errors: ['progress is larger than 2 KiB'] }, 413);
    progress.set(session.user.id, body.progress ?? null);
    return c.json({ progress: progress.get(session.user.id) });
  });
  // The game's owners-only feature: the vault level, for the game session of an owner.
  app.get('/api/game/vault', (c) => openVault(c, gameSessionOf(c)?.owns));

  // The site's vault page asks here: the content never ships in the page itself.
  app.get('/api/vault', (c) => openVault(c, sessionOf(c)?.owns));

  app.get('/api/session', (c) => {
    const session = sessionOf(c);
    if (session === undefined) return c.body(null, 204);
    const { cover_url: avatar, ...user } = session.user;
    const info: SessionInfo = {
      user: options.avatars === true && avatar !== undefined ? { ...user, cover_url: avatar } : user,
      scopes: session.scopes,
      signedInAt: new Date(session.createdAt).toISOString(),
      ownsGame: vault === undefined ? undefined : ownsGame(session.owns),
    };
    return c.json(info);
  });

  // A plain form POST (works without JavaScript); csrf() refuses one sent from another site.
  app.post('/logout', csrf(), (c) => {
    const id = getCookie(c, SESSION_COOKIE);
    if (id !== undefined) sessions.delete(id);
    deleteCookie(c, SESSION_COOKIE, cookieOptions());
    return c.redirect('/', 303);
  });

  return app;
}
