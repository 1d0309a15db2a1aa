// Floods of DPoP proofs, attacked: without a store, the proofs' jtis are kept in memory (50,000 at
// most), and when that is full every proof no newer than the oldest forgotten one is refused, so
// that none is ever accepted twice. A request whose game token is made up must then use up no
// room: otherwise anyone, with no login and a key of their own, fills it with proofs dated 5
// minutes ahead and every player's next request is refused as a replay for 5 minutes. And a
// logged-in player, whose proofs are remembered, must not be able to fill it alone, nor, with a
// shared store (Redis, the Durable Object), make the store hold more than its share.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Storage } from 'unstorage';
import { durableObjectStore, ItchOAuthStore } from '../../src/cloudflare/index.js';
import { createSessions, createTokenHandler } from '../../src/server/index.js';
import { DPOP_WINDOW_S, MAX_STORED_PER_PLAYER_MINUTE } from '../../src/server/sessions/dpop.js';
import { memoryNamespace, type StoreClass } from '../cloudflare/support/durable-objects.js';
import { dpopKey, dpopProof, gameLoginRequest, type DpopKey } from '../support/dpop.js';
import { fakeItch as fakeItchFor } from './support/fake-itch.js';
import { redisMissing, useRedis } from './support/redis.js';

const SITE = 'https://game.example';
const GAME = 'https://html-classic.itch.zone';
const SECRET = 'correct horse battery staple, 32+ characters long';
const TOKEN = 'ItchAccessToken0123456789abcdefghijklmno';
const user = { id: 1, username: 'leafo', url: 'https://leafo.itch.io', gamer: true, developer: true, press_user: false };
/** More proofs than the in-memory replay cache holds (50,000). */
const FLOOD = 50_001;

const ATTACKER_TOKEN = 'ItchAccessTokenOfTheAttacker0123456789ab';
const attackerUser = { ...user, id: 666, username: 'mallory', url: 'https://mallory.itch.io' };

/** A site with sessions, its token endpoint and a game API, and an itch.io that knows the player and the attacker. */
function site(store?: Storage) {
  const sessions = createSessions({ secrets: [SECRET], allowedOrigins: [GAME], origin: SITE, store });
  const [player, attacker] = [fakeItchFor(TOKEN, user), fakeItchFor(ATTACKER_TOKEN, attackerUser)];
  const handler = createTokenHandler({
    applicationId: 42,
    origin: SITE,
    fetch: (url, init) => (new Headers(init.headers).get('authorization') === `Bearer ${TOKEN}` ? player : attacker)(url, init),
    allowedOrigins: [GAME],
    onLogin: sessions.onLogin,
    onError: () => undefined,
  });
  const me = sessions.route({ allow: ['game'] }, (_request, session) => Response.json(session.user));
  /** A game's login with `token`: its key and its bound game token. */
  const logIn = async (token: string) => {
    const key = await dpopKey();
    const login = await handler(await gameLoginRequest(`${SITE}/auth/itch`, GAME, key, token));
    const { gameToken } = (await login.json()) as { gameToken: string };
    assert.ok(gameToken);
    return { key, gameToken };
  };
  /** The game API's answer to `GET /api/me` with `gameToken` and a proof by `key`, dated `iat`. */
  const answer = async (key: DpopKey, gameToken: string, iat?: number) =>
    me(
      new Request(`${SITE}/api/me`, {
        headers: {
          Origin: GAME,
          Authorization: `DPoP ${gameToken}`,
          DPoP: await dpopProof(key, 'GET', `${SITE}/api/me`, { token: gameToken, ...(iat === undefined ? {} : { iat }) }),
        },
      }),
    );
  const call = async (key: DpopKey, gameToken: string, iat?: number) => (await answer(key, gameToken, iat)).status;
  return { logIn, call, answer, me };
}

/** Sends `count` requests, 500 at a time; the number of each status. */
async function flood(count: number, send: () => Promise<number>): Promise<Map<number, number>> {
  const statuses = new Map<number, number>();
  for (let sent = 0; sent < count; sent += 500) {
    const answers = await Promise.all(Array.from({ length: Math.min(500, count - sent) }, send));
    for (const status of answers) statuses.set(status, (statuses.get(status) ?? 0) + 1);
  }
  return statuses;
}

const ahead = () => Math.floor(Date.now() / 1000) + DPOP_WINDOW_S - 5;

it('a flood of proofs beside made-up tokens does not get the next player request refused', { timeout: 600_000 }, async () => {
  const { logIn, call } = site();
  const player = await logIn(TOKEN);
  // The attacker: no login, a key of its own, a made-up token, proofs dated as far ahead as accepted.
  const attacker = await dpopKey();
  const statuses = await flood(FLOOD, () => call(attacker, 'made.up.token', ahead()));
  assert.deepEqual([...statuses], [[401, FLOOD]]);
  assert.equal(await call(player.key, player.gameToken), 200);
});

