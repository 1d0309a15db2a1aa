import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DEFAULT_SEED_CREDENTIALS as C, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { createItchClient, ItchApiError, type ItchClient, type ItchCredential } from '../../src/server/index.js';

let emulator: RunningEmulator;

before(async () => {
  emulator = await startEmulator({ port: 0 });
});

after(async () => {
  await emulator.close();
});

const client = (credential: ItchCredential): ItchClient =>
  createItchClient({ baseUrl: emulator.url, apiBaseUrl: emulator.apiUrl, credential });

/** An access token of the demo application, as approving its consent page would give. */
const oauthClient = (userId: number, scopes: string): ItchClient =>
  client({ type: 'oauth', accessToken: emulator.issueToken({ userId, clientId: C.clients.demo.clientId, scopes }) });

function apiError(status: number, message: string) {
  return (error: unknown): boolean =>
    error instanceof ItchApiError && error.code === 'api_error' && error.status === status && error.errors.includes(message);
}

describe('the client against the emulator: server-side API (table A)', () => {
  const developerKey: ItchCredential = { type: 'api-key', key: C.apiKeys.developer };

  it('reads credentials/info of an unscoped api-key', async () => {
    assert.deepEqual((await client(developerKey).credentialsInfo()).scopes, []);
  });

  it('reads me with an api-key', async () => {
    assert.equal((await client(developerKey).me()).username, 'pixelforge');
  });

  it('reads me with the key in the path', async () => {
    assert.equal((await client({ type: 'api-key-in-path', key: C.apiKeys.developer }).me()).username, 'pixelforge');
  });

  it('reads my-games with dates and earnings', async () => {
    const games = await client(developerKey).myGames();
    const starfall = games.find((game) => game.id === C.games.starfallKeep);
    assert.equal(starfall?.published_at?.toISOString(), '2023-04-02T16:00:00.000Z');
    assert.equal(starfall?.earnings?.[0]?.amount_formatted, '$1,842.50');
    assert.ok(
      games.some((game) => game.id === C.games.tidewaterJam),
      'a game the developer may edit is listed',
    );
  });

  it('looks a download key up by its value', async () => {
    const key = await client(developerKey).downloadKeys(C.games.starfallKeep, { downloadKey: C.downloadKeys.gamerStarfall });
    assert.equal(key.owner?.id, C.users.gamer);
  });

  it('looks a claimed download key up by user id', async () => {
    const key = await client(developerKey).downloadKeys(C.games.starfallKeep, { userId: C.users.press });
    assert.equal(key.key, C.downloadKeys.pressClaim);
  });

  it('throws "invalid download key" for a revoked key', async () => {
    await assert.rejects(
      client(developerKey).downloadKeys(C.games.starfallKeep, { downloadKey: C.downloadKeys.revoked }),
      apiError(400, 'invalid download key'),
    );
  });

  it('throws "no download key found" for an address without purchase or claim', async () => {
    await assert.rejects(
      client(developerKey).downloadKeys(C.games.lanternLetters, { email: C.emails.gamer }),
      apiError(404, 'no download key found'),
    );
  });

  it('finds purchases made under a linked address', async () => {
    const purchases = await client(developerKey).purchases(C.games.tidewaterJam, { email: C.emails.gamer });
    assert.deepEqual(
      purchases.map((purchase) => purchase.email),
      [C.emails.gamerLinked],
    );
  });

  it('reads the empty purchases object of a claimed key as []', async () => {
    assert.deepEqual(await client(developerKey).purchases(C.games.starfallKeep, { userId: C.users.press }), []);
  });

  it('reads credentials/info of a JWT with its expiry', async () => {
    const info = await client({ type: 'jwt', token: C.jwts.valid }).credentialsInfo();
    assert.equal(info.expires_at?.toISOString(), '2099-12-31T23:59:59.000Z');
  });

  it('reads me with a JWT', async () => {
    assert.equal((await client({ type: 'jwt', token: C.jwts.valid }).me()).username, 'mossy');
  });

  it('throws an expired JWT as an api_error', async () => {
    await assert.rejects(client({ type: 'jwt', token: C.jwts.expired }).me(), apiError(401, 'jwt expired'));
  });

  it('throws a revoked key as an api_error whose endpoint and message hide the key', async () => {
    await assert.rejects(client({ type: 'api-key-in-path', key: C.apiKeys.revoked }).me(), (error: unknown) => {
      assert.ok(apiError(401, 'invalid key')(error));
      assert.equal((error as ItchApiError).endpoint, '/api/1/KEY/me');
      assert.ok(!(error as ItchApiError).message.includes(C.apiKeys.revoked));
      return true;
    });
  });
});

describe('the client against the emulator: OAuth API (table B)', () => {
  it('reads credentials/info of an access token with its application id', async () => {
    const info = await oauthClient(C.users.gamer, 'profile:me').credentialsInfo();
    assert.deepEqual([info.scopes, info.oauth_application_id], [['profile:me'], C.clients.demo.id]);
  });

  it('reads the profile', async () => {
    assert.equal((await oauthClient(C.users.gamer, 'profile:me').profile()).username, 'mossy');
  });

  it('reads the games the user develops', async () => {
    const games = await oauthClient(C.users.developer, 'profile:games').profileGames();
    assert.ok(games.some((game) => game.id === C.games.starfallKeep && game.traits?.includes('p_windows')));
  });

  it('reads the collections', async () => {
    const collections = await oauthClient(C.users.gamer, 'profile:collections').profileCollections();
    assert.deepEqual(collections.map((collection) => collection.title).sort(), ['Cozy evenings', 'Play later']);
  });

  it('reads a page of owned keys with their games', async () => {
    const owned = await oauthClient(C.users.gamer, 'profile:owned').profileOwnedKeys({ page: 1 });
    assert.equal(owned.page, 1);
    assert.ok(owned.owned_keys.some((key) => key.game?.title === 'Starfall Keep'));
  });

  it('reads whether the user owns a game of the application creator', async () => {
    assert.deepEqual(await oauthClient(C.users.gamer, 'game:view:ownership').gameOwnership(C.games.starfallKeep), { owns: true });
  });

  it('reads the rewards claimed for a game the user develops', async () => {
    const rewards = await oauthClient(C.users.developer, 'game:view:rewards').gameClaimedRewards(C.games.starfallKeep);
    assert.deepEqual(
      rewards.map((reward) => reward.title),
      ['Digital artbook'],
    );
  });

  it('includes subscopes in a parent scope', async () => {
    assert.equal((await oauthClient(C.users.gamer, 'profile').profileCollections()).length, 2);
  });

  it('throws a call outside the token scope as an api_error', async () => {
    await assert.rejects(
      oauthClient(C.users.gamer, 'profile:me').profileOwnedKeys(),
      (error: unknown) => error instanceof ItchApiError && error.status === 403,
    );
  });
});
