/*
 * What a session is, as `get` hands it to the app, and the claims both of its carriers hold:
 * the encrypted site cookie and the signed game token.
 */
import { base64url } from 'jose';
import type { Owns } from '../token-handler/ownership.js';
import type { User } from '../itch-api/login-schemas.js';

/**
 * A signed-in user, as `sessions.get(request)` finds them.
 * @group Sessions
 */
export interface Session {
  /** The itch.io profile of the user at login. */
  user: User;
  /** With the token handler's `ownership` option: which games the user owned at login. */
  owns?: Owns;
  /** The scopes of the itch.io access token at login. */
  scopes: string[];
  /** What carried it: the site cookie, or a game token (`Authorization: Bearer`). */
  via: 'cookie' | 'game';
  /** When the user logged in (for a game token, the login it was first issued for, not its renewal). */
  issuedAt: Date;
  /** When this cookie or this game token stops being accepted. */
  expiresAt: Date;
  /** The itch.io access token: only with `keepToken: true`, and only through the cookie. */
  token?: string;
}

/**
 * The claims of both carriers (RFC 7519 section 4): `sub` the itch.io user id, `iat` when the
 * carrier was made, `exp`, `sid` the session id that `logout` revokes (the OpenID Connect name),
 * `auth_time` when the user logged in (idem), `scope` space-separated (RFC 8693 section 4.2),
 * `user` and `owns` as at login; in a game token bound to a key, `cnf.jkt` its RFC 7638 thumbprint
 * (RFC 9449 section 6.1).
 */
export interface SessionClaims {
  sub: string;
  iat: number;
  exp: number;
  sid: string;
  auth_time: number;
  scope: string;
  user: User;
  owns?: Owns;
  cnf?: { jkt: string };
}

/** A random session id: 128 bits in base64url. */
export function newSessionId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return base64url.encode(bytes);
}

/** Whether a decrypted or verified payload has the claims a session needs, of the right types. */
export function isSessionClaims(payload: Record<string, unknown>): payload is Record<string, unknown> & SessionClaims {
  const { sub, iat, exp, sid, auth_time: authTime, scope, user, owns, cnf } = payload;
  return (
    typeof sub === 'string' &&
    typeof iat === 'number' &&
    typeof exp === 'number' &&
    typeof sid === 'string' &&
    typeof authTime === 'number' &&
    typeof scope === 'string' &&
    typeof user === 'object' &&
    user !== null &&
    String((user as { id?: unknown }).id) === sub &&
    (owns === undefined || (typeof owns === 'object' && owns !== null)) &&
    (cnf === undefined || typeof (cnf as { jkt?: unknown } | null)?.jkt === 'string')
  );
}

/** The `Session` of verified claims. */
export function sessionOf(claims: SessionClaims, via: Session['via'], token?: string): Session {
  const session: Session = {
    user: claims.user,
    scopes: claims.scope === '' ? [] : claims.scope.split(' '),
    via,
    issuedAt: new Date(claims.auth_time * 1000),
    expiresAt: new Date(claims.exp * 1000),
  };
  if (claims.owns !== undefined) session.owns = claims.owns;
  if (token !== undefined) session.token = token;
  return session;
}
