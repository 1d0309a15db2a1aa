/*
 * The session a verified login gets, decided by where it was started (`startedFrom`) alone: the
 * site's own origin gets the site cookie; a framed game's origin, or a login confirmed by code,
 * a game token, bound to the key of the request's DPoP proof (./dpop.ts); any other origin nothing.
 */
import type { LoginContext, OnLoginResult } from '../token-handler/on-login.js';
import type { Credentials } from './credentials.js';
import { checkProof, dpopRefusal } from './dpop.js';
import { currentNonce } from './dpop-nonce.js';
import { storeRefusal } from './endpoints.js';
import { signGameToken } from './game-token.js';
import type { SessionsSettings } from './options.js';
import { newSessionId, type SessionClaims } from './session.js';
import { sealCookie, sessionCookie, type CookieClaims } from './site-cookie.js';

/** Browsers keep at least 4096 bytes per cookie (RFC 6265bis section 5.7); beyond, they drop it silently. */
const MAX_COOKIE_BYTES = 4096;

/** `sessions.onLogin`, for `createTokenHandler({ onLogin })`. */
export function createOnLogin(settings: SessionsSettings, credentials: Credentials) {
  return async ({ user, scopes, token, request, owns, startedFrom }: LoginContext): Promise<OnLoginResult> => {
    const site = credentials.own(request);
    const iat = Math.floor(Date.now() / 1000);
    const claims: SessionClaims = { sub: String(user.id), iat, exp: 0, sid: newSessionId(), auth_time: iat, scope: scopes.join(' '), user };
    if (owns !== undefined) claims.owns = owns;
    const answer = owns === undefined ? { user } : { user, owns };
    if (startedFrom === site) return siteSession(settings, credentials, { claims, token, request, site });

    // Fails closed: a game token only for the games' origins and a code-confirmed login, no
    // session at all for a login started anywhere else.
    if (startedFrom !== null && !settings.cors.allowed.has(startedFrom)) {
      const why = `a login started from ${startedFrom} gets no session: it is neither this site (${site}) nor in createSessions' allowedOrigins`;
      console.warn(`itch-oauth-widget: refused (403): ${why}`);
      return Response.json({ errors: [why] }, { status: 403, headers: { 'Cache-Control': 'no-store' } });
    }
    // No proof where one is required: the login answers who logged in, and issues no game token
    // (one without a binding could be used by whoever copies it; a game that calls the site's API
    // logs in through gameSession(), which proves its key).
    if (!request.headers.has('dpop') && settings.dpop === 'required')
      return Response.json(answer, { headers: { 'Cache-Control': 'no-store' } });
    // The proof of the request that collects the token (the popup collection, or the game's own
    // POST): the token is bound to its key. A bad proof is refused in either mode, never ignored.
    if (request.headers.has('dpop')) {
      // Not a refusal of the player (a 401): wait and try again, as every answer that needs the store.
      const proof = await checkProof(request, site, (key, until) => settings.replay(key, until, claims.sub)).catch(storeRefusal);
      if (proof instanceof Response) return proof;
      if ('error' in proof) {
        console.warn(`itch-oauth-widget: refused (401): no game token for a login started from ${startedFrom}: ${proof.why}`);
        return dpopRefusal(proof.error, proof.why);
      }
      claims.cnf = { jkt: proof.jkt };
    }
    const { gameTokenMaxAge, maxAge } = settings;
    const gameToken = await signGameToken(
      { ...claims, exp: iat + Math.min(gameTokenMaxAge, maxAge) },
      site,
      (await credentials.keys()).signing,
    );
    // With the nonce its first proofs carry (RFC 9449 section 9): no round trip to learn it.
    const nonce = await currentNonce((await credentials.keys()).nonce);
    return Response.json({ ...answer, gameToken }, { headers: { 'Cache-Control': 'no-store', 'DPoP-Nonce': nonce } });
  };
}

/** A login started on the site itself: a new site cookie. */
async function siteSession(
  settings: SessionsSettings,
  credentials: Credentials,
  { claims, token, request, site }: { claims: SessionClaims; token: string; request: Request; site: string },
): Promise<OnLoginResult> {
  const { maxAge, revocations } = settings;
  // A new session id at every login (no session fixation); with a store, the one this browser had ends.
  if (revocations !== undefined) {
    const previous = await credentials.cookieClaims(request);
    if (previous !== undefined) await revocations.revoke(previous.sid, previous.exp);
  }
  const host = site.startsWith('https:');
  const sealed: CookieClaims = { ...claims, exp: claims.iat + maxAge, host };
  if (settings.keepToken) sealed.itch_token = token;
  const cookie = sessionCookie(await sealCookie(sealed, (await credentials.keys()).cookie), host, maxAge);
  if (cookie.length > MAX_COOKIE_BYTES) {
    throw new Error(
      `the session cookie would be ${cookie.length} bytes, more than browsers keep (${MAX_COOKIE_BYTES}): the user's profile or ownership list is too large`,
    );
  }
  return { headers: { 'Set-Cookie': cookie } };
}
