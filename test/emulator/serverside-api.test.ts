import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_SEED_CREDENTIALS as C, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { api, assertApiError, testRecordedAnswersMatchSchemas } from './support.js';

const SERVERSIDE_DATE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const G = C.games;
const K = C.downloadKeys;

let emulator: RunningEmulator;
before(async () => {
  emulator = await startEmulator();
});
after(() => emulator.close());

/** `/api/1/<developer key>/…`, the form most of these tests use. */
const dev = (path: string): string => `/api/1/${C.apiKeys.developer}${path}`;

describe('the three credential forms: an API key in the path or in a header, a JWT', () => {
  test('the API key in the path', async () => {
    const answer = await api(emulator, `/api/1/${C.apiKeys.gamer}/me`);
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body, {
      user: {
        id: C.users.gamer,
        username: 'mossy',
        display_name: 'Mossy Pine',
        gamer: true,
        developer: false,
        press_user: false,
        url: 'https://mossy.itch.io',
        cover_url: 'https://img.itch.zone/emulator/mossy-avatar.png',
      },
    });
  });

  test('/api/1/key/ with the API key as Bearer', async () => {
    const answer = await api(emulator, '/api/1/key/me', { bearer: C.apiKeys.developer });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.user.username, 'pixelforge');
  });

  test('/api/1/jwt/ with the JWT as Bearer', async () => {
    const answer = await api(emulator, '/api/1/jwt/me', { bearer: C.jwts.valid });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.user.id, C.users.gamer);
  });

  test('/api/1/key/ without an Authorization header is 401', async () => {
    assertApiError(await api(emulator, '/api/1/key/me'), 401, 'authentication required');
  });

  test('/api/1/jwt/ without an Authorization header is 401', async () => {
    assertApiError(await api(emulator, '/api/1/jwt/me'), 401, 'authentication required');
  });

  test('a non-Bearer Authorization header is no credential', async () => {
    const answer = await api(emulator, '/api/1/key/me', { headers: { authorization: `Basic ${C.apiKeys.developer}` } });
    assertApiError(answer, 401, 'authentication required');
  });

  test('an unknown key in the path is 401', async () => {
    assertApiError(await api(emulator, '/api/1/not-a-real-key-0000000000000/me'), 401, 'invalid key');
  });

  test('a revoked key is 401 in the path and as Bearer', async () => {
    assertApiError(await api(emulator, `/api/1/${C.apiKeys.revoked}/me`), 401, 'invalid key');
    assertApiError(await api(emulator, '/api/1/key/me', { bearer: C.apiKeys.revoked }), 401, 'invalid key');
  });

  test('a JWT is not an API key, and an API key is not a JWT', async () => {
    assertApiError(await api(emulator, '/api/1/key/me', { bearer: C.jwts.valid }), 401, 'invalid key');
    assertApiError(await api(emulator, '/api/1/jwt/me', { bearer: C.apiKeys.gamer }), 401, 'invalid jwt');
  });

  test('an expired JWT is refused, credentials/info included', async () => {
    assertApiError(await api(emulator, '/api/1/jwt/me', { bearer: C.jwts.expired }), 401, 'jwt expired');
    assertApiError(await api(emulator, '/api/1/jwt/credentials/info', { bearer: C.jwts.expired }), 401, 'jwt expired');
  });

  test('a JWT is accepted until its expires_at and refused from that instant on', async () => {
    let now = new Date('2030-06-01T11:59:59.999Z');
    const timed = await startEmulator({ now: () => now });
    try {
      const token = timed.issueJwt({ userId: C.users.gamer, scopes: 'profile:me', expiresAt: new Date('2030-06-01T12:00:00Z') });
      assert.equal((await api(timed, '/api/1/jwt/me', { bearer: token })).status, 200);
      now = new Date('2030-06-01T12:00:00Z');
      assertApiError(await api(timed, '/api/1/jwt/me', { bearer: token }), 401, 'jwt expired');
    } finally {
      await timed.close();
    }
  });

  test('authentication comes before routing: an unknown endpoint with a bad key is 401, with a good key 404', async () => {
    assertApiError(await api(emulator, '/api/1/bad-key-0000000000000000000/nope'), 401, 'invalid key');
    assertApiError(await api(emulator, dev('/nope')), 404, 'invalid api endpoint');
  });
});

