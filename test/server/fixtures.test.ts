import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import type * as z from 'zod/mini';
import {
  credentialInfoSchema,
  downloadKeysResponseSchema,
  errorsResponseSchema,
  gameSchema,
  meResponseSchema,
  myGamesResponseSchema,
  profileGamesResponseSchema,
  profileOwnedKeysResponseSchema,
  purchasesResponseSchema,
  wharfLatestResponseSchema,
} from '../../src/server/itch-api/schemas.js';

// Real itch.io answers (doc samples, recordings, issue pastes), copied verbatim with their
// provenance in INDEX.txt, so that the tests stand alone in any clone.
const FIXTURES = new URL('../fixtures/itch-api/', import.meta.url);

/** The schema each recorded body must pass; `pick` selects the part that is a resource of ours. */
const VALID: Record<string, { schema: z.ZodMiniType; pick?: (json: unknown) => unknown }> = {
  'itchio__itch.io__me.json': { schema: meResponseSchema },
  'itchio__itch.io__my-games.json': { schema: myGamesResponseSchema },
  'itchio__itch.io__purchases.json': { schema: purchasesResponseSchema },
  'itchio__itch.io__credentials-info-apikey.json': { schema: credentialInfoSchema },
  'itchio__itch.io__credentials-info-jwt.json': { schema: credentialInfoSchema },
  'itch.io-docs__serverside-current__credentials-info-jwt.json': { schema: credentialInfoSchema },
  'itch.io-docs__serverside-current__credentials-info-key.json': { schema: credentialInfoSchema },
  'itch.io-docs__serverside-current__games-id-purchases.json': { schema: purchasesResponseSchema },
  'itch.io-docs__serverside-current__profile-games.json': { schema: profileGamesResponseSchema },
  'itch.io-docs__serverside-current__wharf-latest.json': { schema: wharfLatestResponseSchema },
  'itchio__go-itchio__MOCK-profile-games.json': { schema: profileGamesResponseSchema },
  'TheArtfulBodger__wyvern__profile-owned-keys.json': { schema: profileOwnedKeysResponseSchema },
  // games/<id> is outside tables A and B, but its `game` is the Game resource.
  'TheArtfulBodger__wyvern__games-id.json': { schema: gameSchema, pick: (json) => (json as { game: unknown }).game },
};

const ERRORS = [
  'TheArtfulBodger__wyvern__login-error-400.json',
  'TheArtfulBodger__wyvern__totp-verify-error-400.json',
  'TheArtfulBodger__wyvern__uploads-download-error-401.json',
  'itchio__go-itchio__MOCK-oauth-token-error-400.json',
  'itchio__go-itchio__MOCK-profile-401.json',
  'itchio__go-itchio__MOCK-profile-games-error-400.json',
  'itchio__itch.io__download_keys-error-invalid.json',
  'itchio__itch.io__download_keys-error-notfound.json',
  'itchio__itch.io__issue1315-wharf-latest-error.json',
  'itchio__itch.io__issue1498-profile-owned-keys-404.json',
  'itchio__itch.io__issue1664-purchases-scope-error.json',
  'itchio__itch.io__issue1816-api1-me-error.json',
  'itchio__itch__issue3406-uploads-download-error.json',
];

/** Bodies of endpoints the client does not call (login, uploads): valid JSON, no schema of ours. */
const OUTSIDE_THE_CLIENT = [
  'TheArtfulBodger__wyvern__games-id-uploads.json',
  'TheArtfulBodger__wyvern__login-success.json',
  'TheArtfulBodger__wyvern__login-totp-needed.json',
  'itchio__itch.io__issue1301-games-uploads-empty.json',
];

/** The files INDEX.txt says are not valid JSON, with the reason JSON.parse must give. */
const INVALID_JSON: Record<string, RegExp> = {
  // a trailing comma after "owner": {...}
  'itchio__itch.io__download_keys.json': /Expected double-quoted property name/,
  // the reporter redacted the id as ****
  'itchio__itch.io__issue1664-credentials-info-REDACTED-INVALID.json': /Unexpected token '\*'/,
  // a JavaScript object literal with unquoted keys
  'leafo__itchio-app-old__issue23-my-claimed-keys-JSLITERAL.json': /Expected property name or '\}'/,
};

const read = (name: string): Promise<string> => readFile(new URL(name, FIXTURES), 'utf8');

