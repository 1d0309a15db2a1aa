// The memory of accepted DPoP proofs without a store (RFC 9449 section 11.1: a proof counts once),
// attacked by a logged-in player: its proofs are remembered (it has a valid token), and proofs
// dated 5 minutes ahead stay longest. Filling the memory would get every player's next proof
// refused for up to 5 minutes (a full memory forgets its oldest and refuses everything no newer);
// one player must not be able to do that, and no proof may ever be accepted twice.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  DPOP_WINDOW_S,
  MAX_REMEMBERED,
  MAX_REMEMBERED_PER_PLAYER,
  TooManyProofs,
  checkProof,
  createProofReplay,
} from '../../src/server/sessions/dpop.js';
import { SessionStoreError } from '../../src/server/sessions/revocation.js';
import { dpopKey, dpopProof } from '../support/dpop.js';

/** The end of a proof remembered `ttl` seconds from now (seconds since the epoch, as checkProof gives it: the proof's iat + 300). */
const end = (ttl: number) => Date.now() / 1000 + ttl;

/**
 * A replay check's outcome: remembered now, seen before, refused as past the player's share (and
 * when to come back), or refused because the memory forgot proofs as new (it cannot tell).
 */
const outcome = (remembered: Promise<boolean>): Promise<'new' | 'seen' | 'full' | { retryAfter: number }> =>
  remembered.then(
    (fresh) => (fresh ? 'new' : 'seen'),
    (error: unknown) => {
      if (error instanceof SessionStoreError) return 'full';
      if (!(error instanceof TooManyProofs)) throw error;
      return { retryAfter: error.retryAfter };
    },
  );

/** The longest a proof is remembered: dated as far ahead as accepted. */
const AHEAD = 2 * DPOP_WINDOW_S;

describe('the in-memory proof memory', () => {
  it('accepts a proof once, and again only after it expired', async (t) => {
    t.mock.timers.enable({ apis: ['Date'], now: 1_000_000 });
    const replay = createProofReplay(undefined);
    assert.equal(await replay('jkt.a', end(10), 'player'), true);
    assert.equal(await replay('jkt.a', end(10), 'player'), false, 'replayed');
    assert.equal(await replay('jkt.a', end(10), 'another'), false, 'replayed by another player');
    t.mock.timers.tick(10_001);
    assert.equal(await replay('jkt.a', end(10), 'player'), true, 'its iat is no longer acceptable anyway');
  });

  it('one logged-in player flooding proofs dated ahead cannot get another player refused', async () => {
    const replay = createProofReplay(undefined);
    let accepted = 0;
    for (let sent = 0; sent <= MAX_REMEMBERED; sent++)
      if ((await outcome(replay(`attacker.${sent}`, end(AHEAD), '666'))) === 'new') accepted++;
    // Alone, a player may hold up to half the memory; past that, its share.
    assert.equal(accepted, MAX_REMEMBERED / 2, 'the flooding player was refused once half the memory was its');
    // Told to come back when its first proof expires, not that its fresh proof was a replay.
    const told = await outcome(replay('attacker.fresh', end(AHEAD), '666'));
    assert.ok(typeof told === 'object' && told.retryAfter > 0 && told.retryAfter <= AHEAD, `told ${JSON.stringify(told)}`);
    // Every other player: its own share, then the next proofs of the first are still accepted.
    for (let sent = 0; sent < MAX_REMEMBERED_PER_PLAYER; sent++) assert.equal(await replay(`busy.${sent}`, end(AHEAD), '7'), true);
    assert.ok(typeof (await outcome(replay('busy.more', end(AHEAD), '7'))) === 'object', 'a player at its share past half');
    assert.equal(await replay('honest.1', end(DPOP_WINDOW_S), '1'), true, 'an honest player was refused');
    assert.equal(await replay('honest.2', end(DPOP_WINDOW_S), '1'), true);
  });

  it('twenty-six players at their share fill it, and then nothing is accepted twice', async (t) => {
    t.mock.timers.enable({ apis: ['Date'], now: 1_000_000 });
    // What filling it takes now: MAX_REMEMBERED / 2 from one player, and the rest at most
    // MAX_REMEMBERED_PER_PLAYER each (26 itch.io accounts that each logged in). What it costs
    // then is availability, never a replay: the oldest forgotten, anything no newer refused.
    const replay = createProofReplay(undefined);
    for (let sent = 0; sent < MAX_REMEMBERED / 2; sent++) await replay(`first.${sent}`, end(AHEAD), 'p0');
    const players = (MAX_REMEMBERED / 2 + 1) / MAX_REMEMBERED_PER_PLAYER;
    for (let player = 1; player <= Math.ceil(players); player++)
      for (let sent = 0; sent < MAX_REMEMBERED_PER_PLAYER; sent++) await outcome(replay(`p${player}.${sent}`, end(AHEAD), `p${player}`));
    assert.equal(await outcome(replay('first.0', end(AHEAD), 'someone')), 'full', 'a forgotten proof accepted again');
    // Refused as the server's state (503), not as a replay (a 401 would sign an honest game out).
    assert.equal(await outcome(replay('late.0', end(DPOP_WINDOW_S), 'honest')), 'full', 'a proof no newer than the forgotten one accepted');
  });

  it('gives a player at its share its room back as its proofs expire', async (t) => {
    t.mock.timers.enable({ apis: ['Date'], now: 1_000_000 });
    const replay = createProofReplay(undefined);
    for (let sent = 0; sent < MAX_REMEMBERED / 2; sent++) await replay(`other.${sent}`, end(AHEAD), 'other');
    for (let sent = 0; sent < MAX_REMEMBERED_PER_PLAYER; sent++) assert.equal(await replay(`game.${sent}`, end(1), 'game'), true);
    assert.deepEqual(await outcome(replay('game.more', end(1), 'game')), { retryAfter: 1 });
    t.mock.timers.tick(1_001);
    assert.equal(await replay('game.more', end(1), 'game'), true, 'its expired proofs still counted against it');
  });

  it('refuses a proof forgotten once it was full when it is sent again, at any later moment', async (t) => {
    // 100 ms into a second. The proof is checked as a request's (checkProof): what it is remembered
    // until is its own iat + 300 s, not a time counted from the moment it is sent, which for the
    // same proof sent later in another second would land past the mark of what was forgotten.
    t.mock.timers.enable({ apis: ['Date'], now: 1_900_000_000_100 });
    const site = 'https://game.example';
    const replay = createProofReplay(undefined);
    const token = 'a.game.token';
    const proof = await dpopProof(await dpopKey(), 'GET', `${site}/api/me`, { token });
    const check = () =>
      checkProof(new Request(`${site}/api/me`, { headers: { DPoP: proof } }), site, (key, until) => replay(key, until, 'player'), token);
    assert.ok('jkt' in (await check()));
    // Filled by others' proofs of this very moment (twenty-six players at their share can), one past
    // its size: the player's proof, the oldest, is forgotten, and the mark is where it ended.
    let filled = 0;
    for (let player = 0; filled < MAX_REMEMBERED; player++)
      for (let sent = 0; sent < MAX_REMEMBERED_PER_PLAYER && filled < MAX_REMEMBERED; sent++)
        if (await replay(`p${player}.${sent}`, end(DPOP_WINDOW_S), `p${player}`)) filled++;
    t.mock.timers.tick(2_800); // 900 ms into a later second
    await assert.rejects(check(), SessionStoreError);
  });
});
