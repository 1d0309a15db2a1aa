import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_SEED_CREDENTIALS as C, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { api, assertApiError, testRecordedAnswersMatchSchemas } from './support.js';

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{9}Z$/;
const G = C.games;
const demo = C.clients.demo.clientId;

let emulator: RunningEmulator;
/** An OAuth access token of the demo application (created by the developer). */
const token = (userId: number, scopes: string, clientId: string = demo): string => emulator.issueToken({ userId, clientId, scopes });

before(async () => {
  emulator = await startEmulator({ ownedKeysPerPage: 2 });
});
after(() => emulator.close());

describe('authentication', () => {
  test('no Authorization header is 401', async () => {
    assertApiError(await api(emulator, '/api/profile'), 401, 'authentication required');
  });

  test('an unknown token is 401', async () => {
    assertApiError(await api(emulator, '/api/profile', { bearer: 'f'.repeat(40) }), 401, 'invalid key');
  });

  test('a revoked token is 401', async () => {
    const revoked = token(C.users.gamer, 'profile:me');
    assert.equal((await api(emulator, '/api/profile', { bearer: revoked })).status, 200);
    assert.ok(emulator.store.revokeApiKey(revoked));
    assertApiError(await api(emulator, '/api/profile', { bearer: revoked }), 401, 'invalid key');
  });

  test('the token in the query string is not a credential', async () => {
    assertApiError(await api(emulator, `/api/profile?api_key=${C.oauthToken}`), 401, 'authentication required');
  });

  test('a valid JWT is accepted and an expired one refused', async () => {
    assert.equal((await api(emulator, '/api/profile', { bearer: C.jwts.valid })).status, 200);
    assertApiError(await api(emulator, '/api/profile', { bearer: C.jwts.expired }), 401, 'jwt expired');
  });

  test('an unscoped API key reaches every endpoint', async () => {
    for (const path of [
      '/api/profile',
      '/api/profile/games',
      '/api/profile/collections',
      '/api/profile/owned-keys',
      `/api/games/${G.starfallKeep}/claimed-rewards`,
    ]) {
      assert.equal((await api(emulator, path, { bearer: C.apiKeys.developer })).status, 200, path);
    }
  });
});

describe('scopes, a scope including its subscopes (profile includes profile:me)', () => {
  const endpoints: [path: string, scope: string][] = [
    ['/api/profile', 'profile:me'],
    ['/api/profile/games', 'profile:games'],
    ['/api/profile/collections', 'profile:collections'],
    ['/api/profile/owned-keys', 'profile:owned'],
    [`/api/games/${G.starfallKeep}/ownership`, 'game:view:ownership'],
    [`/api/games/${G.starfallKeep}/claimed-rewards`, 'game:view:rewards'],
  ];

  for (const [path, scope] of endpoints) {
    test(`${scope} reaches ${path} and no other endpoint`, async () => {
      const credential = token(C.users.developer, scope);
      for (const [otherPath, otherScope] of endpoints) {
        const answer = await api(emulator, otherPath, { bearer: credential });
        if (otherPath === path) assert.equal(answer.status, 200, `${scope} on ${otherPath}`);
        else assertApiError(answer, 403, `api key does not permit \`${otherScope}\``);
      }
    });
  }

  test('profile reaches all four profile endpoints and neither game endpoint', async () => {
    const credential = token(C.users.developer, 'profile');
    for (const [path, scope] of endpoints) {
      const answer = await api(emulator, path, { bearer: credential });
      if (scope.startsWith('profile:')) assert.equal(answer.status, 200, path);
      else assertApiError(answer, 403, `api key does not permit \`${scope}\``);
    }
  });

  test('game:view reaches both game endpoints (a scope includes its subscopes)', async () => {
    const credential = token(C.users.developer, 'game:view');
    assert.equal((await api(emulator, `/api/games/${G.starfallKeep}/ownership`, { bearer: credential })).status, 200);
    assert.equal((await api(emulator, `/api/games/${G.starfallKeep}/claimed-rewards`, { bearer: credential })).status, 200);
    assertApiError(await api(emulator, '/api/profile', { bearer: credential }), 403, 'api key does not permit `profile:me`');
  });

  test('a scope does not include a sibling sharing its prefix: profile:me does not give profile:games', async () => {
    assertApiError(await api(emulator, '/api/profile/games', { bearer: C.oauthToken }), 403, 'api key does not permit `profile:games`');
  });

  test('a JWT is checked against its scopes too', async () => {
    assertApiError(await api(emulator, '/api/profile/owned-keys', { bearer: C.jwts.valid }), 403, 'jwt does not permit `profile:owned`');
  });
});

