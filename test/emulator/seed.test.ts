import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  DEFAULT_SEED,
  DEFAULT_SEED_CREDENTIALS as C,
  EmulatorSeedError,
  isLoopbackHost,
  loadSeed,
  parseSeed,
  startEmulator,
  type SeedInput,
} from '../../src/emulator/index.js';
import { api, testRecordedAnswersMatchSchemas } from './support.js';

const user = { id: 1, username: 'solo' };
const game = {
  id: 10,
  user_id: 1,
  title: 'Solo Game',
  url: 'https://solo.itch.io/game',
  created_at: '2024-01-01T00:00:00Z',
  published_at: '2024-01-02T00:00:00Z',
};
const purchase = { id: 20, game_id: 10, email: 'buyer@example.com', created_at: '2024-02-01T00:00:00Z', price: 100 };

/** The message parseSeed throws for `data`. */
function seedError(data: unknown): string {
  try {
    parseSeed(data);
  } catch (error) {
    assert.ok(error instanceof EmulatorSeedError);
    return error.message;
  }
  assert.fail('the seed was accepted');
}

let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'itch-emulator-seed-'));
});
after(() => rm(dir, { recursive: true, force: true }));

describe('the default seed', () => {
  test('is valid', () => {
    const seed = parseSeed(DEFAULT_SEED);
    assert.equal(seed.users.length, 6);
  });

  test('has a developer, a gamer and a press user', () => {
    const seed = parseSeed(DEFAULT_SEED);
    const byId = (id: number) => seed.users.find((u) => u.id === id);
    assert.equal(byId(C.users.developer)?.developer, true);
    assert.equal(byId(C.users.gamer)?.gamer, true);
    assert.equal(byId(C.users.press)?.press_user, true);
  });

  test('covers the cases the API must tell apart: pending and revoked, claimed and donated, expired and loopback', () => {
    const seed = parseSeed(DEFAULT_SEED);
    assert.ok(
      seed.purchases.some((p) => p.status !== 'complete'),
      'a purchase that is not completed',
    );
    assert.ok(
      seed.download_keys.some((k) => k.purchase_id === undefined),
      'a claimed key',
    );
    assert.ok(
      seed.download_keys.some((k) => k.revoked),
      'a revoked key',
    );
    assert.ok(
      seed.games.some((g) => g.type === 'html'),
      'a web game',
    );
    assert.ok(
      seed.purchases.some((p) => p.status === 'complete' && !seed.download_keys.some((k) => k.purchase_id === p.id)),
      'a donation',
    );
    assert.ok(
      seed.jwts.some((j) => j.expires_at.getTime() < Date.now()),
      'an expired JWT',
    );
    assert.ok(
      seed.oauth_applications.some((a) => a.redirect_uris.includes('urn:ietf:wg:oauth:2.0:oob')),
      'an oob redirect URI',
    );
    assert.ok(
      seed.oauth_applications.some((a) => a.redirect_uris.some((u) => u.startsWith('http://127.0.0.1:'))),
      'a loopback redirect URI',
    );
  });
});

describe('an invalid seed is refused with the path of the bad entry', () => {
  const app = { id: 1, client_id: 'c', name: 'App', user_id: 1, redirect_uris: ['https://app.example/cb'] };
  const key = (fields: object) => ({ id: 30, key: 'k'.repeat(20), game_id: 10, created_at: '2024-02-01T00:00:00Z', ...fields });
  const verified = (address: string) => [{ address, verified: true }];
  const cases: [name: string, data: unknown, expected: RegExp[]][] = [
    ['no users', {}, [/→ at users/]],
    ['a field of the wrong type', { users: [{ id: '1', username: 'solo' }] }, [/expected number, received string/, /→ at users\[0\]\.id/]],
    ['a misspelt field', { users: [{ ...user, emial: [] }] }, [/Unrecognized key: "emial"/, /→ at users\[0\]/]],
    ['a bad date', { users: [user], games: [{ ...game, created_at: 'yesterday' }] }, [/→ at games\[0\]\.created_at/]],
    [
      'a redirect URI with a fragment',
      { users: [user], oauth_applications: [{ ...app, redirect_uris: ['https://app.example/cb#x'] }] },
      [/without fragment/, /→ at oauth_applications\[0\]\.redirect_uris\[0\]/],
    ],
    ['an unknown user', { users: [user], games: [{ ...game, user_id: 2 }] }, [/no user with id 2/, /→ at games\[0\]\.user_id/]],
    ['an unknown game', { users: [user], purchases: [purchase] }, [/no game with id 10/, /→ at purchases\[0\]\.game_id/]],
    ['a duplicate id', { users: [user, { id: 1, username: 'other' }] }, [/duplicate id 1/, /→ at users\[1\]\.id/]],
    [
      'a key for the purchase of another game',
      {
        users: [user],
        games: [game, { ...game, id: 11 }],
        purchases: [purchase],
        download_keys: [key({ game_id: 11, user_id: 1, purchase_id: 20 })],
      },
      [/purchase 20 is for game 10, not 11/, /→ at download_keys\[0\]\.purchase_id/],
    ],
    [
      'a claimed key without owner',
      { users: [user], games: [game], download_keys: [key({})] },
      [/needs its user_id/, /→ at download_keys\[0\]\.user_id/],
    ],
    [
      'an address verified by two users',
      {
        users: [
          { ...user, emails: verified('a@example.com') },
          { id: 2, username: 'two', emails: verified('A@example.com') },
        ],
      },
      [/already a verified address of user 1/, /→ at users\[1\]\.emails\[0\]\.address/],
    ],
    [
      'an OAuth key without scopes',
      {
        users: [user],
        oauth_applications: [app],
        api_keys: [{ id: 1, key: 'k'.repeat(20), user_id: 1, oauth_application_id: 1, created_at: '2024-01-01T00:00:00Z' }],
      },
      [/carries the scopes it was granted/, /→ at api_keys\[0\]\.scopes/],
    ],
    [
      'a published game without published_at',
      { users: [user], games: [{ ...game, published_at: undefined }] },
      [/a published game needs published_at/],
    ],
  ];
  for (const [name, data, expected] of cases) {
    test(name, () => {
      const message = seedError(data);
      assert.match(message, /^Invalid emulator seed \(seed object\):/);
      for (const pattern of expected) assert.match(message, pattern);
    });
  }
});

