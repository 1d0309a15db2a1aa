// The current server-side API, which itch.io serves on https://api.itch.io and the emulator
// under /api (its apiUrl): API keys and JWTs as Bearer, RFC 3339 dates, the purchase fields of
// itch.io's current documentation (quantity, status, purchase_type, a bundle's game_id list),
// and wharf/latest without a credential.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_SEED_CREDENTIALS as C, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { api, assertApiError, testRecordedAnswersMatchSchemas } from './support.js';

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const G = C.games;

let emulator: RunningEmulator;
before(async () => {
  emulator = await startEmulator();
});
after(() => emulator.close());

test('apiUrl is the emulator url with /api, where it serves what api.itch.io serves', () => {
  assert.equal(emulator.apiUrl, `${emulator.url}/api`);
});

describe('games/ID/purchases', () => {
  test('lists a bundle purchase with the bundle game ids, quantity, status and type', async () => {
    for (const game of [G.starfallKeep, G.lanternLetters]) {
      const answer = await api(emulator, `/api/games/${game}/purchases?email=${encodeURIComponent(C.emails.bundleBuyer)}`, {
        bearer: C.apiKeys.developer,
      });
      assert.equal(answer.status, 200);
      assert.deepEqual(answer.body.purchases, [
        {
          id: 3008,
          email: C.emails.bundleBuyer,
          source: 'stripe',
          currency: 'USD',
          price: '$6.00',
          sale_rate: 0,
          donation: false,
          game_id: [G.starfallKeep, G.lanternLetters],
          created_at: answer.body.purchases[0].created_at,
          quantity: 1,
          status: 'complete',
          purchase_type: 'bundle',
        },
      ]);
      assert.match(answer.body.purchases[0].created_at, RFC3339);
    }
  });

  test('lists a game purchase with a single game_id and purchase_type game', async () => {
    const answer = await api(emulator, `/api/games/${G.starfallKeep}/purchases?user_id=${C.users.gamer}`, { bearer: C.apiKeys.developer });
    assert.equal(answer.status, 200);
    assert.deepEqual(
      answer.body.purchases.map((p: Record<string, unknown>) => [p['id'], p['game_id'], p['purchase_type'], p['status']]),
      [[3001, G.starfallKeep, 'game', 'complete']],
    );
  });

  test('the legacy API names only the game asked about, with its own date format', async () => {
    const answer = await api(
      emulator,
      `/api/1/${C.apiKeys.developer}/game/${G.lanternLetters}/purchases?email=${encodeURIComponent(C.emails.bundleBuyer)}`,
    );
    assert.equal(answer.body.purchases[0].game_id, G.lanternLetters);
    assert.match(answer.body.purchases[0].created_at, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    assert.equal(answer.body.purchases[0].purchase_type, undefined);
  });

  test('accepts a JWT as Bearer and checks its scope', async () => {
    assertApiError(
      await api(emulator, `/api/games/${G.starfallKeep}/purchases?user_id=${C.users.gamer}`, { bearer: C.jwts.valid }),
      403,
      'jwt does not permit `game:view:purchases`',
    );
  });

  test('refuses a game the caller may not edit, and a missing lookup', async () => {
    assertApiError(
      await api(emulator, `/api/games/${G.hollowSignal}/purchases?user_id=1`, { bearer: C.apiKeys.developer }),
      403,
      'you do not have edit access to this game',
    );
    assertApiError(
      await api(emulator, `/api/games/${G.starfallKeep}/purchases`, { bearer: C.apiKeys.developer }),
      400,
      /missing parameter/,
    );
  });
});

describe('games/ID/download_keys', () => {
  test('finds the key of a bundle purchase for each of its games, dates in RFC 3339', async () => {
    const answer = await api(emulator, `/api/games/${G.lanternLetters}/download_keys?download_key=${C.downloadKeys.bundleLantern}`, {
      bearer: C.apiKeys.developer,
    });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.download_key.game_id, G.lanternLetters);
    assert.match(answer.body.download_key.created_at, RFC3339);
    assertApiError(
      await api(emulator, `/api/games/${G.starfallKeep}/download_keys?download_key=${C.downloadKeys.bundleLantern}`, {
        bearer: C.apiKeys.developer,
      }),
      400,
      'invalid download key',
    );
  });

  test('needs a credential', async () => {
    assertApiError(
      await api(emulator, `/api/games/${G.starfallKeep}/download_keys?user_id=${C.users.gamer}`),
      401,
      'authentication required',
    );
  });
});

describe('wharf/latest', () => {
  test('answers the latest version of a channel without any credential', async () => {
    const answer = await api(emulator, '/api/wharf/latest?target=pixelforge/starfall-keep&channel_name=windows');
    assert.deepEqual(answer, { ...answer, status: 200, body: { latest: '1.4.2' } });
  });

  test('leaves latest out for a channel without a build', async () => {
    const answer = await api(emulator, '/api/wharf/latest?target=PixelForge/Starfall-Keep&channel_name=android');
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body, {});
  });

  test('answers invalid game for an unknown target, and 400 without target or channel', async () => {
    assertApiError(await api(emulator, '/api/wharf/latest?target=nobody/nothing&channel_name=windows'), 404, 'invalid game');
    assertApiError(await api(emulator, '/api/wharf/latest?target=pixelforge/starfall-keep'), 400, /missing parameter/);
  });
});

testRecordedAnswersMatchSchemas();
