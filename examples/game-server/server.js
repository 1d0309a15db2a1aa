// A game server that trusts "this is itch.io player 1001, who owns game 2001" without calling the
// site back and without itch-oauth-widget: only `jose`, and the site's public keys at
// /.well-known/jwks.json. The framed game sends the game token its login answered as
// `Authorization: DPoP`, with a `DPoP` proof of the request signed by its key (gameSession()'s
// `fetch` does, RFC 9449); this server checks the token's signature, who made it (`iss`), for whom
// (`aud`, the site's origin) and that it has not expired, then that the proof is for this very
// request, by the key the token names (`cnf.jkt`), and new; then answers the player and `owns`.
// A copy of the token alone, read out of the game's storage on itch.io's shared origin, is refused.
// A WebSocket server, Nakama's custom authentication or a leaderboard service would verify the
// same way, once per connection.
import { createServer } from 'node:http';
import { createHash } from 'node:crypto';
import { calculateJwkThumbprint, createRemoteJWKSet, EmbeddedJWK, jwtVerify } from 'jose';

// The site that logs players in (its createSessions): its origin is the tokens' `iss` and `aud`.
const SITE_ORIGIN = new URL(process.env.SITE_ORIGIN ?? 'http://127.0.0.1:3000').origin;
// The game's origin, whose pages may call this server from the browser (CORS); none by default.
const GAME_ORIGIN = process.env.GAME_ORIGIN ? new URL(process.env.GAME_ORIGIN).origin : undefined;
const PORT = Number(process.env.PORT ?? 4000);

// Fetched once, cached, and fetched again when a token names a key it does not know (the site
// rotated its secret), at most every 30 s (jose's cooldown), so a flood of forged key ids costs
// one request to the site at most.
const keys = createRemoteJWKSet(new URL('/.well-known/jwks.json', SITE_ORIGIN));

/** How far a proof's `iat` may be from this server's clock, either way (seconds). */
const PROOF_WINDOW_S = 300;
/** The `jti`s of accepted proofs, until their `iat` is too old: each proof counts once. (Several instances: Redis `SET NX`.) */
const seenProofs = new Map();
/** At most this many remembered (about 100 B each). */
const MAX_SEEN_PROOFS = 100_000;

/** This server's public origin as the game reaches it (a proxy's): proofs name it in `htu`. */
let publicOrigin = process.env.PUBLIC_ORIGIN ? new URL(process.env.PUBLIC_ORIGIN).origin : undefined;

/** Whether `proof` is a DPoP proof (RFC 9449 section 4.3) of this request for `token`, by the key `jkt` names, not seen before. */
async function proofHolds(request, token, jkt, proof) {
  const { payload, protectedHeader } = await jwtVerify(proof, EmbeddedJWK, { typ: 'dpop+jwt', algorithms: ['ES256'] });
  const now = Date.now() / 1000;
  const url = new URL(request.url, publicOrigin);
  if ((await calculateJwkThumbprint(protectedHeader.jwk)) !== jkt) return false;
  if (payload.htm !== request.method || payload.htu !== publicOrigin + url.pathname) return false;
  if (payload.ath !== createHash('sha256').update(token).digest('base64url')) return false;
  if (typeof payload.jti !== 'string' || payload.jti.length > 64 || !(Math.abs(now - payload.iat) <= PROOF_WINDOW_S)) return false;
  // Oldest first, until one is still in its window: each request forgets only what expired.
  for (const [jti, until] of seenProofs) {
    if (until >= now) break;
    seenProofs.delete(jti);
  }
  // Bounded: a player sending proofs as fast as it can is refused past this, never remembered forever.
  if (seenProofs.has(payload.jti) || seenProofs.size >= MAX_SEEN_PROOFS) return false;
  seenProofs.set(payload.jti, now + PROOF_WINDOW_S);
  return true;
}

/** The player of a game token and its proof, or `undefined` for anything else (forged, expired, another site's, a cookie value, a copy without its key). */
async function playerOf(request) {
  const match = /^DPoP +(\S+)$/.exec(request.headers.authorization ?? '');
  const proof = request.headers.dpop;
  if (!match || typeof proof !== 'string') return undefined;
  try {
    const { payload } = await jwtVerify(match[1], keys, {
      algorithms: ['EdDSA'], // the only algorithm game tokens use: no `none`, no HMAC with the public key
      typ: 'JWT',
      issuer: SITE_ORIGIN,
      audience: SITE_ORIGIN,
      requiredClaims: ['sub', 'exp'],
    });
    if (typeof payload.cnf?.jkt !== 'string' || !(await proofHolds(request, match[1], payload.cnf.jkt, proof))) return undefined;
    return { id: Number(payload.sub), username: payload.user?.username, owns: payload.owns ?? {} };
  } catch {
    return undefined;
  }
}

const server = createServer(async (request, response) => {
  const cors =
    GAME_ORIGIN && request.headers.origin === GAME_ORIGIN
      ? { 'Access-Control-Allow-Origin': GAME_ORIGIN, Vary: 'Origin' }
      : { Vary: 'Origin' };
  if (request.method === 'OPTIONS') {
    response
      .writeHead(cors['Access-Control-Allow-Origin'] ? 204 : 403, {
        ...cors,
        'Access-Control-Allow-Headers': 'Authorization, DPoP',
        'Access-Control-Allow-Methods': 'GET',
      })
      .end();
    return;
  }
  if (request.url !== '/player' || request.method !== 'GET') {
    response.writeHead(404, cors).end();
    return;
  }
  const player = await playerOf(request);
  const status = player ? 200 : 401;
  const headers = {
    ...cors,
    'Content-Type': 'application/json',
    'Cache-Control': 'no-store',
    ...(player ? {} : { 'WWW-Authenticate': 'DPoP algs="ES256"', 'Access-Control-Expose-Headers': 'WWW-Authenticate' }),
  };
  response.writeHead(status, headers).end(JSON.stringify(player ?? { errors: ['a valid game token of this site is required'] }));
});

server.listen(PORT, '127.0.0.1', () => {
  publicOrigin ??= `http://127.0.0.1:${server.address().port}`;
  console.log(`listening on http://127.0.0.1:${server.address().port}, trusting the game tokens of ${SITE_ORIGIN}`);
});
