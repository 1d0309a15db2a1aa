import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { main } from '../../src/emulator/cli.js';
import { DEFAULT_SEED_CREDENTIALS as C, parseSeed } from '../../src/emulator/index.js';

const CLI = fileURLToPath(new URL('../../src/emulator/cli.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface CliRun {
  child: ChildProcessWithoutNullStreams;
  /** Everything written so far. */
  output: { stdout: string; stderr: string };
  /** Resolves with the exit code. */
  exit: Promise<number | null>;
}

/** Runs the CLI as the `bin` would (through tsx here, the built file in the package). */
function runCli(args: string[]): CliRun {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], { cwd: ROOT, stdio: 'pipe' });
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk: Buffer) => (output.stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output.stderr += chunk.toString()));
  const exit = once(child, 'exit').then(([code]) => code as number | null);
  return { child, output, exit };
}

/** Everything the process wrote, once it has exited, with its exit code. */
async function finished(run: CliRun): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const code = await run.exit;
  return { code, ...run.output };
}

/** The standard output up to the line that says the emulator is ready. */
async function banner(run: CliRun): Promise<string> {
  const ended = run.exit.then(() => {
    throw new Error(`the CLI ended before it was ready:\n${run.output.stdout}${run.output.stderr}`);
  });
  const ready = new Promise<string>((resolve) => {
    const check = (): void => {
      if (run.output.stdout.includes('Press Ctrl+C to stop.')) resolve(run.output.stdout);
      else setTimeout(check, 20);
    };
    check();
  });
  ended.catch(() => undefined); // settles after the banner in the normal case
  return Promise.race([ready, ended]);
}

