// Floods of DPoP proofs, attacked: without a store, the proofs' jtis are kept in memory (50,000 at
// most), and when that is full every proof no newer than the oldest forgotten one is refused, so
// that none is ever accepted twice. A request whose game token is made up must then use up no
// room: otherwise anyone, with no login and a key of their own, fills it with proofs dated 5
// minutes ahead and every player's next request is refused as a replay for 5 minutes. And a
// logged-in player, whose proofs are remembered, must not be able to fill it alone.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createSessions, createTokenHandler } from '../../src/server/index.js';
import { DPOP_WINDOW_S } from '../../src/server/sessions/dpop.js';
import { dpopKey, dpopProof, type DpopKey } from '../support/dpop.js';
import { fakeItch as fakeItchFor } from './support/fake-itch.js';

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
function site() {
  const sessions = createSessions({ secrets: [SECRET], allowedOrigins: [GAME], origin: SITE });
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
    const login = await handler(
      new Request(`${SITE}/auth/itch`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Origin: GAME,
          'Sec-Fetch-Site': 'cross-site',
          DPoP: await dpopProof(key, 'POST', `${SITE}/auth/itch`),
        },
        body: JSON.stringify({ access_token: token }),
      }),
    );
    const { gameToken } = (await login.json()) as { gameToken: string };
    assert.ok(gameToken);
    return { key, gameToken };
  };
  /** The game API's answer to `GET /api/me` with `gameToken` and a proof by `key`, dated `iat`. */
  const call = async (key: DpopKey, gameToken: string, iat?: number) =>
    (
      await me(
        new Request(`${SITE}/api/me`, {
          headers: {
            Origin: GAME,
            Authorization: `DPoP ${gameToken}`,
            DPoP: await dpopProof(key, 'GET', `${SITE}/api/me`, { token: gameToken, ...(iat === undefined ? {} : { iat }) }),
          },
        }),
      )
    ).status;
  return { logIn, call };
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
    assert.ok((statuses.get(401) ?? 0) > 0, 'the flooding player was never refused');
  },
);
