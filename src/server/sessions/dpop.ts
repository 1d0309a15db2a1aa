/*
 * DPoP proofs (RFC 9449): what ties a game token to a key that the game's page holds and cannot
 * export. A game token issued against a proof carries `cnf.jkt`, the proof key's thumbprint
 * (RFC 7638); such a token counts only as `Authorization: DPoP <token>` beside a `DPoP` proof of
 * that very request, signed by that key. A token copied out of the game's storage is then
 * worthless anywhere else: the key never leaves the browser.
 */
import { base64url, calculateJwkThumbprint, decodeProtectedHeader, importJWK, jwtVerify, type CryptoKey, type JWK } from 'jose';
import type { Storage } from 'unstorage';
import { DURABLE_OBJECT_DRIVER, setIfAbsentOf, type SetIfAbsent } from '../popup/set-if-absent.js';
import { sharedCounters } from '../rate-limit/store-counters.js';
import { SessionStoreError } from './revocation.js';

/**
 * How far a proof's `iat` may be from this server's clock, either way, in seconds: 5 minutes, as
 * node-oidc-provider's DPoP check allows. The game corrects its clock by the game token's `iat`
 * once it has one, so only the first proof of a login (which binds, and is worthless replayed)
 * depends on the player's clock.
 * @see https://www.rfc-editor.org/rfc/rfc9449#section-11.1
 */
export const DPOP_WINDOW_S = 300;

/**
 * What a refused DPoP request is told (RFC 9449 section 7.1; RFC 6750 section 3.1):
 * `use_dpop_nonce` when its proof lacks the nonce of the answer's `DPoP-Nonce` (section 9).
 */
export type DpopError = 'invalid_token' | 'invalid_dpop_proof' | 'use_dpop_nonce';

/** A request's proof, checked: the thumbprint of the key that signed it. */
export type ProofCheck = { jkt: string } | { error: DpopError; why: string };

/**
 * Remembers each proof's `jti` until `until` (seconds since the epoch: its `iat` plus
 * {@link DPOP_WINDOW_S}, when its `iat` stops being acceptable): `true` the first time. `until` is
 * the proof's own, the same at every use, never a time counted from the moment of a use.
 * `player` is whose valid game token the proof came with (the token's `sub`), where known.
 * @throws TooManyProofs when `player` has more proofs remembered than its share.
 * @throws SessionStoreError when the shared store fails, or when the memory (without a store) has
 *   forgotten proofs as new as this one, so that it cannot tell whether this one is new.
 */
export type ProofReplay = (key: string, until: number, player?: string) => Promise<boolean>;

/**
 * A player past its share of the remembered proofs: its request is answered 429 with
 * `Retry-After` (RFC 6585 section 4), neither a replay nor a signed-out session, so that a game
 * waits instead of logging its player out.
 */
export class TooManyProofs extends Error {
  override name = 'TooManyProofs';
  /** @param retryAfter whole seconds until the player has room again. */
  constructor(readonly retryAfter: number) {
    super(`too many game requests from this player: try again in ${retryAfter} s`);
  }
}

/** A whole number of seconds from now until `ms` (ms since the epoch), at least 1. */
const secondsUntil = (ms: number, now: number) => Math.max(1, Math.ceil((ms - now) / 1000));

/** At most this many `jti`s in memory without a shared store (about 100 B each). */
export const MAX_REMEMBERED = 50_000;
/**
 * Once the memory is half full, a player who holds this many of its `jti`s has its next proofs
 * refused until some expire: one player (3 requests a second for 5 minutes) cannot fill it alone.
 */
export const MAX_REMEMBERED_PER_PLAYER = 1_000;
/**
 * A `jti` of 16 to 64 printable ASCII characters (`gameSession()` sends 43): a byte each, so that
 * a store key stays small whatever the client sends.
 */
const JTI = /^[\x21-\x7e]{16,64}$/;
const PREFIX = 'itch-session:dpop:';

/**
 * With a shared store, a player's proofs remembered each minute, at most: 5 requests a second.
 * A proof is kept until its `iat` + 5 minutes and an `iat` may be 5 minutes ahead, so one player
 * holds at most 11 minutes' worth, 3,300 (about 600 KB in Redis), however fast it sends.
 */
export const MAX_STORED_PER_PLAYER_MINUTE = 300;
/** Where the players' counts of remembered proofs are kept in the store, per minute. */
const COUNT_PREFIX = 'itch-session:dpop-count:';
const MINUTE_MS = 60_000;

/**
 * Where the `jti`s of accepted proofs are kept: with a `store` that has an atomic set-if-absent
 * (Redis `SET NX`, the Durable Object), there, so that a proof is accepted once across all the
 * instances that share it, and each player's count of new ones per minute beside them (at most
 * {@link MAX_STORED_PER_PLAYER_MINUTE}: what one logged-in player makes the store hold is
 * bounded); otherwise in this process's memory, bounded: when it is full, the oldest entry goes
 * and every proof no newer than it is refused from then on (never accepted twice). So that no one
 * player can bring that about (proofs dated 5 minutes ahead stay longest), a player holding
 * {@link MAX_REMEMBERED_PER_PLAYER} of a memory half full is refused first.
 */
