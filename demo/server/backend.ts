// The game site's backend: it receives the access token from the callback page, verifies it with
// itch.io (credentials/info, then the profile), and keeps a server-side session behind an HttpOnly
// cookie. The token never goes back to the browser.
import { randomBytes } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { deleteCookie, generateCookie, getCookie } from 'hono/cookie';
import { parse as parseCookies, type CookieOptions } from 'hono/utils/cookie';
import { csrf } from 'hono/csrf';
import { createTokenHandler, type User } from '../../src/server/index.js';

/** The paths the backend answers; everything else is the site's pages. */
export const BACKEND_PATHS = ['/auth/itch', '/api/session', '/logout'] as const;

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
}

/**
 * `POST /auth/itch` (the capture's `data-backend`), `GET /api/session`, `POST /logout`.
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

  const receiveToken = createTokenHandler({
    baseUrl: options.baseUrl,
    apiBaseUrl: options.apiBaseUrl,
    applicationId: options.applicationId,
    allowedOrigins: options.allowedOrigins,
    onLogin({ user, scopes, token, request }) {
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

  app.post('/auth/itch', (c) => receiveToken(c.req.raw));

  app.get('/api/session', (c) => {
    const session = sessionOf(c);
    if (session === undefined) return c.json({ errors: ['not signed in'] }, 401);
    const info: SessionInfo = { user: session.user, scopes: session.scopes, signedInAt: new Date(session.createdAt).toISOString() };
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
