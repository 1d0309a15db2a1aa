// fromItchApp() and `itch-oauth-widget login --from-itch-app`: a game the itch app launched gets
// the app's key (a JWT) in ITCHIO_API_KEY. The emulator issues the JWTs: valid, expired, forged
// (shaped like one, unknown to itch.io), and none at all. The CLI runs as a child process.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { fromItchApp, ItchOAuthError } from '../../src/desktop/index.js';
import { DEFAULT_SEED_CREDENTIALS as C, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';

const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Nothing listens there: a request would fail with a network error. */
const NOWHERE = 'http://127.0.0.1:9';
const DAY = 24 * 60 * 60 * 1000;

let emulator: RunningEmulator;
let valid: { token: string; expiresAt: Date };
let expired: string;
let forged: string;
before(async () => {
  emulator = await startEmulator();
  const expiresAt = new Date(Date.now() + DAY);
  valid = { token: emulator.issueJwt({ userId: C.users.gamer, scopes: 'profile:me', expiresAt }), expiresAt };
  expired = emulator.issueJwt({ userId: C.users.gamer, scopes: 'profile:me', expiresAt: new Date(Date.now() - 1000) });
  // The valid JWT with its payload changed to another user: the shape of a JWT, unknown to itch.io.
  const [header, payload, signature] = valid.token.split('.');
  const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as { sub: number };
  forged = [header, Buffer.from(JSON.stringify({ ...claims, sub: C.users.developer })).toString('base64url'), signature].join('.');
});
after(() => emulator.close());

const urls = () => ({ baseUrl: emulator.url, apiBaseUrl: emulator.apiUrl });

/** The ItchOAuthError fromItchApp rejects with, checked never to show the key. */
async function rejection(env: Record<string, string>, options = urls()): Promise<ItchOAuthError> {
  try {
    await fromItchApp({ ...options, env });
  } catch (error) {
    assert.ok(error instanceof ItchOAuthError, String(error));
    assert.ok(!error.message.includes(env['ITCHIO_API_KEY']!), error.message);
    return error;
  }
  assert.fail('fromItchApp resolved');
}

describe('fromItchApp', () => {
  it('a valid JWT: the key, its scopes, its expiry and the player, checked with itch.io', async () => {
    const login = await fromItchApp({
      ...urls(),
      env: { ITCHIO_API_KEY: valid.token, ITCHIO_API_KEY_EXPIRES_AT: valid.expiresAt.toISOString() },
    });
    assert.ok(login !== undefined);
    assert.equal(login.accessToken, valid.token);
    assert.deepEqual(login.scopes, ['profile:me']);
    assert.equal(login.expiresAt.getTime(), valid.expiresAt.getTime());
    assert.equal(login.user.id, C.users.gamer);
    assert.equal(login.user.username, 'mossy');
  });

  it('accepts the expiry written "YYYY-MM-DD HH:MM:SS" too, and a key with surrounding whitespace', async () => {
    const written = valid.expiresAt.toISOString().replace('T', ' ').slice(0, 19);
    const login = await fromItchApp({ ...urls(), env: { ITCHIO_API_KEY: ` ${valid.token}\n`, ITCHIO_API_KEY_EXPIRES_AT: written } });
    assert.equal(login?.user.id, C.users.gamer);
    assert.equal(login?.accessToken, valid.token);
  });

  it('no key: undefined, without asking itch.io (the game was not launched by the app)', async () => {
    assert.equal(await fromItchApp({ baseUrl: NOWHERE, apiBaseUrl: NOWHERE, env: {} }), undefined);
    assert.equal(await fromItchApp({ baseUrl: NOWHERE, apiBaseUrl: NOWHERE, env: { ITCHIO_API_KEY: '' } }), undefined);
    assert.equal(await fromItchApp({ baseUrl: NOWHERE, apiBaseUrl: NOWHERE, env: { ITCHIO_OFFLINE_MODE: '1' } }), undefined);
  });

  it('reads process.env by default', async () => {
    const saved = process.env['ITCHIO_API_KEY'];
    process.env['ITCHIO_API_KEY'] = valid.token;
    try {
      assert.equal((await fromItchApp(urls()))?.user.id, C.users.gamer);
    } finally {
      if (saved === undefined) delete process.env['ITCHIO_API_KEY'];
      else process.env['ITCHIO_API_KEY'] = saved;
    }
  });

  it('an expired JWT the app says is expired: refused without asking itch.io', async () => {
    const error = await rejection(
      { ITCHIO_API_KEY: expired, ITCHIO_API_KEY_EXPIRES_AT: new Date(Date.now() - 1000).toISOString() },
      { baseUrl: NOWHERE, apiBaseUrl: NOWHERE },
    );
    assert.equal(error.code, 'backend_rejected');
    assert.match(error.message, /expired at .*: launch the game again from the itch app/);
  });

  it('an expired JWT with no expiry given (or a wrong one): itch.io refuses it, and the message says it expired', async () => {
    for (const env of [{ ITCHIO_API_KEY: expired }, { ITCHIO_API_KEY: expired, ITCHIO_API_KEY_EXPIRES_AT: '2099-01-01T00:00:00Z' }]) {
      const error = await rejection(env);
      assert.equal(error.code, 'backend_rejected');
      assert.match(error.message, /expired: launch the game again from the itch app/);
    }
  });

  it('a forged JWT: refused by itch.io', async () => {
    const error = await rejection({ ITCHIO_API_KEY: forged, ITCHIO_API_KEY_EXPIRES_AT: valid.expiresAt.toISOString() });
    assert.equal(error.code, 'backend_rejected');
    assert.match(error.message, /itch\.io refused the key in ITCHIO_API_KEY \(invalid jwt\)/);
  });

  it('a personal API key in ITCHIO_API_KEY: refused, it is not a key the app made', async () => {
    const error = await rejection({ ITCHIO_API_KEY: C.apiKeys.gamer });
    assert.equal(error.code, 'backend_rejected');
    assert.match(error.message, /type "key", not the JWT the itch app makes/);
  });

  it('text that cannot be a key: refused without asking itch.io', async () => {
    const error = await rejection({ ITCHIO_API_KEY: 'two words' }, { baseUrl: NOWHERE, apiBaseUrl: NOWHERE });
    assert.equal(error.code, 'backend_rejected');
  });

  it('itch.io unreachable: network_error', async () => {
    const error = await rejection({ ITCHIO_API_KEY: valid.token }, { baseUrl: NOWHERE, apiBaseUrl: NOWHERE });
    assert.equal(error.code, 'network_error');
  });

  it('a bad apiBaseUrl: config_invalid', async () => {
    const error = await rejection({ ITCHIO_API_KEY: valid.token }, { baseUrl: emulator.url, apiBaseUrl: 'ftp://itch.io' });
    assert.equal(error.code, 'config_invalid');
  });
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `itch-oauth-widget login …` as a child process launched with `env` (and nothing of ours). */
async function runCli(args: string[], env: Record<string, string>, until?: RegExp): Promise<Run> {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, 'login', ...args], {
    cwd: ROOT,
    stdio: 'pipe',
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', ...env },
  });
  const run: Run = { code: null, stdout: '', stderr: '' };
  child.stdout.on('data', (chunk: Buffer) => (run.stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => {
    run.stderr += chunk.toString();
    if (until?.test(run.stderr)) child.kill('SIGINT');
  });
  [run.code] = (await once(child, 'exit')) as [number | null];
  return run;
}

describe('itch-oauth-widget login --from-itch-app', () => {
  const flags = () => ['--from-itch-app', '--base-url', emulator.url, '--api-base-url', emulator.apiUrl];

  it('a valid JWT: the key alone on stdout, the player on stderr, exit 0', async () => {
    const run = await runCli(flags(), { ITCHIO_API_KEY: valid.token, ITCHIO_API_KEY_EXPIRES_AT: valid.expiresAt.toISOString() });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, `${valid.token}\n`);
    assert.match(run.stderr, /Logged in with the itch app as mossy \(1002\); the key carries: profile:me, until /);
    assert.ok(!run.stderr.includes(valid.token));
  });

  it('an expired JWT: exit 1, nothing on stdout', async () => {
    const run = await runCli(flags(), { ITCHIO_API_KEY: expired });
    assert.equal(run.code, 1);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, /The itch app's key was not accepted \(backend_rejected\): .*expired/);
    assert.ok(!run.stderr.includes(expired));
  });

  it('a forged JWT: exit 1, nothing on stdout', async () => {
    const run = await runCli(flags(), { ITCHIO_API_KEY: forged });
    assert.equal(run.code, 1);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, /refused the key in ITCHIO_API_KEY \(invalid jwt\)/);
    assert.ok(!run.stderr.includes(forged));
  });

  it('no JWT: exit 1 and says how to log in instead', async () => {
    const run = await runCli(flags(), {});
    assert.equal(run.code, 1);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, /Not launched by the itch app \(ITCHIO_API_KEY is not set\): pass --client-id and --redirect-uri/);
  });

  it('no JWT, with --client-id and --redirect-uri: goes on to the browser login', async () => {
    const redirectUri = 'http://127.0.0.1:47615/itch-callback';
    const run = await runCli(
      [...flags(), '--client-id', C.clients.other.clientId, '--redirect-uri', redirectUri, '--no-browser'],
      {},
      /Waiting for you to approve/,
    );
    assert.match(run.stderr, /Not launched by the itch app \(ITCHIO_API_KEY is not set\): logging in through the browser instead/);
    // The one-time start address on the listener (it answers with the itch.io login page): no state in it.
    assert.match(run.stderr, /^ {2}http:\/\/127\.0\.0\.1:47615\/itch-oauth-start\/[A-Za-z0-9_-]{43}$/m);
    assert.notEqual(run.code, 0, 'ended by the test with Ctrl+C before any login');
    assert.equal(run.stdout, '');
  });

  it("the emulator's banner gives the itch app's variables, which --from-itch-app accepts", async () => {
    const emulatorCli = spawn(process.execPath, ['--import', 'tsx', CLI, 'emulator', '--port', '0'], { cwd: ROOT, stdio: 'pipe' });
    let banner = '';
    emulatorCli.stdout.on('data', (chunk: Buffer) => (banner += chunk.toString()));
    try {
      while (!banner.includes('Press Ctrl+C to stop.')) {
        assert.equal(emulatorCli.exitCode, null, banner);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(banner)![1]!;
      const variables = /^ {2}ITCHIO_API_KEY=(\S+) ITCHIO_API_KEY_EXPIRES_AT=(\S+)$/m.exec(banner);
      assert.ok(variables, banner);
      assert.equal(variables[1], C.jwts.valid);
      const run = await runCli(['--from-itch-app', '--base-url', url, '--api-base-url', `${url}/api`], {
        ITCHIO_API_KEY: variables[1]!,
        ITCHIO_API_KEY_EXPIRES_AT: variables[2]!,
      });
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stdout, `${C.jwts.valid}\n`);
      assert.match(run.stderr, /as mossy \(1002\)/);
    } finally {
      emulatorCli.kill('SIGTERM');
      await once(emulatorCli, 'exit');
    }
  });

  it('an expired JWT, with --client-id and --redirect-uri: says why, and goes on to the browser login', async () => {
    const run = await runCli(
      [...flags(), '--client-id', C.clients.other.clientId, '--redirect-uri', 'http://127.0.0.1:47615/itch-callback', '--no-browser'],
      { ITCHIO_API_KEY: expired },
      /Waiting for you to approve/,
    );
    assert.match(run.stderr, /The itch app's key was not accepted \(backend_rejected\): .*: logging in through the browser instead/);
    assert.match(run.stderr, /^ {2}http:\/\/127\.0\.0\.1:47615\/itch-oauth-start\//m);
    assert.equal(run.stdout, '');
  });
});