export function createProofReplay(store: Storage | undefined): ProofReplay {
  const driver = store?.getMount(PREFIX).driver.name;
  if (store !== undefined && (driver === 'redis' || driver === DURABLE_OBJECT_DRIVER)) return storedProofReplay(store);
  /** Each `jti` until its proof's `iat` is no longer acceptable (ms since the epoch), oldest first. */
  const seen = new Map<string, { until: number; player: string | undefined }>();
  /** The `jti`s each player holds in `seen`, with their ends. */
  const byPlayer = new Map<string, Map<string, number>>();
  /** Proofs that expire no later than this may have been forgotten: refused. */
  let forgottenUpTo = -Infinity;
  const forget = (key: string) => {
    const player = seen.get(key)?.player;
    seen.delete(key);
    const held = player === undefined ? undefined : byPlayer.get(player);
    held?.delete(key);
    if (held?.size === 0) byPlayer.delete(player!);
  };
  /** Refuses `player` one more remembered unless it is below its share, or is after its expired ones are dropped. */
  const makeRoom = (player: string, now: number): void => {
    const held = byPlayer.get(player);
    if (held === undefined || held.size < MAX_REMEMBERED_PER_PLAYER || seen.size < MAX_REMEMBERED / 2) return;
    let first = Infinity;
    for (const [key, until] of held) {
      if (until < now) forget(key);
      else first = Math.min(first, until);
    }
    if (held.size >= MAX_REMEMBERED_PER_PLAYER) throw new TooManyProofs(secondsUntil(first, now));
  };
  return async (key, end, player) => {
    const now = Date.now();
    // The proof's own end, whenever it is sent: one counted from this moment would, for the same
    // proof sent again in a later second, land past `forgottenUpTo` once it had been forgotten.
    const expires = end * 1000;
    if ((seen.get(key)?.until ?? -Infinity) >= now) return false;
    // A proof no newer than one forgotten may be a replay, or new: the server cannot tell, and it
    // is the server's state, not the player's fault (a 401 would sign the game out).
    if (expires <= forgottenUpTo) throw new SessionStoreError('the DPoP proof memory is full (try again in a moment)');
    if (player !== undefined) makeRoom(player, now);
    forget(key);
    seen.set(key, { until: expires, player });
    if (player !== undefined) {
      const held = byPlayer.get(player) ?? new Map<string, number>();
      byPlayer.set(player, held.set(key, expires));
    }
    for (const [oldest, { until }] of seen) {
      if (seen.size <= MAX_REMEMBERED && until > now) break;
      forget(oldest);
      forgottenUpTo = Math.max(forgottenUpTo, until);
    }
    return true;
  };
}

/**
 * {@link createProofReplay} with a shared store: the proof's `jti`, set if absent, then, for a
 * proof never seen, the player's count for this minute. A player past its share has that proof
 * taken back, so that the store holds nothing more of its; a replayed proof counts against no one
 * (whoever holds a copy of a player's proof cannot use up the player's share with it).
 */
function storedProofReplay(store: Storage): ProofReplay {
  const shared: SetIfAbsent = setIfAbsentOf(store, PREFIX);
  const counts = sharedCounters(store, COUNT_PREFIX);
  return async (key, until, player) => {
    const now = Date.now();
    const minuteEnd = (Math.floor(now / MINUTE_MS) + 1) * MINUTE_MS;
    try {
      if (!(await shared.set(PREFIX + key, secondsUntil(until * 1000, now)))) return false;
      if (player === undefined || (await counts.add(`${player}:${minuteEnd}`, 1, minuteEnd)) <= MAX_STORED_PER_PLAYER_MINUTE) return true;
      await shared.delete(PREFIX + key);
    } catch (error) {
      // Redis errors carry the command's arguments: the message names only the class.
      throw new SessionStoreError(`the session store failed (${error instanceof Error ? error.name : 'unknown error'})`);
    }
    throw new TooManyProofs(secondsUntil(minuteEnd, now));
  };
}

/** A proof key, imported, with its RFC 7638 thumbprint. */
interface ProofKey {
  key: CryptoKey;
  jkt: string;
}

/** At most this many proof keys kept imported (a game's session signs every request with one key). */
const MAX_KEYS = 1_000;
/** Proof keys by their public point, most recently used last. */
const keys = new Map<string, Promise<ProofKey>>();

/**
 * The public P-256 key of a proof's header, imported once (importing costs more than the
 * signature check; a game signs every request with the same key) and its thumbprint. Only the
 * public members are read: a `jwk` with a private part (`d`) is refused, as RFC 9449 section 4.3
 * requires.
 */