describe('itch-oauth-widget emulator', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    test(`prints its address and a login button snippet, serves, and stops cleanly on ${signal}`, async () => {
      const run = runCli(['emulator', '--port', '0', '--redirect-uri', 'http://127.0.0.1:4999/cb?from=cli&x=1']);
      try {
        const text = await banner(run);
        const url = /itch\.io emulator listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(text)?.[1];
        assert.ok(url, text);
        assert.ok(
          text.includes(
            `<itch-login-button client-id="${C.clients.demo.clientId}" redirect-uri="http://127.0.0.1:4999/cb?from=cli&amp;x=1" base-url="${url}"></itch-login-button>`,
          ),
          text,
        );
        // Popup mode's server options name the same application and redirect URI as the button.
        assert.ok(
          text.includes(
            `popup mode, add: popup: true, clientId: '${C.clients.demo.clientId}', redirectUri: 'http://127.0.0.1:4999/cb?from=cli&x=1'`,
          ),
          text,
        );
        assert.match(text, /a framed game, add: allowedOrigins: .*, here and in createSessions/);
        const me = await fetch(`${url}/api/1/${C.apiKeys.developer}/me`);
        assert.equal(me.status, 200);
        const consent = await fetch(
          `${url}/user/oauth?client_id=${C.clients.demo.clientId}&redirect_uri=${encodeURIComponent('http://127.0.0.1:4999/cb?from=cli&x=1')}&response_type=token&scope=profile:me`,
        );
        assert.equal(consent.status, 200, 'the --redirect-uri is registered');
        await consent.text();
        run.child.kill(signal);
        const { code, stdout } = await finished(run);
        assert.equal(code, 0);
        assert.match(stdout, new RegExp(`${signal}: stopping the emulator`));
        await assert.rejects(fetch(`${url}/api/1/key/me`), 'no longer listening');
      } finally {
        run.child.kill('SIGKILL');
      }
    });
  }

  test('--print-seed prints the default seed as valid seed JSON', async () => {
    const { code, stdout } = await finished(runCli(['emulator', '--print-seed']));
    assert.equal(code, 0);
    const seed = parseSeed(JSON.parse(stdout));
    assert.equal(seed.oauth_applications[0]?.client_id, C.clients.demo.clientId);
  });

  test('a missing --data file ends with status 1 and names the file', async () => {
    const { code, stderr } = await finished(runCli(['emulator', '--port', '0', '--data', 'no/such/seed.json']));
    assert.equal(code, 1);
    assert.match(stderr, /Cannot read emulator seed file no\/such\/seed\.json/);
  });

  test('a non-loopback --host ends with status 2 and names the opt-out flag', async () => {
    const { code, stderr } = await finished(runCli(['emulator', '--host', '0.0.0.0']));
    assert.equal(code, 2);
    assert.match(stderr, /Refusing to listen on 0\.0\.0\.0.*--dangerously-allow-non-loopback-host/s);
  });

  test('an unknown option ends with status 2 and the usage', async () => {
    const { code, stderr } = await finished(runCli(['emulator', '--prot', '1']));
    assert.equal(code, 2);
    assert.match(stderr, /Unknown option '--prot'/);
    assert.match(stderr, /Usage: itch-oauth-widget emulator/);
  });

  test('an invalid port ends with status 2', async () => {
    const { code, stderr } = await finished(runCli(['emulator', '--port', 'eighty']));
    assert.equal(code, 2);
    assert.match(stderr, /--port must be an integer/);
  });

  test('main() can run in-process: imported, it does not start by itself', async () => {
    const lines: string[] = [];
    const listeners = process.listenerCount('SIGTERM');
    const emulator = await main(['--port', '0'], { out: (text) => lines.push(text), err: (text) => lines.push(text) });
    assert.ok(emulator);
    try {
      assert.equal(lines[0], `itch.io emulator listening on ${emulator.url}`);
      // The application id is what createTokenHandler's applicationId must be (a wrong one refuses every login).
      assert.ok(
        lines.includes(`  ${C.clients.demo.id}, ${C.clients.demo.clientId}: ${C.clients.demo.redirectUris.join(', ')}`),
        lines.join('\n'),
      );
      assert.match(
        lines.join('\n'),
        new RegExp(`createTokenHandler\\(\\{ applicationId: ${C.clients.demo.id}, baseUrl: '${emulator.url}'`),
      );
      assert.equal(process.listenerCount('SIGTERM'), listeners + 1);
      assert.equal((await fetch(`${emulator.url}/api/1/${C.apiKeys.gamer}/me`)).status, 200);
    } finally {
      await emulator.close();
    }
    assert.equal(process.listenerCount('SIGTERM'), listeners, 'close() drops the signal handlers');
  });

  test('a redirect URI typed while it runs is registered, without a restart; one itch.io would refuse is not', async () => {
    const lines: string[] = [];
    const input = new PassThrough();
    const emulator = await main(['--port', '0'], { out: (text) => lines.push(text), err: (text) => lines.push(text) }, input);
    assert.ok(emulator);
    try {
      const said = async (pattern: RegExp) => {
        for (let i = 0; i < 100 && !lines.some((line) => pattern.test(line)); i++) await new Promise((resolve) => setTimeout(resolve, 10));
        return lines.find((line) => pattern.test(line));
      };
      input.write('http://127.0.0.1:5173/callback.html\n');
      assert.equal(await said(/^Registered/), `Registered http://127.0.0.1:5173/callback.html for client id ${C.clients.demo.clientId}.`);
      assert.ok(emulator.store.applications[0]!.redirect_uris.includes('http://127.0.0.1:5173/callback.html'));
      input.write('https://game.example/callback.html#token\n');
      assert.match((await said(/^Not registered/))!, /invalid redirect URI "https:\/\/game\.example\/callback\.html#token"/);
      assert.ok(!emulator.store.applications[0]!.redirect_uris.some((uri) => uri.includes('#')));
    } finally {
      await emulator.close();
    }
  });

  test('--help prints the usage and starts nothing', async () => {
    const lines: string[] = [];
    assert.equal(await main(['emulator', '--help'], { out: (text) => lines.push(text), err: (text) => lines.push(text) }), undefined);
    assert.match(lines.join('\n'), /^Usage: itch-oauth-widget emulator \[options\]/);
  });

  test("its default port is not wrangler dev's (8787) nor a Vite server's", async () => {
    const lines: string[] = [];
    await main(['--help'], { out: (text) => lines.push(text), err: (text) => lines.push(text) });
    const port = Number(/--port N +port to listen on \(default (\d+);/.exec(lines.join('\n'))?.[1]);
    assert.equal(port, 4824);
    assert.ok(![8787, 8788, 5173, 4173, 3000].includes(port));
  });
});
