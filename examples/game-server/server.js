// A game server that trusts "this is itch.io player 1001, who owns game 2001" without calling the
// site back and without itch-oauth-widget: only `jose`, and the site's public keys at
// /.well-known/jwks.json. The framed game sends the game token its login answered as
// `Authorization: DPoP`, with a `DPoP` proof of the request signed by its key (gameSession()'s
// `fetch` does, RFC 9449); this server checks the token's signature, who made it (`iss`), for whom
// (`aud`, the site's origin) and that it has not expired, then that the proof is for this very
// request, by the key the token names (`cnf.jkt`), new, and made since this server's last minute
// or two (its DPoP nonce); then answers the player and `owns`. A copy of the token alone, read
// out of the game's storage on itch.io's shared origin, is refused, and so is a proof that a
// hostile game signed ahead of time with the player's key, to send after it is gone.
// Nakama's custom authentication or a leaderboard service would verify the same way; a WebSocket
// server once per connection, through an HTTP route like this one that answers a one-time ticket
// for the socket (a page cannot set `Authorization` on a WebSocket, nor read a refused upgrade's
// `DPoP-Nonce`).
import { createServer } from 'node:http';
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
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
const PROOF_WINDOW_S = Number(process.env.DPOP_WINDOW_SECONDS ?? 300);
if (!(PROOF_WINDOW_S >= 1)) throw new Error('DPOP_WINDOW_SECONDS must be a number, 1 or more');
/**
 * The `jti`s of accepted proofs, each with its player (`sub`), until the proof's `iat` is too old:
 * each proof counts once. (Several instances: Redis `SET NX`.)
 */
const seenProofs = new Map();
/** At most this many remembered (about 100 B each). */
const MAX_SEEN_PROOFS = Number(process.env.DPOP_MAX_SEEN_PROOFS ?? 100_000);
if (!(MAX_SEEN_PROOFS >= 1)) throw new Error('DPOP_MAX_SEEN_PROOFS must be a number, 1 or more');
/**
 * At most this many of them one player's (1%: 1,000 by default, 3 requests a second for the
 * window), so that it takes 100 logged-in players, not one, to fill it for everyone.
 */
const MAX_SEEN_PER_PLAYER = Math.max(1, Math.floor(MAX_SEEN_PROOFS / 100));
/** How many of `seenProofs` each player holds. */
const seenPerPlayer = new Map();
function forget(jti) {
  const { player } = seenProofs.get(jti);
  seenProofs.delete(jti);
  const held = seenPerPlayer.get(player) - 1;
  if (held > 0) seenPerPlayer.set(player, held);
  else seenPerPlayer.delete(player);
}

// DPoP nonces (RFC 9449 section 9): a proof must carry a value this server gave in the last minute
// or two, so that a page that can use the player's key for a while (another game on itch.io's
// origin: it cannot take the key away) cannot sign proofs dated ahead to send later. The nonce is
// the HMAC of the current minute: nothing to store, and instances that share DPOP_NONCE_SECRET
// (32+ random characters, e.g. `openssl rand -base64 32`) agree; without it, a random one.
const NONCE_SECRET = process.env.DPOP_NONCE_SECRET ?? randomBytes(32);
if (NONCE_SECRET.length < 32) throw new Error('DPOP_NONCE_SECRET must be 32 characters or more');
/**
 * How long a nonce is the newest (seconds); it is accepted for one period more (and one early, on
 * an instance whose clock is behind). At most 120: a nonce this server gives is then accepted for
 * 240 s at most, less than the window a used proof is remembered (300 s by default).
 */
const NONCE_PERIOD_S = Number(process.env.DPOP_NONCE_SECONDS ?? 60);
if (!(NONCE_PERIOD_S >= 1 && NONCE_PERIOD_S <= 120)) throw new Error('DPOP_NONCE_SECONDS must be a number from 1 to 120');
const nonceOf = (period) => createHmac('sha256', NONCE_SECRET).update(`DPoP nonce ${period}`).digest('base64url');
const periodNow = () => Math.floor(Date.now() / 1000 / NONCE_PERIOD_S);
/** Whether `nonce` is one of this period, the one before or the one after, compared in constant time. */
function nonceHolds(nonce) {
  const given = Buffer.from(typeof nonce === 'string' ? nonce : '');
  const period = periodNow();
  return given.length === 43 && [period - 1, period, period + 1].some((at) => timingSafeEqual(given, Buffer.from(nonceOf(at))));
}

/** This server's public origin as the game reaches it (a proxy's): proofs name it in `htu`. */
let publicOrigin = process.env.PUBLIC_ORIGIN ? new URL(process.env.PUBLIC_ORIGIN).origin : undefined;

/**
 * What is wrong with `proof` as a DPoP proof (RFC 9449 section 4.3) of this request for `token`, by
 * the key `jkt` names, with this server's nonce, not seen before: nothing, the error of its 401, or
 * `{ status, retryAfter }` when `player` (the token's `sub`) holds its share of the memory of seen
 * proofs (429), or the memory is full (503).
 */