function proofKey(jwk: JWK | undefined): Promise<ProofKey> {
  if (jwk?.kty !== 'EC' || jwk.crv !== 'P-256' || typeof jwk.x !== 'string' || typeof jwk.y !== 'string' || 'd' in jwk)
    return Promise.reject(new Error('not a public P-256 key'));
  const point = `${jwk.x}.${jwk.y}`;
  let known = keys.get(point);
  if (known === undefined) {
    const only: JWK = { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y };
    known = Promise.all([importJWK(only, 'ES256'), calculateJwkThumbprint(only, 'sha256')]).then(([key, jkt]) => ({
      key: key as CryptoKey,
      jkt,
    }));
    known.catch(() => keys.delete(point));
    if (keys.size >= MAX_KEYS) keys.delete(keys.keys().next().value!);
  } else {
    keys.delete(point);
  }
  keys.set(point, known);
  return known;
}

/** The base64url SHA-256 of a token: a proof's `ath` (RFC 9449 section 4.2). */
export async function tokenHash(token: string): Promise<string> {
  return base64url.encode(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token))));
}

/**
 * Checks the request's `DPoP` proof (RFC 9449 section 4.3): one header, a JWS of `typ: dpop+jwt`
 * and `alg: ES256` signed by the public `jwk` of its header; `htm` the request's method; `htu` the
 * site's configured origin and the request's path (the query and fragment left out; never the
 * origin of `request.url`, which a proxy or a client sets); `iat` within {@link DPOP_WINDOW_S};
 * with a token, `ath` its hash (without one, no `ath`); and its `jti` not seen before. Answers the
 * thumbprint of the key, which the caller compares with the token's `cnf.jkt`. The key is imported
 * once per key ({@link proofKey}); its import and the token's hash are computed at once.
 */
export async function checkProof(
  request: Request,
  own: string,
  replay: ProofReplay,
  token?: string,
  nonce?: (value: unknown) => Promise<boolean>,
): Promise<ProofCheck> {
  const refuse = (why: string): ProofCheck => ({ error: 'invalid_dpop_proof', why });
  const proof = request.headers.get('dpop');
  if (proof === null) return refuse('a DPoP proof is required');
  let payload: Record<string, unknown>;
  let jkt: string;
  let hash: string | undefined;
  try {
    const [key, digest] = await Promise.all([
      proofKey(decodeProtectedHeader(proof).jwk),
      token === undefined ? undefined : tokenHash(token),
    ]);
    ({ payload } = await jwtVerify(proof, key.key, { typ: 'dpop+jwt', algorithms: ['ES256'] }));
    [jkt, hash] = [key.jkt, digest];
  } catch {
    return refuse('the DPoP proof is not a JWS of typ dpop+jwt signed with ES256 by the key of its header');
  }
  const { htm, htu, iat, jti, ath } = payload;
  if (htm !== request.method) return refuse('the DPoP proof is for another method');
  const path = new URL(request.url).pathname;
  if (typeof htu !== 'string' || !URL.canParse(htu) || new URL(htu).href !== new URL(path, own).href || /[?#]/.test(htu))
    return refuse('the DPoP proof is for another URL');
  const now = Date.now() / 1000;
  if (typeof iat !== 'number' || !(Math.abs(now - iat) <= DPOP_WINDOW_S))
    return refuse(`the DPoP proof's iat is more than ${DPOP_WINDOW_S} seconds from the server's time`);
  if (typeof jti !== 'string' || !JTI.test(jti)) return refuse('the DPoP proof has no usable jti');
  if (ath !== hash)
    return refuse(
      token === undefined ? 'the DPoP proof names a token (ath) where none is presented' : 'the DPoP proof is for another token (ath)',
    );
  // Once the proof holds, before it is remembered: a proof without the server's nonce is asked again, with it.
  if (nonce !== undefined && !(await nonce(payload['nonce'])))
    return { error: 'use_dpop_nonce', why: 'the DPoP proof must carry the nonce of the DPoP-Nonce header' };
  // Last, once everything else holds: only a proof that would be accepted uses up its jti.
  if (!(await replay(`${jkt}.${jti}`, iat + DPOP_WINDOW_S))) return refuse('the DPoP proof was used before');
  return { jkt };
}

/**
 * The 401 of a refused game token or proof: `WWW-Authenticate: DPoP` with the error, and the
 * algorithm a proof must use (RFC 9449 section 7.1), `{ errors }` as every refusal here.
 */
export function dpopRefusal(error: DpopError, why: string): Response {
  return Response.json(
    { errors: [why] },
    {
      status: 401,
      headers: { 'WWW-Authenticate': `DPoP error="${error}", error_description="${why}", algs="ES256"`, 'Cache-Control': 'no-store' },
    },
  );
}