describe('credentials/info', () => {
  test('an unscoped key has type key and no scopes', async () => {
    const answer = await api(emulator, dev('/credentials/info'));
    assert.deepEqual(answer.body, { type: 'key', scopes: [] });
  });

  test('a JWT has its scopes and expires_at as YYYY-MM-DD HH:MM:ss', async () => {
    const answer = await api(emulator, '/api/1/jwt/credentials/info', { bearer: C.jwts.valid });
    assert.deepEqual(answer.body, { type: 'jwt', scopes: ['profile:me'], expires_at: '2099-12-31 23:59:59' });
  });

  test('an OAuth access token has its scopes and application', async () => {
    const answer = await api(emulator, `/api/1/${C.oauthToken}/credentials/info`);
    assert.deepEqual(answer.body, { type: 'key', scopes: ['profile:me'], oauth_application_id: C.clients.demo.id });
  });
});

describe('scopes', () => {
  test('a JWT with profile:me reaches me but not my-games or purchases', async () => {
    assert.equal((await api(emulator, '/api/1/jwt/me', { bearer: C.jwts.valid })).status, 200);
    assertApiError(await api(emulator, '/api/1/jwt/my-games', { bearer: C.jwts.valid }), 403, 'jwt does not permit `profile:games`');
    const jwt = emulator.issueJwt({ userId: C.users.developer, scopes: 'profile:me', expiresAt: new Date('2099-01-01T00:00:00Z') });
    assertApiError(
      await api(emulator, `/api/1/jwt/game/${G.starfallKeep}/purchases?email=${C.emails.gamer}`, { bearer: jwt }),
      403,
      'jwt does not permit `game:view:purchases`',
    );
  });

  test('a JWT with game:view:purchases reaches purchases and download_keys of its own game', async () => {
    const jwt = emulator.issueJwt({
      userId: C.users.developer,
      scopes: 'game:view:purchases',
      expiresAt: new Date('2099-01-01T00:00:00Z'),
    });
    assert.equal(
      (await api(emulator, `/api/1/jwt/game/${G.starfallKeep}/purchases?user_id=${C.users.gamer}`, { bearer: jwt })).status,
      200,
    );
    assert.equal(
      (await api(emulator, `/api/1/jwt/game/${G.starfallKeep}/download_keys?user_id=${C.users.gamer}`, { bearer: jwt })).status,
      200,
    );
  });

  test("a scope does not reach its parent's endpoints: game:view:purchases:extra does not give game:view:purchases", async () => {
    const jwt = emulator.issueJwt({
      userId: C.users.developer,
      scopes: 'game:view:purchases:extra',
      expiresAt: new Date('2099-01-01T00:00:00Z'),
    });
    assertApiError(
      await api(emulator, `/api/1/jwt/game/${G.starfallKeep}/purchases?user_id=${C.users.gamer}`, { bearer: jwt }),
      403,
      'jwt does not permit `game:view:purchases`',
    );
  });

  test('an OAuth access token in the path reaches me (profile:me) but not my-games', async () => {
    assert.equal((await api(emulator, `/api/1/${C.oauthToken}/me`)).status, 200);
    assertApiError(await api(emulator, `/api/1/${C.oauthToken}/my-games`), 403, 'api key does not permit `profile:games`');
  });
});

