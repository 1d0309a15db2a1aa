// The game site's backend: it receives the access token from the callback page, verifies it with
// itch.io (credentials/info, then the profile), and keeps a server-side session behind an HttpOnly
// cookie. The token never goes back to the browser.
import { randomBytes } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { deleteCookie, generateCookie, getCookie } from 'hono/cookie';
import { parse as parseCookies, type CookieOptions } from 'hono/utils/cookie';
import { cors } from 'hono/cors';
import { csrf } from 'hono/csrf';
import { createTokenHandler, type User } from '../../src/server/index.js';

/** The paths the backend answers; everything else is the site's pages. */
export const BACKEND_PATHS = ['/auth/itch', '/api/session', '/logout', '/api/game/progress'] as const;

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
}

/** What `GET /api/session` answers for a signed-in user. */
export interface SessionInfo {
  user: User;
  scopes: string[];
  /** ISO 8601 time of the login. */
  signedInAt: string;
}

export interface DemoBackendOptions {
  /** The itch.io site (or the emulator's `url`). */
  baseUrl: string;
  /** Where the token is checked: `https://api.itch.io` (or the emulator's `apiUrl`). */
  apiBaseUrl: string;
  /** The OAuth application's id: tokens issued to any other application are refused. */
  applicationId?: number | undefined;
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
}

/**
 * `POST /auth/itch` (the capture's `data-backend`), `GET /api/session` (204 No Content when nobody
 * is signed in: not an error, so the pages' probe leaves the browser console clean), `POST /logout`.
 * Sessions live in memory: restarting the demo signs everyone out.
 */
export function createDemoBackend(options: DemoBackendOptions): Hono {
  const sessions = new Map<string, Session>();
  const cookieOptions = (request: Request): CookieOptions => ({
    httpOnly: true,
    sameSite: 'Lax',
    path: '/',
    secure: new URL(request.url).protocol === 'https:',
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
  const { gameOrigin } = options;
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
    onLogin({ user, scopes, token, request }) {
      // The framed game collecting its popup login: a session token in the answer.
      if (gameOrigin !== undefined && request.headers.get('origin') === gameOrigin) {
        const id = randomBytes(32).toString('base64url');
        gameSessions.set(id, { user, createdAt: Date.now() });
        return new Response(JSON.stringify({ user: { id: user.id, username: user.username, display_name: user.display_name }, gameSession: id }), {
          headers: { 'Content-Type': 'application/json' },
        });
      }
      // A new id on every login (no session fixation); the old session, if any, ends.
      const previous = parseCookies(request.headers.get('cookie') ?? '', SESSION_COOKIE)[SESSION_COOKIE];
      if (previous !== undefined) sessions.delete(previous);
      const id = randomBytes(32).toString('base64url');
      sessions.set(id, { user, scopes, token, createdAt: Date.now() });
      return { headers: { 'Set-Cookie': generateCookie(SESSION_COOKIE, id, { ...cookieOptions(request), maxAge: SESSION_LIFETIME_S }) } };
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

  app.get('/api/session', (c) => {
    const session = sessionOf(c);
    if (session === undefined) return c.body(null, 204);
    const { cover_url: avatar, ...user } = session.user;
    const info: SessionInfo = {
      user: options.avatars === true && avatar !== undefined ? { ...user, cover_url: avatar } : user,
      scopes: session.scopes,
      signedInAt: new Date(session.createdAt).toISOString(),
    };
    return c.json(info);
  });

  // A plain form POST (works without JavaScript); csrf() refuses one sent from another site.
  app.post('/logout', csrf(), (c) => {
    const id = getCookie(c, SESSION_COOKIE);
    if (id !== undefined) sessions.delete(id);
    deleteCookie(c, SESSION_COOKIE, cookieOptions(c.req.raw));
    return c.redirect('/', 303);
  });

  return app;
}