describe('credentials/info', () => {
  test('needs no scope and names the application of an OAuth token', async () => {
    const answer = await api(emulator, '/api/credentials/info', { bearer: token(C.users.gamer, 'game:view:rewards') });
    assert.deepEqual(answer.body, { type: 'key', scopes: ['game:view:rewards'], oauth_application_id: C.clients.demo.id });
  });

  test('gives a JWT expires_at in RFC 3339', async () => {
    const answer = await api(emulator, '/api/credentials/info', { bearer: C.jwts.valid });
    assert.deepEqual(answer.body, { type: 'jwt', scopes: ['profile:me'], expires_at: '2099-12-31T23:59:59.000000000Z' });
  });

  test('gives an unscoped key an empty scope list', async () => {
    const answer = await api(emulator, '/api/credentials/info', { bearer: C.apiKeys.press });
    assert.deepEqual(answer.body, { type: 'key', scopes: [] });
  });
});

describe('profile', () => {
  test("is the public profile of the token's user", async () => {
    const answer = await api(emulator, '/api/profile', { bearer: token(C.users.press, 'profile:me') });
    assert.deepEqual(answer.body, {
      user: {
        id: C.users.press,
        username: 'inkwell',
        display_name: 'Inkwell Review',
        gamer: true,
        developer: false,
        press_user: true,
        url: 'https://inkwell.itch.io',
        cover_url: 'https://img.itch.zone/emulator/inkwell-avatar.png',
      },
    });
  });

  test('games lists the games the user develops, with traits, counters and earnings', async () => {
    const answer = await api(emulator, '/api/profile/games', { bearer: token(C.users.developer, 'profile:games') });
    assert.deepEqual(
      answer.body.games.map((game: { id: number }) => game.id),
      [G.starfallKeep, G.lanternLetters, G.tidewaterJam, G.prototype],
    );
    const [starfall, lantern] = answer.body.games;
    assert.deepEqual(starfall.traits, ['p_windows', 'p_linux', 'p_osx', 'can_be_bought']);
    assert.equal(starfall.classification, 'game');
    assert.equal(starfall.purchases_count, 4, 'purchases 3001, 3007 and the bundles 3008 and 3009');
    assert.deepEqual(starfall.earnings[0], { currency: 'USD', amount: 184250, amount_formatted: '$1,842.50' });
    assert.match(starfall.created_at, RFC3339);
    assert.equal(starfall.published_at, '2023-04-02T16:00:00.000000000Z');
    assert.equal(lantern.type, 'html');
    assert.deepEqual(lantern.traits, ['can_be_bought']);
  });

  test('games is an empty list for a user who develops nothing', async () => {
    const answer = await api(emulator, '/api/profile/games', { bearer: token(C.users.gamer, 'profile:games') });
    assert.deepEqual(answer.body, { games: [] });
  });

  test("collections lists the user's collections with their game counts", async () => {
    const answer = await api(emulator, '/api/profile/collections', { bearer: token(C.users.gamer, 'profile:collections') });
    assert.deepEqual(answer.body, {
      collections: [
        {
          id: 5001,
          title: 'Cozy evenings',
          created_at: '2023-06-01T20:00:00.000000000Z',
          updated_at: '2023-09-03T21:15:00.000000000Z',
          games_count: 2,
        },
        {
          id: 5002,
          title: 'Play later',
          created_at: '2023-10-06T07:00:00.000000000Z',
          updated_at: '2023-10-06T07:00:00.000000000Z',
          games_count: 0,
        },
      ],
    });
  });
});