describe('my-games', () => {
  test('lists the games the caller uploaded or may edit, and no others', async () => {
    const answer = await api(emulator, dev('/my-games'));
    assert.equal(answer.status, 200);
    assert.deepEqual(
      answer.body.games.map((game: { id: number }) => game.id),
      [G.starfallKeep, G.lanternLetters, G.tidewaterJam, G.prototype],
    );
    const other = await api(emulator, `/api/1/${C.apiKeys.otherDeveloper}/my-games`);
    assert.deepEqual(
      other.body.games.map((game: { id: number }) => game.id),
      [G.tidewaterJam, G.hollowSignal],
    );
  });

  test('is an empty list for a user with no games', async () => {
    const answer = await api(emulator, `/api/1/${C.apiKeys.gamer}/my-games`);
    assert.deepEqual(answer.body, { games: [] });
  });

  test('serializes a game with the fields itch.io documents, dates as YYYY-MM-DD HH:MM:ss', async () => {
    const answer = await api(emulator, dev('/my-games'));
    const [starfall] = answer.body.games;
    assert.deepEqual(starfall, {
      id: G.starfallKeep,
      title: 'Starfall Keep',
      short_text: 'Hold the last tower while the sky falls, one star at a time.',
      type: 'default',
      url: 'https://pixelforge.itch.io/starfall-keep',
      cover_url: 'https://img.itch.zone/emulator/starfall-keep.png',
      created_at: '2023-03-20 09:12:44',
      published: true,
      published_at: '2023-04-02 16:00:00',
      min_price: 500,
      downloads_count: 1834,
      purchases_count: 4, // 3001, 3007 and the bundles 3008 and 3009
      views_count: 20417,
      p_android: false,
      p_linux: true,
      p_osx: true,
      p_windows: true,
      earnings: [
        { currency: 'USD', amount: 184250, amount_formatted: '$1,842.50' },
        { currency: 'EUR', amount: 23100, amount_formatted: '€231.00' },
      ],
    });
    const draft = answer.body.games.find((game: { id: number }) => game.id === G.prototype);
    assert.equal(draft.published, false);
    assert.equal('published_at' in draft, false);
    assert.match(draft.created_at, SERVERSIDE_DATE);
  });
});

describe('game/<id>/…: an integer id, and a game the credential may see', () => {
  test('a game id that is not an integer is 404 invalid game', async () => {
    assertApiError(await api(emulator, dev('/game/abc/purchases?email=a@example.com')), 404, 'invalid game');
    assertApiError(await api(emulator, dev('/game/1.5/download_keys?user_id=1')), 404, 'invalid game');
  });

  test('an unknown game is 404 invalid game', async () => {
    assertApiError(await api(emulator, dev('/game/999999/purchases?email=a@example.com')), 404, 'invalid game');
  });

  test("another developer's game without edit access is 403", async () => {
    assertApiError(
      await api(emulator, dev(`/game/${G.hollowSignal}/purchases?email=${C.emails.gamer}`)),
      403,
      'you do not have edit access to this game',
    );
    assertApiError(
      await api(emulator, dev(`/game/${G.hollowSignal}/download_keys?user_id=${C.users.gamer}`)),
      403,
      'you do not have edit access to this game',
    );
  });

  test("another developer's game with edit access is allowed", async () => {
    const answer = await api(emulator, dev(`/game/${G.tidewaterJam}/purchases?user_id=${C.users.gamer}`));
    assert.equal(answer.status, 200);
  });
});

