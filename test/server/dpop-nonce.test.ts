// DPoP server nonces (RFC 9449 section 9), attacked. A hostile game on itch.io's shared origin can
// use a player's key while it runs (it cannot take it away): without a nonce it could sign proofs
// dated an hour ahead and send them after it is gone, to call the site as the player and to use up
// the player's share of remembered proofs (RFC 9449 section 11.2). Each test states what the
// attacker must not get:
// - a proof signed ahead with the nonce of its moment is refused once that nonce is a few minutes old;
// - a proof without a nonce, with another deployment's, or with a value that is not one, is refused
//   with use_dpop_nonce and the answer says the nonce to use (readable across origins);
// - proofs refused for their nonce are not remembered: they use up no one's share.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import { createSessions, createTokenHandler } from '../../src/server/index.js';
import { MAX_STORED_PER_PLAYER_MINUTE } from '../../src/server/sessions/dpop.js';
import { NONCE_PERIOD_MS } from '../../src/server/sessions/dpop-nonce.js';
import { dpopKey, dpopProof, gameLoginRequest, siteNonce, TEST_SECRET, type DpopKey } from '../support/dpop.js';
import { fakeItch } from './support/fake-itch.js';

const SITE = 'https://game.example';
const GAME = 'https://html-classic.itch.zone';
const TOKEN = 'ItchAccessToken0123456789abcdefghijklmno';
const OTHER_SECRET = 'another deployment, with a secret of its own, 32+ long';
const user = { id: 7, username: 'pine', url: 'https://pine.itch.io', gamer: true, developer: false, press_user: false };

/** A site with sessions under `secrets`, its token endpoint, one game API route and renew. */
function site(secrets: string[] = [TEST_SECRET]) {
  const sessions = createSessions({ secrets, allowedOrigins: [GAME], origin: SITE });
  const handler = createTokenHandler({
    applicationId: 42,
    origin: SITE,
    fetch: fakeItch(TOKEN, user),
    allowedOrigins: [GAME],
    onLogin: sessions.onLogin,
    onError: () => undefined,
  });
  const me = sessions.route({ allow: ['game'] }, (_request, session) => Response.json(session.user));
  /** A bound game token of `key`. */
  const gameTokenOf = async (key: DpopKey) => {
    const answer = await handler(await gameLoginRequest(`${SITE}/auth/itch`, GAME, key, TOKEN));
    assert.equal(answer.status, 200);
    assert.match(answer.headers.get('dpop-nonce') ?? '', /^[\w-]{43}$/, 'the login says the nonce of its first proofs');
    assert.match(answer.headers.get('access-control-expose-headers') ?? '', /DPoP-Nonce/, 'which the game can read');
    return ((await answer.json()) as { gameToken: string }).gameToken;
  };
  /** `GET /api/me` with the token and `proof`. */
  const call = (gameToken: string, proof: string) =>
    me(new Request(`${SITE}/api/me`, { headers: { Origin: GAME, Authorization: `DPoP ${gameToken}`, DPoP: proof } }));
  /** `POST /api/renew` with the token and `proof`. */
  const renew = (gameToken: string, proof: string) =>
    sessions.renew(
      new Request(`${SITE}/api/renew`, { method: 'POST', headers: { Origin: GAME, Authorization: `DPoP ${gameToken}`, DPoP: proof } }),
    );
  /** A proof of `GET /api/me` with `nonce` (this moment's of the test secret by default; `null`: none). */
  const proofFor = (key: DpopKey, gameToken: string, options: { nonce?: string | null; iat?: number } = {}) =>
    dpopProof(key, 'GET', `${SITE}/api/me`, { token: gameToken, ...options });
  return { sessions, gameTokenOf, call, renew, proofFor };
}

/** `answer` asks for the nonce (RFC 9449 section 9): 401 use_dpop_nonce with a DPoP-Nonce the game's page can read. */
async function assertAsksForNonce(answer: Response, nonce: string) {
  assert.equal(answer.status, 401);
  assert.match(answer.headers.get('www-authenticate') ?? '', /^DPoP error="use_dpop_nonce"/);
  assert.equal(answer.headers.get('dpop-nonce'), nonce, 'the answer names the nonce to use');
  assert.equal(answer.headers.get('access-control-allow-origin'), GAME);
  assert.match(answer.headers.get('access-control-expose-headers') ?? '', /DPoP-Nonce/);
  await answer.body?.cancel();
}

const realNow = Date.now.bind(Date);
/** The middle of the nonce period in which the running test began: every clockAt() of a test counts from it. */
let middle = 0;
/**
 * Stops this process's clock (`Date.now`) at `ms` from the middle of the nonce period the test
 * began in: no test can see a nonce change under it by crossing a period's end in real time.
 */
function clockAt(ms = 0) {
  mock.restoreAll();
  mock.method(Date, 'now', () => middle + ms);
}

const seconds = () => Math.floor(Date.now() / 1000);