describe('profile/owned-keys (paged)', () => {
  test('lists live keys from purchases, newest first, page by page', async () => {
    const credential = token(C.users.gamer, 'profile:owned');
    const first = await api(emulator, '/api/profile/owned-keys', { bearer: credential });
    assert.equal(first.body.page, 1);
    assert.equal(first.body.per_page, 2);
    assert.deepEqual(
      first.body.owned_keys.map((key: { id: number }) => key.id),
      [4004, 4002],
    );
    const second = await api(emulator, '/api/profile/owned-keys?page=2', { bearer: credential });
    assert.equal(second.body.page, 2);
    assert.deepEqual(
      second.body.owned_keys.map((key: { id: number }) => key.id),
      [4001],
      'the revoked key 4005 is not listed',
    );
    const third = await api(emulator, '/api/profile/owned-keys?page=3', { bearer: credential });
    assert.deepEqual(third.body, { page: 3, per_page: 2, owned_keys: [] });
  });

  test('embeds the game and its developer, and the purchase id of a bought key', async () => {
    const answer = await api(emulator, '/api/profile/owned-keys?page=2', { bearer: token(C.users.gamer, 'profile:owned') });
    const [key] = answer.body.owned_keys;
    assert.equal(key.game_id, G.starfallKeep);
    assert.equal(key.purchase_id, 3001);
    assert.equal(key.downloads, 4);
    assert.match(key.created_at, RFC3339);
    assert.equal(key.game.id, G.starfallKeep);
    assert.equal(key.game.title, 'Starfall Keep');
    assert.deepEqual(key.game.user, {
      id: C.users.developer,
      username: 'pixelforge',
      url: 'https://pixelforge.itch.io',
      cover_url: 'https://img.itch.zone/emulator/pixelforge-avatar.png',
    });
  });

  test('lists a claimed key without purchase id', async () => {
    const answer = await api(emulator, '/api/profile/owned-keys', { bearer: token(C.users.press, 'profile:owned') });
    assert.deepEqual(
      answer.body.owned_keys.map((key: { id: number }) => key.id),
      [4003],
    );
    assert.equal('purchase_id' in answer.body.owned_keys[0], false);
  });

  test('takes page from a POST form body', async () => {
    const answer = await api(emulator, '/api/profile/owned-keys', { bearer: token(C.users.gamer, 'profile:owned'), form: { page: '2' } });
    assert.equal(answer.body.page, 2);
  });

  test('refuses a page that is not a positive integer', async () => {
    const credential = token(C.users.gamer, 'profile:owned');
    assertApiError(await api(emulator, '/api/profile/owned-keys?page=0', { bearer: credential }), 400, 'page must be a positive integer');
    assertApiError(await api(emulator, '/api/profile/owned-keys?page=two', { bearer: credential }), 400, 'page must be a positive integer');
  });
});