describe('download_keys (rules 2, 3, 9, 10)', () => {
  test('finds a purchased key by its value, with its owner', async () => {
    const answer = await api(emulator, dev(`/game/${G.starfallKeep}/download_keys?download_key=${K.gamerStarfall}`));
    assert.equal(answer.status, 200);
    assert.deepEqual(Object.keys(answer.body), ['download_key']);
    const key = answer.body.download_key;
    assert.equal(key.id, 4001);
    assert.equal(key.key, K.gamerStarfall);
    assert.equal(key.game_id, G.starfallKeep);
    assert.equal(key.downloads, 4);
    assert.equal(key.created_at, '2023-05-01 14:22:10');
    assert.equal(key.owner.id, C.users.gamer);
    assert.equal(key.owner.username, 'mossy');
  });

  test('finds a claimed key by user_id', async () => {
    const answer = await api(emulator, dev(`/game/${G.starfallKeep}/download_keys?user_id=${C.users.press}`));
    assert.equal(answer.body.download_key.key, K.pressClaim);
  });

  test("finds a claimed key by the claimer's e-mail address", async () => {
    const answer = await api(emulator, dev(`/game/${G.starfallKeep}/download_keys?email=${C.emails.press}`));
    assert.equal(answer.body.download_key.key, K.pressClaim);
  });

  test("finds a key by an e-mail address linked to the buyer's", async () => {
    const answer = await api(emulator, dev(`/game/${G.starfallKeep}/download_keys?email=${C.emails.gamerLinked}`));
    assert.equal(answer.body.download_key.key, K.gamerStarfall);
  });

  test('finds a key bought without an account by its address; it has no owner', async () => {
    const answer = await api(emulator, dev(`/game/${G.starfallKeep}/download_keys?email=${C.emails.gamerUnverified}`));
    assert.equal(answer.body.download_key.key, K.guest);
    assert.equal('owner' in answer.body.download_key, false);
  });

  test('accepts the parameters in a POST form body', async () => {
    const answer = await api(emulator, dev(`/game/${G.starfallKeep}/download_keys`), { form: { user_id: String(C.users.press) } });
    assert.equal(answer.body.download_key.key, K.pressClaim);
  });

  test('an unknown key is invalid download key', async () => {
    assertApiError(await api(emulator, dev(`/game/${G.starfallKeep}/download_keys?download_key=nope`)), 400, 'invalid download key');
  });

  test('a revoked key is invalid download key', async () => {
    assertApiError(
      await api(emulator, dev(`/game/${G.starfallKeep}/download_keys?download_key=${K.revoked}`)),
      400,
      'invalid download key',
    );
  });

  test("another game's key is invalid download key", async () => {
    assertApiError(
      await api(emulator, dev(`/game/${G.starfallKeep}/download_keys?download_key=${K.gamerTidewater}`)),
      400,
      'invalid download key',
    );
  });

  test('a user who neither bought nor claimed the game gets no download key found', async () => {
    assertApiError(
      await api(emulator, dev(`/game/${G.starfallKeep}/download_keys?user_id=${C.users.otherDeveloper}`)),
      404,
      'no download key found',
    );
    assertApiError(
      await api(emulator, dev(`/game/${G.starfallKeep}/download_keys?email=stranger@example.com`)),
      404,
      'no download key found',
    );
  });

  test('a donation without a key gives no download key found', async () => {
    assertApiError(
      await api(emulator, dev(`/game/${G.lanternLetters}/download_keys?email=${C.emails.press}`)),
      404,
      'no download key found',
    );
  });

  test('without download_key, user_id or email is 400', async () => {
    assertApiError(await api(emulator, dev(`/game/${G.starfallKeep}/download_keys`)), 400, /^missing parameter/);
    assertApiError(await api(emulator, dev(`/game/${G.starfallKeep}/download_keys?email=`)), 400, /^missing parameter/);
  });

  test('a user_id that is not an integer is 400', async () => {
    assertApiError(
      await api(emulator, dev(`/game/${G.starfallKeep}/download_keys?user_id=mossy`)),
      400,
      'user_id must be a positive integer',
    );
  });
});