describe('recorded itch.io responses', () => {
  it('has an explicit expectation for every JSON file in the fixtures folder', async () => {
    const files = (await readdir(FIXTURES)).filter((name) => name.endsWith('.json')).sort();
    const mapped = [...Object.keys(VALID), ...ERRORS, ...OUTSIDE_THE_CLIENT, ...Object.keys(INVALID_JSON)].sort();
    assert.deepEqual(mapped, files);
  });

  for (const [name, { schema, pick = (json: unknown) => json }] of Object.entries(VALID)) {
    it(`parses ${name} with its schema`, async () => {
      const result = schema.safeParse(pick(JSON.parse(await read(name))));
      assert.ok(result.success, result.error?.message);
    });
  }

  for (const name of ERRORS) {
    it(`parses ${name} as an errors body`, async () => {
      const result = errorsResponseSchema.parse(JSON.parse(await read(name)));
      assert.ok(result.errors.length > 0);
    });
  }

  for (const name of OUTSIDE_THE_CLIENT) {
    it(`reads ${name} (outside the client's endpoints) as JSON`, async () => {
      assert.equal(typeof JSON.parse(await read(name)), 'object');
    });
  }

  for (const [name, reason] of Object.entries(INVALID_JSON)) {
    it(`refuses ${name} as JSON, as INDEX.txt says`, async () => {
      const text = await read(name);
      assert.throws(
        () => JSON.parse(text),
        (error: unknown) => error instanceof SyntaxError && reason.test(error.message),
      );
    });
  }

  it('lists in INDEX.txt every file that is not valid JSON', async () => {
    const index = await read('INDEX.txt');
    assert.match(index, /download_keys\.json is INVALID JSON/);
    assert.match(index, /issue1664.*INVALID JSON/);
    assert.match(index, /issue23.*not strict JSON/);
  });
});

describe('schemas on recorded values', () => {
  it('reads a legacy date as UTC', async () => {
    const [purchase] = purchasesResponseSchema.parse(JSON.parse(await read('itchio__itch.io__purchases.json'))).purchases;
    assert.equal(purchase?.created_at.toISOString(), '2014-02-28T00:25:09.000Z');
  });

  it('reads an RFC 3339 date with nanoseconds', async () => {
    const owned = profileOwnedKeysResponseSchema.parse(JSON.parse(await read('TheArtfulBodger__wyvern__profile-owned-keys.json')));
    assert.equal(owned.owned_keys[0]?.created_at?.toISOString(), '2022-03-08T13:41:10.000Z');
  });

  it('reads the current docs: traits and classification of a game, quantity, status and type of a purchase', async () => {
    const { games } = profileGamesResponseSchema.parse(JSON.parse(await read('itch.io-docs__serverside-current__profile-games.json')));
    assert.deepEqual(games[0]?.traits, ['p_windows', 'p_linux', 'p_osx']);
    assert.equal(games[0]?.classification, 'game');
    assert.equal(games[0]?.created_at?.toISOString(), '2013-03-03T23:02:14.000Z');
    const { purchases } = purchasesResponseSchema.parse(
      JSON.parse(await read('itch.io-docs__serverside-current__games-id-purchases.json')),
    );
    assert.deepEqual(
      [purchases[0]?.quantity, purchases[0]?.status, purchases[0]?.purchase_type, purchases[0]?.game_id],
      [1, 'complete', 'game', 3],
    );
    const { latest } = wharfLatestResponseSchema.parse(JSON.parse(await read('itch.io-docs__serverside-current__wharf-latest.json')));
    assert.equal(latest, '1.2.3');
  });

  it('reads a bundle purchase, whose game_id is the list of the bundle games', async () => {
    const sample = JSON.parse(await read('itch.io-docs__serverside-current__games-id-purchases.json'));
    sample.purchases[0] = { ...sample.purchases[0], purchase_type: 'bundle', game_id: [3, 4, 5] };
    const [purchase] = purchasesResponseSchema.parse(sample).purchases;
    assert.deepEqual(purchase?.game_id, [3, 4, 5]);
    assert.equal(purchase?.purchase_type, 'bundle');
    assert.equal(purchasesResponseSchema.safeParse({ purchases: [{ ...sample.purchases[0], game_id: [3, 'x'] }] }).success, false);
  });

  it('keeps fields that the itch.io documentation does not list', async () => {
    const info = credentialInfoSchema.parse(JSON.parse(await read('itch.io-docs__serverside-current__credentials-info-key.json')));
    assert.equal(info.type, 'key');
  });

  it('parses the download_keys sample once its trailing comma is removed', async () => {
    const text = (await read('itchio__itch.io__download_keys.json')).replace(/\},(\s*\}\s*\}\s*)$/, '}$1');
    const { download_key } = downloadKeysResponseSchema.parse(JSON.parse(text));
    assert.equal(download_key.owner?.username, 'fasterthanlime');
  });

  it('reads oauth_application_id from the redacted credentials/info report once a number stands in', async () => {
    const text = (await read('itchio__itch.io__issue1664-credentials-info-REDACTED-INVALID.json')).replace('****', '42');
    assert.equal(credentialInfoSchema.parse(JSON.parse(text)).oauth_application_id, 42);
  });
});
