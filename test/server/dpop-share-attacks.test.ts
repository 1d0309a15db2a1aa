// Attacks on the per-player share of remembered DPoP proofs with a shared store (real Redis), found
// by an outside test of a deployed site. Each test states what the attacker must not get:
// - an app instance whose clock is behind Redis's (or a request whose store round trip ends after
//   the minute it counted in) must still hold a player to 300 new proofs a minute: the count's
//   key, expired at a minute end that is already past on Redis's clock, is deleted at each count;
// - a game login whose proof the store cannot remember is answered 503 with Retry-After, as every
//   other request that needs the store, not an error thrown out of the token handler (a 500).
import assert from 'node:assert/strict';
import { afterEach, describe, it, mock } from 'node:test';
import type { Storage } from 'unstorage';
import { createSessions, createTokenHandler } from '../../src/server/index.js';
import { MAX_STORED_PER_PLAYER_MINUTE } from '../../src/server/sessions/dpop.js';
import { dpopKey, dpopProof, gameLoginRequest, type DpopKey } from '../support/dpop.js';
import { fakeItch } from './support/fake-itch.js';
import { redisMissing, useRedis } from './support/redis.js';

const SITE = 'https://game.example';
const GAME = 'https://html-classic.itch.zone';
const SECRET = 'correct horse battery staple, 32+ characters long';
const TOKEN = 'ItchAccessToken0123456789abcdefghijklmno';
const user = { id: 7, username: 'pine', url: 'https://pine.itch.io', gamer: true, developer: false, press_user: false };

/** A site with sessions on `store`, its token endpoint and one game API route. */
function site(store: Storage) {
  const sessions = createSessions({ secrets: [SECRET], allowedOrigins: [GAME], origin: SITE, store });
  const handler = createTokenHandler({
    applicationId: 42,
    origin: SITE,
    fetch: fakeItch(TOKEN, user),
    allowedOrigins: [GAME],
    onLogin: sessions.onLogin,
    onError: () => undefined,
  });
  const me = sessions.route({ allow: ['game'] }, (_request, session) => Response.json(session.user));
  /** A game's login: its answer, with a proof by `key` dated `iat`. */
  const logIn = async (key: DpopKey, iat?: number) => handler(await gameLoginRequest(`${SITE}/auth/itch`, GAME, key, TOKEN, iat));
  /** A login that must succeed: the game token. */
  const gameTokenOf = async (key: DpopKey, iat?: number) => {
    const answer = await logIn(key, iat);
    assert.equal(answer.status, 200);
    const { gameToken } = (await answer.json()) as { gameToken?: string };
    assert.ok(gameToken);
    return gameToken;
  };
  /** `GET /api/me` with a proof, or with a proof made before. */
  const call = async (gameToken: string, proof: string) =>
    (await me(new Request(`${SITE}/api/me`, { headers: { Origin: GAME, Authorization: `DPoP ${gameToken}`, DPoP: proof } }))).status;
  const proofFor = (key: DpopKey, gameToken: string, iat: number) => dpopProof(key, 'GET', `${SITE}/api/me`, { token: gameToken, iat });
  return { logIn, gameTokenOf, call, proofFor };
}

const seconds = () => Math.floor(Date.now() / 1000);

describe('the per-player share of remembered proofs, attacked (real Redis)', { skip: redisMissing }, () => {
  const redis = useRedis('itch-dpop-share');
  afterEach(() => mock.restoreAll());

  it('holds a player to its share on an instance whose clock is 90 s behind Redis', async () => {
    const { store, client } = await redis.store();
    const real = Date.now.bind(Date);
    mock.method(Date, 'now', () => real() - 90_000);
    const { gameTokenOf, call, proofFor } = site(store);
    const key = await dpopKey();
    const gameToken = await gameTokenOf(key);
    const statuses = new Map<number, number>();
    for (let sent = 0; sent < 1_000; sent += 100) {
      const batch = await Promise.all(Array.from({ length: 100 }, async () => call(gameToken, await proofFor(key, gameToken, seconds()))));
      for (const status of batch) statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    const held = (await client.keys(`itch-dpop-share:itch-session:dpop:${key.jkt}.*`)).length;
    // Measured before any fix: 1,000 answered 200 and 1,001 proofs held (each count's key is
    // deleted by its PEXPIREAT in Redis's past, so every count reads 1).
    // 300 a minute, the login's proof among them; twice that if the requests ran across a minute's end.
    const accepted = statuses.get(200) ?? 0;
    assert.ok(accepted < 2 * MAX_STORED_PER_PLAYER_MINUTE, `accepted ${accepted} new proofs in about a second`);
    assert.equal(held, accepted + 1, `Redis holds ${held} of the player's proofs, ${accepted} accepted and its login's`);
  });

  it('answers a game login 503 with Retry-After when the store cannot remember its proof', async () => {
    const { store, client } = await redis.store();
    const { logIn } = site(store);
    // Redis refuses every write, as at its maxmemory with noeviction (the flood's end state).
    await client.config('SET', 'maxmemory', '1');
    await client.config('SET', 'maxmemory-policy', 'noeviction');
    try {
      const answer = await logIn(await dpopKey()).catch((error: unknown) => error);
      // Measured before any fix: SessionStoreError thrown out of the handler (a 500 in node:http).
      assert.ok(answer instanceof Response, `the handler threw ${String(answer)}`);
      assert.equal(answer.status, 503);
      assert.ok(Number(answer.headers.get('Retry-After')) > 0);
    } finally {
      await client.config('SET', 'maxmemory', '0');
    }
  });
});
