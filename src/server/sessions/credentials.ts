/*
 * What a request carries, read and verified: the site's origin it is judged by, the site cookie's
 * claims and a game token's, with its DPoP proof (./dpop.ts). Each verified credential is kept for a short while, so that the
 * same cookie or token is decrypted or verified once, not at every request.
 */
import { missingOrigin } from '../http/own-origin.js';
import { checkProof, type DpopError, type ProofReplay } from './dpop.js';
import { nonceHolds } from './dpop-nonce.js';
import { readAuthorization, verifyGameToken } from './game-token.js';
import { deriveKeys, type DeploymentKeys } from './keys.js';
import type { SessionsSettings } from './options.js';
import type { SessionClaims } from './session.js';
import { openCookie, PLAIN_COOKIE, readCookie, SECURE_COOKIE, type CookieClaims } from './site-cookie.js';
import { createVerifiedCache } from './verified-cache.js';

/** Seconds of clock difference tolerated between instances (RFC 7519 section 4.1.4 "small leeway"). */
export const CLOCK_TOLERANCE_S = 30;

/** A request's game token: its claims, or why it does not count. */
export type GameCredential = { claims: SessionClaims } | { error: DpopError; why: string };

/** The readers of a request's credentials, and what the sessions' members share. */
export interface Credentials {
  /** The deployment's keys (Web Crypto is asynchronous: derived once, on first use). */
  keys(): Promise<DeploymentKeys>;
  /** The site's origin for this request; throws a TypeError where it is neither configured nor loopback. */
  own(request: Request): string;
  /** The site cookie's claims, when it carries a valid one. */
  cookieClaims(request: Request): Promise<CookieClaims | undefined>;
  /**
   * The game token's claims, when `Authorization` carries a valid one, as its binding wants it: a
   * token bound to a key (`cnf.jkt`) as `DPoP` with a proof of this request signed by that key; an
   * unbound one only under `dpop: 'optional'`, as `Bearer`. Else why not, as RFC 9449 section 7.1 names it.
   */
  gameClaims(request: Request): Promise<GameCredential>;
  /** Whether a session was revoked (never, without a store). */
  revoked(sid: string): Promise<boolean>;
}

export function createCredentials(settings: SessionsSettings): Credentials {
  const { maxAge, gameTokenMaxAge, revocations } = settings;
  let derived: Promise<DeploymentKeys> | undefined;
  const keys = () => (derived ??= deriveKeys(settings.secrets));
  const own = (request: Request): string => {
    const origin = settings.ownOrigin(request);
    if (origin === undefined) throw new TypeError(missingOrigin('createSessions'));
    return origin;
  };

  const openedCookies = createVerifiedCache<CookieClaims>();
  const cookieClaims = async (request: Request): Promise<CookieClaims | undefined> => {
    const host = own(request).startsWith('https:');
    const value = readCookie(request, host);
    if (value === undefined) return undefined;
    // The cookie's name is part of the key: a __Host- value planted under the plain name is not found.
    const key = `${host ? SECURE_COOKIE : PLAIN_COOKIE}=${value}`;
    const known = openedCookies.get(key);
    if (known !== undefined) return known;
    const claims = await openCookie(value, (await keys()).cookie, { host, maxAge, clockTolerance: CLOCK_TOLERANCE_S });
    if (claims !== undefined) openedCookies.set(key, claims);
    return claims;
  };

  const verifiedTokens = createVerifiedCache<SessionClaims>();
  const gameClaims = async (request: Request): Promise<GameCredential> => {
    const presented = readAuthorization(request);
    if (presented === undefined) return { error: 'invalid_token', why: 'no game token in Authorization' };
    const { scheme, token } = presented;
    // The origin is part of the key: a token is valid only where its `aud` is.
    const origin = own(request);
    const key = `${origin} ${token}`;
    // The token and its proof are checked at once: a bound token's request costs one wait, not two.
    const verified =
      verifiedTokens.get(key) ??
      keys().then(({ signing }) => verifyGameToken(token, signing, { origin, maxAge: gameTokenMaxAge, clockTolerance: CLOCK_TOLERANCE_S }));
    // A proof uses up room among the remembered jtis only beside a valid token bound to its key:
    // otherwise anyone could fill that room with proofs of a key of their own beside a made-up
    // token, and the players' proofs would then be refused. Any other proof is refused below
    // (the token, or the key it is bound to), so it need not be remembered.
    const replay: ProofReplay = async (proofKey, until) => {
      const claims = await verified;
      const jkt = claims?.cnf?.jkt;
      return jkt === undefined || !proofKey.startsWith(`${jkt}.`) || settings.replay(proofKey, until, claims!.sub);
    };
    // A proof beside a token carries a nonce this deployment made in the last minutes, so that no
    // proof of it can have been made ahead of time (./dpop-nonce.ts).
    const nonce = async (value: unknown) => nonceHolds((await keys()).nonce, value);
    const [claims, proof] = await Promise.all([
      verified,
      scheme === 'DPoP' ? checkProof(request, origin, replay, token, nonce) : undefined,
    ]);
    if (claims === undefined) return { error: 'invalid_token', why: 'the game token is invalid or has expired' };
    verifiedTokens.set(key, claims);
    const jkt = claims.cnf?.jkt;
    if (jkt === undefined) {
      if (settings.dpop === 'optional' && scheme === 'Bearer') return { claims };
      return { error: 'invalid_token', why: 'the game token is not bound to a key (DPoP)' };
    }
    // A copy of a bound token, without the key, is worth nothing: not as Bearer, not without a proof.
    if (proof === undefined)
      return { error: 'invalid_token', why: 'a game token bound to a key is sent as Authorization: DPoP, with its proof' };
    if ('error' in proof) return proof;
    if (proof.jkt !== jkt)
      return { error: 'invalid_dpop_proof', why: 'the DPoP proof is signed by another key than the token is bound to' };
    return { claims };
  };

  const revoked = async (sid: string) => revocations !== undefined && (await revocations.isRevoked(sid));
  return { keys, own, cookieClaims, gameClaims, revoked };
}
