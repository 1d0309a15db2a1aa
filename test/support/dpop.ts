// DPoP proofs (RFC 9449, https://www.rfc-editor.org/rfc/rfc9449) as a game sends them with its
// requests, for the tests and benchmarks that play the game or attack it: a key pair, and a proof
// of one request by it. Every field a server checks can be set, so that an attack test forges
// exactly the proof it means to (another `iat`, a `jti` seen before, a header that lies).
import { createHash, randomBytes } from 'node:crypto';
import { currentNonce } from '../../src/server/sessions/dpop-nonce.js';
import { deriveKeys } from '../../src/server/sessions/keys.js';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT, type JWK, type KeyInput } from 'jose';

/** What signs a proof: a private key, and the public JWK the proof's header names (an attacker's may name another's). */
export interface DpopSigner {
  privateKey: KeyInput;
  jwk: JWK;
}

/** A game's key pair: ES256, the algorithm gameSession() signs its proofs with. */
export interface DpopKey extends DpopSigner {
  privateKey: CryptoKey;
  /** The public key's thumbprint (RFC 7638): what a token bound to this key names as `cnf.jkt`. */
  jkt: string;
}

/** What a proof says besides `htm` and `htu`; each may be set for an attack. */
export interface DpopProofOptions {
  /** The access token the proof goes with: the proof carries its hash as `ath`. None by default (a login's proof). */
  token?: string;
  /** When the proof says it was made, in seconds since 1970: now by default. */
  iat?: number;
  /** The proof's unique id: random by default. */
  jti?: string;
  /** Header fields laid over `typ: dpop+jwt`, `alg: ES256` and the signer's `jwk`. */
  header?: Record<string, unknown>;
  /**
   * The server's nonce (RFC 9449 section 9): by default, with a `token`, this moment's of a site
   * whose first secret is {@link TEST_SECRET}; `null` for none.
   */
  nonce?: string | null;
  /** Payload fields laid over the ones above (a claim of the wrong type, for one). */
  payload?: Record<string, unknown>;
}

/** The secret most tests give `createSessions`: the default nonce of a proof with a token is its. */
export const TEST_SECRET = 'correct horse battery staple, 32+ characters long';

/** This moment's DPoP nonce of a site whose first secret is `secret`, as its answers' `DPoP-Nonce` says. */
export async function siteNonce(secret = TEST_SECRET, now = Date.now()): Promise<string> {
  return currentNonce((await deriveKeys([secret])).nonce, now);
}

/**
 * The DPoP nonce a running server gives now (RFC 9449 section 9), learnt as anyone learns it: from
 * the `DPoP-Nonce` of its answer to a request with a proof (here a throwaway key's, beside a
 * made-up token, refused). `url` is one of its sessions routes, `origin` the page's origin if any.
 */
export async function serverNonce(url: string, origin?: string): Promise<string> {
  const madeUp = 'made.up.token';
  const answer = await fetch(url, {
    headers: {
      ...(origin === undefined ? {} : { Origin: origin }),
      Authorization: `DPoP ${madeUp}`,
      DPoP: await dpopProof(await dpopKey(), 'GET', url, { token: madeUp, nonce: null }),
    },
  });
  await answer.body?.cancel();
  const nonce = answer.headers.get('dpop-nonce');
  if (nonce === null) throw new Error(`${url} answered ${answer.status} without a DPoP-Nonce`);
  return nonce;
}

/** A new key pair for a game. Extractable (gameSession()'s is not), so that an attack test can put its private half where it must not be. */
export async function dpopKey(): Promise<DpopKey> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const jwk = await exportJWK(publicKey);
  return { privateKey, jwk, jkt: await calculateJwkThumbprint(jwk) };
}

/** `ath` of a proof for `token`: its SHA-256, base64url (RFC 9449 section 4.2). */
function accessTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/** A proof of the request `method url` by `signer`, as the game sends it in the `DPoP` header. */
export async function dpopProof(signer: DpopSigner, method: string, url: string, options: DpopProofOptions = {}): Promise<string> {
  const payload: Record<string, unknown> = {
    htm: method,
    htu: url,
    iat: options.iat ?? Math.floor(Date.now() / 1000),
    jti: options.jti ?? randomBytes(16).toString('base64url'),
  };
  if (options.token !== undefined) payload['ath'] = accessTokenHash(options.token);
  const nonce = options.nonce === undefined && options.token !== undefined ? await siteNonce() : options.nonce;
  if (typeof nonce === 'string') payload['nonce'] = nonce;
  return new SignJWT({ ...payload, ...options.payload })
    .setProtectedHeader({ typ: 'dpop+jwt', alg: 'ES256', jwk: signer.jwk, ...options.header })
    .sign(signer.privateKey);
}

/**
 * A framed game's login at the token endpoint `endpoint`, as `gameSession()` sends it from `game`:
 * the itch.io token in the body and a DPoP proof by `key` (dated `iat`, or now).
 */
export async function gameLoginRequest(
  endpoint: string,
  game: string,
  key: DpopSigner,
  accessToken: string,
  iat?: number,
): Promise<Request> {
  return new Request(endpoint, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Origin: game,
      'Sec-Fetch-Site': 'cross-site',
      DPoP: await dpopProof(key, 'POST', endpoint, iat === undefined ? {} : { iat }),
    },
    body: JSON.stringify({ access_token: accessToken }),
  });
}
