/*
 * Game tokens: what a game framed on another site (itch.io serves HTML5 games from itch.zone)
 * holds instead of the site's cookie, which is third-party there. A signed JWT (RFC 7519) that
 * any JWT library verifies with the public keys of `jwks()` alone, bound to the game's DPoP key
 * by `cnf.jkt` (RFC 9449 section 6.1; see ./dpop.ts) and sent as `Authorization: DPoP`. Signed, not encrypted: the game may read it, so it holds nothing
 * that the login's answer did not already show the game, and never the itch.io access token.
 */
import { base64url, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import type { SigningKey } from './keys.js';
import { isSessionClaims, type SessionClaims } from './session.js';

/** Ed25519 (RFC 8037 section 3.1); `EdDSA` is the name every JOSE library knows it by. */
export const GAME_TOKEN_ALG = 'EdDSA';

/**
 * Signs a game token with the first key. `iss` and `aud` are both the site's origin (the token
 * handler's request URL), so that a verifier can check the token was made by and for this site
 * (RFC 8725 sections 3.8 and 3.9); `typ` is `JWT` and `kid` names the key in `jwks()`.
 */
export async function signGameToken(claims: SessionClaims, origin: string, keys: readonly SigningKey[]): Promise<string> {
  const { kid, privateKey } = keys[0]!;
  return new SignJWT({ ...claims } as unknown as JWTPayload)
    .setProtectedHeader({ alg: GAME_TOKEN_ALG, typ: 'JWT', kid })
    .setIssuer(origin)
    .setAudience(origin)
    .setJti(base64url.encode(crypto.getRandomValues(new Uint8Array(12))))
    .sign(privateKey);
}

/**
 * The claims of a game token, if it is signed by one of the keys with `EdDSA` (no other
 * algorithm is tried, so neither `alg: none` nor an HMAC made with the public key passes:
 * RFC 8725 section 3.1), has `typ: JWT`, was issued by and for `origin`, has not expired, and
 * its `iat` is not in the future nor older than `maxAge`. Else `undefined`.
 */
export async function verifyGameToken(
  token: string,
  keys: readonly SigningKey[],
  options: { origin: string; maxAge: number; clockTolerance: number },
): Promise<SessionClaims | undefined> {
  try {
    const { payload } = await jwtVerify(
      token,
      (header) => {
        const match = keys.find((candidate) => candidate.kid === header.kid);
        if (match === undefined) throw new Error('unknown key');
        return match.publicKey;
      },
      {
        algorithms: [GAME_TOKEN_ALG],
        typ: 'JWT',
        issuer: options.origin,
        audience: options.origin,
        maxTokenAge: options.maxAge,
        clockTolerance: options.clockTolerance,
        requiredClaims: ['exp', 'iat', 'sub', 'sid'],
      },
    );
    return isSessionClaims(payload) ? payload : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The game token of an `Authorization` header, `Bearer` (RFC 6750 section 2.1) or `DPoP`
 * (RFC 9449 section 7.1), if it has the shape of a JWS.
 */
export function readAuthorization(request: Request): { scheme: 'Bearer' | 'DPoP'; token: string } | undefined {
  const match = /^(Bearer|DPoP) +([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/i.exec(request.headers.get('authorization') ?? '');
  if (match === null) return undefined;
  return { scheme: match[1]!.toLowerCase() === 'dpop' ? 'DPoP' : 'Bearer', token: match[2]! };
}