describe('games/<id>/ownership', () => {
  const owns = async (userId: number, gameId: number): Promise<unknown> =>
    (await api(emulator, `/api/games/${gameId}/ownership`, { bearer: token(userId, 'game:view:ownership') })).body;

  test("is true for a buyer and for a claimer of a game by the application's creator", async () => {
    assert.deepEqual(await owns(C.users.gamer, G.starfallKeep), { owns: true });
    assert.deepEqual(await owns(C.users.press, G.starfallKeep), { owns: true });
    assert.deepEqual(await owns(C.users.otherDeveloper, G.lanternLetters), { owns: true });
  });

  test('is false for a user with no key, even one who donated', async () => {
    assert.deepEqual(await owns(C.users.gamer, G.lanternLetters), { owns: false });
    assert.deepEqual(await owns(C.users.press, G.lanternLetters), { owns: false });
  });

  test("is refused for a game that is not by the application's creator, even one the creator may edit", async () => {
    const credential = token(C.users.gamer, 'game:view:ownership');
    for (const game of [G.hollowSignal, G.tidewaterJam]) {
      assertApiError(await api(emulator, `/api/games/${game}/ownership`, { bearer: credential }), 403, /OAuth application's creator/);
    }
  });

  test("follows the application: the other application's token checks the other developer's games", async () => {
    const credential = token(C.users.gamer, 'game:view:ownership', C.clients.other.clientId);
    const answer = await api(emulator, `/api/games/${G.hollowSignal}/ownership`, { bearer: credential });
    assert.deepEqual(answer.body, { owns: true });
    assertApiError(
      await api(emulator, `/api/games/${G.starfallKeep}/ownership`, { bearer: credential }),
      403,
      /OAuth application's creator/,
    );
  });

  test('is 404 invalid game for an unknown or malformed game id', async () => {
    const credential = token(C.users.gamer, 'game:view:ownership');
    assertApiError(await api(emulator, '/api/games/999999/ownership', { bearer: credential }), 404, 'invalid game');
    assertApiError(await api(emulator, '/api/games/starfall/ownership', { bearer: credential }), 404, 'invalid game');
  });
});

describe('games/<id>/claimed-rewards', () => {
  test('lists the rewards claimed for a game the user develops', async () => {
    const answer = await api(emulator, `/api/games/${G.starfallKeep}/claimed-rewards`, {
      bearer: token(C.users.developer, 'game:view:rewards'),
    });
    assert.deepEqual(answer.body, {
      claimed_rewards: [
        {
          id: 6101,
          reward_id: 6001,
          game_id: G.starfallKeep,
          title: 'Digital artbook',
          purchase_id: 3001,
          created_at: '2023-05-01T14:25:00.000000000Z',
        },
      ],
    });
  });

  test('is an empty list for a game without claims', async () => {
    const answer = await api(emulator, `/api/games/${G.tidewaterJam}/claimed-rewards`, {
      bearer: token(C.users.developer, 'game:view:rewards'),
    });
    assert.deepEqual(answer.body, { claimed_rewards: [] });
  });

  test('is refused for a game the user does not develop', async () => {
    const answer = await api(emulator, `/api/games/${G.starfallKeep}/claimed-rewards`, {
      bearer: token(C.users.gamer, 'game:view:rewards'),
    });
    assertApiError(answer, 403, 'claimed rewards can only be listed for games you develop');
  });
});

describe('unknown endpoints and methods', () => {
  test('an unknown path is 404 invalid api endpoint', async () => {
    assertApiError(await api(emulator, '/api/profile/friends', { bearer: C.oauthToken }), 404, 'invalid api endpoint');
    assertApiError(await api(emulator, '/api/2/key/me', { bearer: C.apiKeys.developer }), 404, 'invalid api endpoint');
  });

  test('a method other than GET or POST is 404 invalid api endpoint', async () => {
    assertApiError(await api(emulator, '/api/profile', { bearer: C.oauthToken, method: 'DELETE' }), 404, 'invalid api endpoint');
  });
});

describe('CORS', () => {
  test('answers a preflight from any origin for GET with Authorization', async () => {
    const response = await fetch(`${emulator.url}/api/profile`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://game.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    });
    assert.equal(response.status, 204);
    assert.equal(response.headers.get('access-control-allow-origin'), '*');
    assert.match(response.headers.get('access-control-allow-methods') ?? '', /\bGET\b/);
    assert.match(response.headers.get('access-control-allow-headers') ?? '', /\bAuthorization\b/);
    assert.equal(response.headers.get('access-control-max-age'), '600');
    assert.equal(response.headers.get('access-control-allow-credentials'), null);
  });

  test('marks answers, successes and errors, readable from any origin', async () => {
    const headers = { origin: 'https://game.example' };
    for (const answer of [
      await api(emulator, '/api/profile', { bearer: C.oauthToken, headers }),
      await api(emulator, '/api/profile', { headers }),
      await api(emulator, '/api/profile/games', { bearer: C.oauthToken, headers }),
      await api(emulator, '/api/nowhere', { headers }),
    ]) {
      assert.equal(answer.headers.get('access-control-allow-origin'), '*', String(answer.status));
    }
  });

  test('leaves the HTML pages without CORS headers', async () => {
    const response = await fetch(`${emulator.url}/user/oauth`, { headers: { origin: 'https://game.example' } });
    await response.text();
    assert.equal(response.headers.get('access-control-allow-origin'), null);
  });
});

testRecordedAnswersMatchSchemas();