describe('purchases (rules 4–8, donation)', () => {
  const ids = (body: { purchases: { id: number }[] }): number[] => body.purchases.map((purchase) => purchase.id);

  test('returns completed purchases only: not the pending one, not the refunded one', async () => {
    const answer = await api(emulator, dev(`/game/${G.starfallKeep}/purchases?email=${C.emails.gamer}`));
    assert.deepEqual(ids(answer.body), [3001]);
  });

  test('serializes a purchase with the fields itch.io documents', async () => {
    const answer = await api(emulator, dev(`/game/${G.starfallKeep}/purchases?email=${C.emails.gamer}`));
    assert.deepEqual(answer.body.purchases[0], {
      id: 3001,
      game_id: G.starfallKeep,
      email: C.emails.gamer,
      created_at: '2023-05-01 14:22:09',
      source: 'stripe',
      currency: 'USD',
      price: '$5.00',
      sale_rate: 0,
      donation: false,
    });
  });

  test('matches every verified address linked to the one given', async () => {
    const byLinked = await api(emulator, dev(`/game/${G.starfallKeep}/purchases?email=${C.emails.gamerLinked}`));
    assert.deepEqual(ids(byLinked.body), [3001]);
    const boughtUnderLinked = await api(emulator, dev(`/game/${G.tidewaterJam}/purchases?email=${C.emails.gamer}`));
    assert.deepEqual(ids(boughtUnderLinked.body), [3002]);
    assert.equal(boughtUnderLinked.body.purchases[0].email, C.emails.gamerLinked);
  });

  test('matches addresses without regard to case', async () => {
    const answer = await api(emulator, dev(`/game/${G.starfallKeep}/purchases?email=${encodeURIComponent('MOSSY@Example.com')}`));
    assert.deepEqual(ids(answer.body), [3001]);
  });

  test('does not link an unverified address: it matches only its own purchases', async () => {
    const answer = await api(emulator, dev(`/game/${G.starfallKeep}/purchases?email=${C.emails.gamerUnverified}`));
    assert.deepEqual(ids(answer.body), [3007]);
    assert.equal(answer.body.purchases[0].price, '€4.50');
    assert.equal(answer.body.purchases[0].sale_rate, 10);
  });

  test("by user_id, finds purchases made logged in and under the user's verified addresses ", async () => {
    const loggedIn = await api(emulator, dev(`/game/${G.starfallKeep}/purchases?user_id=${C.users.gamer}`));
    assert.deepEqual(ids(loggedIn.body), [3001]);
    const underAddress = await api(emulator, dev(`/game/${G.tidewaterJam}/purchases?user_id=${C.users.gamer}`));
    assert.deepEqual(ids(underAddress.body), [3002]);
  });

  test("a claimed key has no purchases: an empty purchases object, as itch.io's JSON encoder writes an empty list", async () => {
    const purchases = await api(emulator, dev(`/game/${G.starfallKeep}/purchases?user_id=${C.users.press}`));
    assert.equal(purchases.status, 200);
    assert.deepEqual(purchases.body, { purchases: {} });
    const key = await api(emulator, dev(`/game/${G.starfallKeep}/download_keys?user_id=${C.users.press}`));
    assert.equal(key.body.download_key.key, K.pressClaim, 'the claim is found by download_keys');
  });

  test('a purchase without a download key is a donation (the web game)', async () => {
    const answer = await api(emulator, dev(`/game/${G.lanternLetters}/purchases?email=${C.emails.press}`));
    assert.deepEqual(ids(answer.body), [3004]);
    assert.equal(answer.body.purchases[0].donation, true);
  });

  test('accepts the parameters in a POST form body', async () => {
    const answer = await api(emulator, dev(`/game/${G.starfallKeep}/purchases`), { form: { email: C.emails.gamer } });
    assert.deepEqual(ids(answer.body), [3001]);
  });

  test('without email or user_id is 400', async () => {
    assertApiError(await api(emulator, dev(`/game/${G.starfallKeep}/purchases`)), 400, /^missing parameter/);
  });

  test('dates are YYYY-MM-DD HH:MM:ss', async () => {
    const answer = await api(emulator, dev(`/game/${G.tidewaterJam}/purchases?email=${C.emails.gamer}`));
    for (const purchase of answer.body.purchases) assert.match(purchase.created_at, SERVERSIDE_DATE);
  });
});

describe('CORS on /api/1/', () => {
  test('answers a preflight for a Bearer request', async () => {
    const response = await fetch(`${emulator.url}/api/1/key/me`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:3000',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    });
    assert.equal(response.status, 204);
    assert.equal(response.headers.get('access-control-allow-origin'), '*');
    assert.match(response.headers.get('access-control-allow-headers') ?? '', /Authorization/);
  });

  test('puts Access-Control-Allow-Origin on errors too', async () => {
    const answer = await api(emulator, '/api/1/key/me', { headers: { origin: 'http://localhost:3000' } });
    assert.equal(answer.status, 401);
    assert.equal(answer.headers.get('access-control-allow-origin'), '*');
  });
});

testRecordedAnswersMatchSchemas();