async function proofError(request, token, jkt, proof, player) {
  const verified = await jwtVerify(proof, EmbeddedJWK, { typ: 'dpop+jwt', algorithms: ['ES256'] }).catch(() => undefined);
  if (!verified) return 'invalid_dpop_proof';
  const { payload, protectedHeader } = verified;
  const now = Date.now() / 1000;
  const url = new URL(request.url, publicOrigin);
  if ((await calculateJwkThumbprint(protectedHeader.jwk)) !== jkt) return 'invalid_dpop_proof';
  if (payload.htm !== request.method || payload.htu !== publicOrigin + url.pathname) return 'invalid_dpop_proof';
  if (payload.ath !== createHash('sha256').update(token).digest('base64url')) return 'invalid_dpop_proof';
  if (typeof payload.jti !== 'string' || payload.jti.length > 64 || !(Math.abs(now - payload.iat) <= PROOF_WINDOW_S))
    return 'invalid_dpop_proof';
  // Checked once the rest holds, and before the jti is remembered: the game sends again with the
  // nonce of this answer's DPoP-Nonce, and the refused proof used nothing up.
  if (!nonceHolds(payload.nonce)) return 'use_dpop_nonce';
  // Oldest first, until one is still in its window. A proof dated ahead is remembered longer than
  // the ones after it; those wait behind it, expired: one of them refuses only a proof whose `iat`
  // is too old anyway.
  for (const [jti, { until }] of seenProofs) {
    if (until >= now) break;
    forget(jti);
  }
  if (seenProofs.has(payload.jti)) return 'invalid_dpop_proof';
  // Bounded, and not a 401 (which makes a game renew its session, or sign out): the player is
  // asked to wait until its proofs are forgotten; everyone, until the oldest is.
  if ((seenPerPlayer.get(player) ?? 0) >= MAX_SEEN_PER_PLAYER) return { status: 429, retryAfter: PROOF_WINDOW_S };
  if (seenProofs.size >= MAX_SEEN_PROOFS) {
    const [{ until }] = seenProofs.values();
    return { status: 503, retryAfter: Math.max(1, Math.ceil(until - now)) };
  }
  // Until the proof's `iat` is too old, whenever it is sent: a proof dated ahead, remembered only
  // for the window from its use, would be accepted again before its `iat` is.
  seenProofs.set(payload.jti, { until: Math.max(now, payload.iat) + PROOF_WINDOW_S, player });
  seenPerPlayer.set(player, (seenPerPlayer.get(player) ?? 0) + 1);
  return undefined;
}

/**
 * `{ player }` of a game token and its proof, `{ busy }` (`{ status, retryAfter }`) when too many
 * of its proofs are remembered, or `{ error }` for anything else (forged, expired, another site's,
 * a cookie value, a copy without its key, a proof without a recent nonce); `{}` without a token.
 */
async function playerOf(request) {
  const match = /^DPoP +(\S+)$/.exec(request.headers.authorization ?? '');
  const proof = request.headers.dpop;
  if (!match || typeof proof !== 'string') return {};
  try {
    const { payload } = await jwtVerify(match[1], keys, {
      algorithms: ['EdDSA'], // the only algorithm game tokens use: no `none`, no HMAC with the public key
      typ: 'JWT',
      issuer: SITE_ORIGIN,
      audience: SITE_ORIGIN,
      requiredClaims: ['sub', 'exp'],
    });
    if (typeof payload.cnf?.jkt !== 'string') return { error: 'invalid_token' };
    const error = await proofError(request, match[1], payload.cnf.jkt, proof, payload.sub);
    if (typeof error === 'object') return { busy: error };
    if (error) return { error };
    return { player: { id: Number(payload.sub), username: payload.user?.username, owns: payload.owns ?? {} } };
  } catch {
    return { error: 'invalid_token' };
  }
}

const server = createServer(async (request, response) => {
  const cors =
    GAME_ORIGIN && request.headers.origin === GAME_ORIGIN
      ? {
          'Access-Control-Allow-Origin': GAME_ORIGIN,
          'Access-Control-Expose-Headers': 'WWW-Authenticate, DPoP-Nonce, Retry-After',
          Vary: 'Origin',
        }
      : { Vary: 'Origin' };
  // The nonce the next proof carries (RFC 9449 section 9), on every answer to a request with a proof.
  const nonce = request.headers.dpop ? { 'DPoP-Nonce': nonceOf(periodNow()) } : {};
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
    response.writeHead(404, { ...cors, ...nonce }).end();
    return;
  }
  const { player, busy, error } = await playerOf(request);
  const headers = { ...cors, ...nonce, 'Content-Type': 'application/json', 'Cache-Control': 'no-store' };
  if (player) {
    response.writeHead(200, headers).end(JSON.stringify(player));
    return;
  }
  if (busy) {
    const why = busy.status === 429 ? 'too many requests of this player' : 'too many requests';
    response.writeHead(busy.status, { ...headers, 'Retry-After': String(busy.retryAfter) }).end(JSON.stringify({ errors: [why] }));
    return;
  }
  // RFC 9449 section 7.1; `use_dpop_nonce`: send again with the nonce of DPoP-Nonce (gameSession() does).
  headers['WWW-Authenticate'] = `DPoP ${error ? `error="${error}", ` : ''}algs="ES256"`;
  const why =
    error === 'use_dpop_nonce'
      ? 'the DPoP proof must carry the nonce of the DPoP-Nonce header'
      : 'a valid game token of this site is required';
  response.writeHead(401, headers).end(JSON.stringify({ errors: [why] }));
});

server.listen(PORT, '127.0.0.1', () => {
  publicOrigin ??= `http://127.0.0.1:${server.address().port}`;
  console.log(`listening on http://127.0.0.1:${server.address().port}, trusting the game tokens of ${SITE_ORIGIN}`);
});