describe('DPoP nonces', () => {
  beforeEach(() => {
    middle = (Math.floor(realNow() / NONCE_PERIOD_MS) + 0.5) * NONCE_PERIOD_MS;
    clockAt(0);
  });
  afterEach(() => mock.restoreAll());

  it('a proof with a token but no nonce is asked again with one, and the proof that carries it is accepted', async () => {
    const { gameTokenOf, call, proofFor } = site();
    const key = await dpopKey();
    const gameToken = await gameTokenOf(key);
    const nonce = await siteNonce();
    await assertAsksForNonce(await call(gameToken, await proofFor(key, gameToken, { nonce: null })), nonce);
    const answer = await call(gameToken, await proofFor(key, gameToken, { nonce }));
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get('dpop-nonce'), nonce, "an accepted request's answer also carries the nonce");
    assert.equal(((await answer.json()) as { id: number }).id, user.id);
  });

  it('attack: proofs a hostile game signed ahead, with the nonce of its moment, are refused once it is a few minutes old', async () => {
    const { gameTokenOf, call, proofFor } = site();
    const key = await dpopKey();
    const gameToken = await gameTokenOf(key);
    // While the hostile game runs: this moment's nonce, and proofs dated 10 and 30 minutes ahead.
    const nonce = await siteNonce();
    const now = seconds();
    const ahead = [10, 30].map((minutes) => ({ minutes, proof: proofFor(key, gameToken, { nonce, iat: now + minutes * 60 }) }));
    for (const { minutes, proof } of ahead) {
      clockAt(minutes * 60_000);
      // Without nonces (measured with the check removed), both are 200: calls as the player.
      await assertAsksForNonce(await call(gameToken, await proof), await siteNonce());
    }
  });

  it('a nonce is accepted in its minute and the next (instances whose clocks differ), not three minutes on', async () => {
    const { gameTokenOf, call, proofFor } = site();
    const key = await dpopKey();
    const gameToken = await gameTokenOf(key);
    const nonce = await siteNonce();
    clockAt(NONCE_PERIOD_MS);
    assert.equal((await call(gameToken, await proofFor(key, gameToken, { nonce }))).status, 200, 'a minute on');
    clockAt(3 * NONCE_PERIOD_MS);
    await assertAsksForNonce(await call(gameToken, await proofFor(key, gameToken, { nonce })), await siteNonce());
    clockAt(0);
    // An instance a minute ahead of the one that made the next minute's nonce.
    const next = await siteNonce(TEST_SECRET, Date.now() + NONCE_PERIOD_MS);
    assert.equal((await call(gameToken, await proofFor(key, gameToken, { nonce: next }))).status, 200, "the next minute's");
  });

  it("attack: another deployment's nonce, or a value that is not a nonce, is refused; a retiring secret's nonces still hold", async () => {
    const { gameTokenOf, call, proofFor } = site();
    const key = await dpopKey();
    const gameToken = await gameTokenOf(key);
    const nonce = await siteNonce();
    const refused = [await siteNonce(OTHER_SECRET), nonce.slice(0, -1) + (nonce.endsWith('A') ? 'B' : 'A'), nonce + 'A', 'x', ''];
    for (const value of refused) await assertAsksForNonce(await call(gameToken, await proofFor(key, gameToken, { nonce: value })), nonce);
    // A nonce that is not a string.
    const odd = await dpopProof(key, 'GET', `${SITE}/api/me`, { token: gameToken, nonce: null, payload: { nonce: 12 } });
    await assertAsksForNonce(await call(gameToken, odd), nonce);
    // Secrets rotated: the new first secret makes the nonces, the old one's are still accepted.
    const rotated = site([OTHER_SECRET, TEST_SECRET]);
    const rotatedToken = await rotated.gameTokenOf(key);
    const answer = await rotated.call(rotatedToken, await proofFor(key, rotatedToken, { nonce }));
    assert.equal(answer.status, 200, "the retiring secret's nonce");
    assert.equal(answer.headers.get('dpop-nonce'), await siteNonce(OTHER_SECRET), 'the next nonce is the new secret’s');
  });

  it('renew asks for the nonce as every request with a token, and its answer carries it', async () => {
    const { gameTokenOf, renew } = site();
    const key = await dpopKey();
    const gameToken = await gameTokenOf(key);
    const nonce = await siteNonce();
    const renewProof = (value: string | null) => dpopProof(key, 'POST', `${SITE}/api/renew`, { token: gameToken, nonce: value });
    await assertAsksForNonce(await renew(gameToken, await renewProof(null)), nonce);
    const answer = await renew(gameToken, await renewProof(nonce));
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get('dpop-nonce'), nonce);
    assert.ok(((await answer.json()) as { gameToken?: string }).gameToken);
  });

  it("attack: a flood of proofs signed ahead uses up nothing of the player's share of remembered proofs", async () => {
    const { gameTokenOf, call, proofFor } = site();
    const key = await dpopKey();
    const gameToken = await gameTokenOf(key);
    const nonce = await siteNonce();
    const later = seconds() + 10 * 60;
    const flood = await Promise.all(
      Array.from({ length: MAX_STORED_PER_PLAYER_MINUTE + 50 }, () => proofFor(key, gameToken, { nonce, iat: later })),
    );
    clockAt(10 * 60_000);
    const statuses = await Promise.all(flood.map(async (proof) => (await call(gameToken, proof)).status));
    assert.deepEqual([...new Set(statuses)], [401], 'every proof signed ahead is refused');
    // The player, on the game's own page, is not held back by them.
    const answer = await call(gameToken, await proofFor(key, gameToken));
    assert.equal(answer.status, 200);
  });
});
