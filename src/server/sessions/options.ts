/*
 * createSessions' options, checked and with their defaults, once, at creation: every bad option
 * is a `TypeError` that names it. The checked settings are the only thing the sessions' parts
 * receive.
 */
import type { Storage } from 'unstorage';
import type { CorsPolicy } from '../http/cors.js';
import { ownOrigin, type OwnOrigin } from '../http/own-origin.js';
import { parseAllowedOrigins } from '../http/request-guard.js';
import { createProofReplay, type ProofReplay } from './dpop.js';
import { assertSecrets } from './keys.js';
import { createRevocations, type Revocations } from './revocation.js';

/**
 * The options of `createSessions`: its secrets, the site's origin, lifetimes and the revocation store.
 * @group Sessions
 */
export interface SessionsOptions {
  /**
   * The deployment's secrets, each at least 32 characters (e.g. `openssl rand -base64 32`). The
   * first encrypts cookies and signs game tokens; all of them are accepted, so a new secret is
   * put first and the old one removed once its sessions have expired (`maxAge`). Every instance
   * given the same secrets derives the same keys.
   */
  secrets: readonly string[];
  /** Site session lifetime in seconds; also the latest a game token can be renewed to after its login. Default 7 days. */
  maxAge?: number | undefined;
  /** Game token lifetime in seconds (renew it with `renew`). Default 1 hour. */
  gameTokenMaxAge?: number | undefined;
  /**
   * Keep the itch.io access token in the site cookie (encrypted with the rest), as
   * `session.token`, for the app's own calls to itch.io. Default `false`: the token is dropped
   * once the login is verified. Never in a game token, which the game can read.
   */
  keepToken?: boolean | undefined;
  /**
   * Any `unstorage` `Storage` (e.g. Redis) that all instances share, making `logout` revoke the
   * session everywhere: every instance then refuses its cookie and its game tokens until they
   * would have expired. `get` and `renew` then ask the store once per call.
   *
   * Without it, sessions are stateless: `logout` only removes the cookie from the browser that
   * asked, and a copy of that cookie, or a game token, stays valid until its `exp` (`maxAge`
   * for a cookie, `gameTokenMaxAge` for a game token; a game token cannot be renewed past
   * `maxAge` after its login).
   */
  store?: Storage | undefined;
  /**
   * Origins whose logins get a game token instead of a cookie, and whose requests `route` and
   * `renew` answer with CORS: the framed games' origins (often the token handler's
   * `allowedOrigins`, without the site's own public origin, whose logins must get a cookie).
   */
  allowedOrigins?: readonly string[] | undefined;
  /**
   * This site's public origin as the browser sees it, e.g. `https://example.com` (the token
   * handler's `origin`): only a login started there gets the site cookie; `__Host-itch-session`
   * on https, the plain `itch-session` only on an http origin (never issued nor read for an https
   * one); the same-origin check of unsafe methods; game tokens' `iss` and `aud`. Never taken from
   * `request.url` or `Host`. Without it, as the token handler: requests on loopback (local
   * development) take their own address's origin, any other is refused.
   */
  origin?: string | undefined;
  /**
   * How game tokens are tied to the game's key (DPoP, RFC 9449). `'required'` (the default): a
   * game login gets a game token only with a `DPoP` proof (without one it is answered who logged
   * in, and no token), the token is bound to the proof's key
   * (`cnf.jkt`) and counts only as `Authorization: DPoP` with a fresh proof of each request, so a
   * copy read out of the game's storage is worthless elsewhere; `gameSession()` does all this.
   * `'optional'` is weaker, for clients you wrote yourself: a proof binds, but a login without
   * one gets an unbound token that counts as `Authorization: Bearer`, which anyone who reads it
   * can use until it expires.
   */
  dpop?: 'required' | 'optional' | undefined;
}

/** The options, checked and with their defaults. */
export interface SessionsSettings {
  secrets: readonly string[];
  maxAge: number;
  gameTokenMaxAge: number;
  keepToken: boolean;
  /** The games' origins: their logins get a game token, their requests CORS. */
  cors: CorsPolicy;
  /** The site's own origin for a request (see ../http/own-origin.ts). */
  ownOrigin: OwnOrigin;
  /** `undefined`: stateless, no revocation. */
  revocations: Revocations | undefined;
  dpop: 'required' | 'optional';
  /** The `jti`s of accepted DPoP proofs: in the store when it has an atomic set-if-absent, else in memory. */
  replay: ProofReplay;
}

const DAY_S = 24 * 60 * 60;

/**
 * Checks the options and fills in their defaults.
 * @throws TypeError naming the option that is malformed.
 */
export function readSessionsOptions(options: SessionsOptions): SessionsSettings {
  if (typeof options !== 'object' || options === null) throw new TypeError('createSessions needs an options object');
  const keepToken = options.keepToken ?? false;
  if (typeof keepToken !== 'boolean') throw new TypeError('keepToken must be a boolean');
  const dpop = options.dpop ?? 'required';
  if (dpop !== 'required' && dpop !== 'optional') throw new TypeError('dpop must be "required" or "optional"');
  return {
    secrets: assertSecrets(options.secrets),
    maxAge: seconds(options.maxAge ?? 7 * DAY_S, 'maxAge'),
    gameTokenMaxAge: seconds(options.gameTokenMaxAge ?? 60 * 60, 'gameTokenMaxAge'),
    keepToken,
    cors: {
      allowed: parseAllowedOrigins(options.allowedOrigins ?? []),
      methods: 'GET, HEAD, POST, PUT, PATCH, DELETE',
      headers: 'Authorization, Content-Type, DPoP',
      // For the game to read: why a game token was refused (RFC 9449 section 7.1), and when a
      // player past its share of proofs may try again.
      expose: 'WWW-Authenticate, Retry-After, DPoP-Nonce',
    },
    ownOrigin: ownOrigin(options.origin, 'createSessions'),
    revocations: createRevocations(options.store),
    dpop,
    replay: createProofReplay(options.store),
  };
}

function seconds(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value <= 0) throw new TypeError(`${name} must be a positive whole number of seconds`);
  return value;
}