describe('loadSeed from a file', () => {
  test('reads and validates a JSON file', async () => {
    const file = join(dir, 'good.json');
    await writeFile(file, JSON.stringify({ users: [user], games: [game] }));
    const seed = await loadSeed(file);
    assert.equal(seed.games[0]?.title, 'Solo Game');
  });

  test('names the file when it is missing', async () => {
    const file = join(dir, 'missing.json');
    await assert.rejects(
      loadSeed(file),
      (error: Error) => error instanceof EmulatorSeedError && error.message.startsWith(`Cannot read emulator seed file ${file}:`),
    );
  });

  test('names the file when it is not JSON', async () => {
    const file = join(dir, 'broken.json');
    await writeFile(file, '{ users: [] }');
    await assert.rejects(
      loadSeed(file),
      (error: Error) => error instanceof EmulatorSeedError && error.message.startsWith(`Emulator seed file ${file} is not valid JSON`),
    );
  });

  test('names the file and the path when the data is invalid', async () => {
    const file = join(dir, 'invalid.json');
    await writeFile(file, JSON.stringify({ users: [user], games: [{ ...game, min_price: -1 }] }));
    await assert.rejects(loadSeed(file), (error: Error) => {
      assert.ok(error instanceof EmulatorSeedError);
      assert.match(error.message, new RegExp(`^Invalid emulator seed \\(${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\)`));
      assert.match(error.message, /→ at games\[0\]\.min_price/);
      return true;
    });
  });
});

describe('startEmulator', () => {
  test('rejects an invalid seed before listening', async () => {
    await assert.rejects(startEmulator({ data: { users: [] } as unknown as SeedInput }), EmulatorSeedError);
  });

  test('serves a seed file', async () => {
    const file = join(dir, 'served.json');
    await writeFile(
      file,
      JSON.stringify({
        users: [user],
        api_keys: [{ id: 1, key: 'solo-key-0000000000000000', user_id: 1, created_at: '2024-01-01T00:00:00Z' }],
      }),
    );
    const emulator = await startEmulator({ data: file });
    try {
      assert.match(emulator.url, /^http:\/\/127\.0\.0\.1:\d+$/);
      const answer = await api(emulator, '/api/1/solo-key-0000000000000000/me');
      assert.equal(answer.body.user.username, 'solo');
      assert.equal(answer.body.user.display_name, 'solo', 'display_name defaults to the username');
      assert.equal(answer.body.user.url, 'https://solo.itch.io', 'url defaults to the itch.io subdomain');
      assert.equal('cover_url' in answer.body.user, false, 'no avatar, no cover_url');
    } finally {
      await emulator.close();
    }
  });

  test('listens on ::1 when asked', async (t) => {
    const probe = createServer();
    const ipv6 = await new Promise<boolean>((resolve) => {
      probe.once('error', () => resolve(false)).listen(0, '::1', () => probe.close(() => resolve(true)));
    });
    if (!ipv6) {
      t.skip('this machine has no IPv6 loopback');
      return;
    }
    const emulator = await startEmulator({ host: '::1' });
    try {
      assert.match(emulator.url, /^http:\/\/\[::1\]:\d+$/);
      assert.equal((await api(emulator, `/api/1/${C.apiKeys.gamer}/me`)).status, 200);
    } finally {
      await emulator.close();
    }
  });

  test('refuses a non-loopback host without the explicit opt-out', async () => {
    for (const host of ['0.0.0.0', '::', '192.168.1.20', 'example.com']) {
      await assert.rejects(startEmulator({ host }), /refusing to listen on .*dangerouslyAllowNonLoopbackHost/);
    }
  });

  test('tells loopback hosts apart', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', '0:0:0:0:0:0:0:1', 'localhost'])
      assert.equal(isLoopbackHost(host), true, host);
    for (const host of ['0.0.0.0', '::', '10.0.0.1', '::ffff:10.0.0.1', 'localhost.example.com', '128.0.0.1'])
      assert.equal(isLoopbackHost(host), false, host);
  });

  test('refuses extra redirect URIs for an unknown client or of an invalid form', async () => {
    await assert.rejects(
      startEmulator({ extraRedirectUris: { 'no-such-client': ['http://127.0.0.1:1/cb'] } }),
      /no OAuth application with client id/,
    );
    await assert.rejects(
      startEmulator({ extraRedirectUris: { [C.clients.demo.clientId]: ['http://127.0.0.1:1/cb#frag'] } }),
      /invalid redirect URI/,
    );
  });

  test('refuses a port that is taken', async () => {
    const first = await startEmulator();
    try {
      await assert.rejects(startEmulator({ port: first.port }), /EADDRINUSE/);
    } finally {
      await first.close();
    }
  });

  test('stops listening on close()', async () => {
    const emulator = await startEmulator();
    await emulator.close();
    await assert.rejects(fetch(`${emulator.url}/api/1/key/me`));
  });
});

testRecordedAnswersMatchSchemas();