it(
  'a logged-in player flooding proofs of its own dated ahead does not get the next player request refused',
  { timeout: 600_000 },
  async () => {
    const { logIn, call } = site();
    const player = await logIn(TOKEN);
    // The attacker logged in with its own itch.io account: its token is valid, its proofs are remembered.
    const attacker = await logIn(ATTACKER_TOKEN);
    // More than the memory holds beside the logins' own proofs, so that proofs of the attacker's are forgotten.
    const statuses = await flood(FLOOD + 10, () => call(attacker.key, attacker.gameToken, ahead()));
    assert.equal(await call(player.key, player.gameToken), 200, 'another player was refused');
    // Told to wait (429), never that its session is over: a game that is refused does not log out.
    assert.ok((statuses.get(429) ?? 0) > 0, 'the flooding player was never refused');
    assert.equal(statuses.get(401), undefined, 'the flooding player was told its token is bad');
  },
);

/**
 * A logged-in player's flood of its own proofs with a shared store: each proof it sends is kept
 * there (about 180 B in Redis) until its iat + 5 minutes, so without a per-player bound one
 * client fills a small Redis within a minute and every login and game request then fails. It
 * is told to wait (429, `Retry-After`, readable by the game) once past its share, and the store
 * holds no more of its proofs; another player is answered at once.
 */
async function floodWithStore(store: Storage, storedProofs: (jkt: string) => Promise<number>) {
  const { logIn, call, answer, me } = site(store);
  const player = await logIn(TOKEN);
  const attacker = await logIn(ATTACKER_TOKEN);
  const statuses = await flood(1_000, () => call(attacker.key, attacker.gameToken, ahead()));
  const accepted = statuses.get(200) ?? 0;
  // 300 a minute, its login's proof among them; twice that if the flood ran across a minute's end.
  assert.ok(accepted >= MAX_STORED_PER_PLAYER_MINUTE - 1 && accepted <= 2 * MAX_STORED_PER_PLAYER_MINUTE, `${accepted} accepted`);
  assert.equal(statuses.get(429), 1_000 - accepted, `answers ${JSON.stringify([...statuses])}`);
  // Those accepted and its login's own proof, none of those refused.
  const stored = await storedProofs(attacker.key.jkt);
  assert.equal(stored, accepted + 1, `the store holds ${stored} proofs of the ${accepted} accepted`);

  const refused = await answer(attacker.key, attacker.gameToken);
  assert.equal(refused.status, 429);
  assert.ok(Number(refused.headers.get('retry-after')) >= 1 && Number(refused.headers.get('retry-after')) <= 60);
  assert.match(refused.headers.get('access-control-expose-headers') ?? '', /Retry-After/);
  assert.equal(await call(player.key, player.gameToken), 200, 'another player was refused');

  // Whoever holds a copy of one of a player's proofs (with its token) and sends it again and
  // again does not use up that player's share: a replay counts against no one.
  const { key, gameToken } = await logIn(TOKEN);
  const proof = await dpopProof(key, 'GET', `${SITE}/api/me`, { token: gameToken });
  const replayed = await flood(
    1_000,
    async () =>
      (await me(new Request(`${SITE}/api/me`, { headers: { Origin: GAME, Authorization: `DPoP ${gameToken}`, DPoP: proof } }))).status,
  );
  // Accepted once, refused 999 times as a replay, in whatever order the answers came.
  assert.deepEqual(
    [...replayed].sort(([a], [b]) => a - b),
    [
      [200, 1],
      [401, 999],
    ],
  );
  assert.equal(await call(key, gameToken), 200, "replays of the player's proof used up its share");
}

describe('with a shared store, a logged-in player cannot make it hold more than its share of proofs', () => {
  describe('Redis', { skip: redisMissing }, () => {
    const redis = useRedis('itch-dpop-flood');
    it('is refused past 300 a minute, and Redis holds no more of its proofs', async () => {
      const { store, client } = await redis.store();
      await floodWithStore(store, async (jkt) => (await client.keys(`itch-dpop-flood:itch-session:dpop:${jkt}.*`)).length);
    });
  });

  it('the Durable Object store', async () => {
    const namespace = memoryNamespace(ItchOAuthStore as unknown as StoreClass);
    await floodWithStore(durableObjectStore(namespace as never), async (jkt) => {
      let held = 0;
      for (const { storage } of namespace.objects.values()) held += (await storage.list({ prefix: `c:itch-session:dpop:${jkt}.` })).size;
      return held;
    });
  });
});
