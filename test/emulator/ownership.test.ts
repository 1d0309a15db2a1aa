// The default seed's owners, as the two ownership checks of itch.io see them: the player's token
// on /games/ID/ownership and the developer's API key on download_keys?user_id=. They must agree
// with each other and with DEFAULT_SEED_OWNERS for every user of the seed.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  DEFAULT_SEED,
  DEFAULT_SEED_CREDENTIALS as C,
  DEFAULT_SEED_OWNERS,
  startEmulator,
  type RunningEmulator,
} from '../../src/emulator/index.js';
import { api } from './support.js';

let emulator: RunningEmulator;
before(async () => {
  emulator = await startEmulator();
});
after(() => emulator.close());

const pixelForgeGames = [C.games.starfallKeep, C.games.lanternLetters] as const;

describe('who owns what in the default seed', () => {
  for (const gameId of pixelForgeGames) {
    for (const { id: userId, username } of DEFAULT_SEED.users) {
      const owners: Record<number, string> = DEFAULT_SEED_OWNERS[gameId];
      const expected = Object.hasOwn(owners, userId);
      test(`game ${gameId}, ${username}: ${expected ? `owned (${owners[userId]})` : 'not owned'} by both checks`, async () => {
        const token = emulator.issueToken({ userId, clientId: C.clients.demo.clientId, scopes: 'profile:me game:view:ownership' });
        const ownership = await api(emulator, `/api/games/${gameId}/ownership`, { bearer: token });
        assert.equal(ownership.status, 200);
        assert.deepEqual(ownership.body, { owns: expected });

        const keys = await api(emulator, `/api/games/${gameId}/download_keys?user_id=${userId}`, { bearer: C.apiKeys.developer });
        if (expected) {
          assert.equal(keys.status, 200);
          assert.equal(keys.body.download_key.game_id, gameId);
          assert.equal(keys.body.download_key.owner.id, userId);
        } else {
          assert.equal(keys.status, 404);
          assert.deepEqual(keys.body, { errors: ['no download key found'] });
        }
      });
    }
  }

  test('the bundle owner holds a key of each game of the bundle, from the one bundle purchase', () => {
    const keys = emulator.store.downloadKeys.filter((key) => key.user_id === C.users.bundleOwner);
    assert.deepEqual(keys.map((key) => key.game_id).sort(), [...pixelForgeGames].sort());
    const [purchase] = new Set(keys.map((key) => key.purchase_id));
    assert.equal(emulator.store.purchase(purchase!)?.purchase_type, 'bundle');
  });

  test("the press user's Starfall Keep key is a claim: no purchase behind it", () => {
    const key = emulator.store.downloadKeys.find((k) => k.user_id === C.users.press && k.game_id === C.games.starfallKeep);
    assert.equal(key?.purchase_id, undefined);
  });

  test("a token's ownership check answers only for games of the OAuth application's creator", async () => {
    const token = emulator.issueToken({ userId: C.users.gamer, clientId: C.clients.demo.clientId, scopes: 'game:view:ownership' });
    const answer = await api(emulator, `/api/games/${C.games.hollowSignal}/ownership`, { bearer: token });
    assert.equal(answer.status, 403);
  });
});
