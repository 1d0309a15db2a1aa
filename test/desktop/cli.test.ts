// `itch-oauth-widget login` as a user runs it: a child process, the emulator as itch.io, and
// Chromium approving. Only the token may reach standard output.
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { assertPortFree, C, closeNet, decide, freePort, holdPort, pageOutcome, useBrowserAndEmulator } from './support.js';

const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const world = useBrowserAndEmulator();

interface CliRun {
  child: ChildProcessWithoutNullStreams;
  output: { stdout: string; stderr: string };
  exit: Promise<number | null>;
}

/** Runs the CLI as the `bin` would (through tsx here; the package runs the built dist/cli.js). */
function runCli(args: string[]): CliRun {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, 'login', ...args], { cwd: ROOT, stdio: 'pipe' });
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk: Buffer) => (output.stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output.stderr += chunk.toString()));
  const exit = once(child, 'exit').then(([code]) => code as number | null);
  return { child, output, exit };
}

/** The authorization URL the CLI printed on standard error (it is run with --no-browser). */
async function printedUrl(run: CliRun): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const match = /^ {2}(http\S+)$/m.exec(run.output.stderr);
    if (match?.[1] !== undefined) return match[1];
    if (run.child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no URL printed:\n${run.output.stderr}`);
}

const base = (redirectUri: string): string[] => [
  '--client-id',
  C.clients.demo.clientId,
  '--redirect-uri',
  redirectUri,
  '--base-url',
  world.emulator.url,
  '--api-base-url',
  world.emulator.apiUrl,
  '--no-browser',
];

/** The arguments of an out-of-band login against the emulator (the key typed on the terminal). */
const oob = (): string[] => [
  '--client-id',
  C.clients.demo.clientId,
  '--oob',
  '--base-url',
  world.emulator.url,
  '--api-base-url',
  world.emulator.apiUrl,
  '--no-browser',
];

describe('itch-oauth-widget login', () => {
  it('loopback: the token alone on stdout, progress on stderr, exit 0, port released', async () => {
    const port = await freePort();
    const redirectUri = `http://127.0.0.1:${port}/callback`;
    world.emulator.addRedirectUri(C.clients.demo.clientId, redirectUri);
    const run = runCli(base(redirectUri));
    const url = await printedUrl(run);
    assert.match(
      url,
      new RegExp(`^http://127\\.0\\.0\\.1:${port}/itch-oauth-start/[A-Za-z0-9_-]{43}$`),
      'the one-time start address, no state',
    );
    assert.match(run.output.stderr, /Waiting for you to approve in the browser/);
    const page = await world.browser.newPage();
    await decide(page, url, 'Approve', C.users.otherDeveloper);
    assert.equal(await pageOutcome(page), 'You are logged in');
    assert.equal(await run.exit, 0);
    assert.match(run.output.stdout, /^[0-9a-f]{40}\n$/);
    const token = run.output.stdout.trim();
    assert.ok(!run.output.stderr.includes(token), 'the token is never on stderr');
    const profile = await fetch(`${world.emulator.apiUrl}/profile`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(((await profile.json()) as { user: { id: number } }).user.id, C.users.otherDeveloper);
    await assertPortFree(port);
    await page.close();
  });

  it('--oob: prompts for the key on the terminal and checks it', async () => {
    const run = runCli(oob());
    const url = await printedUrl(run);
    assert.equal(new URL(url).searchParams.get('redirect_uri'), 'urn:ietf:wg:oauth:2.0:oob');
    const page = await world.browser.newPage();
    await decide(page, url, 'Approve');
    const key = (await page.locator('#key').textContent()) ?? '';
    run.child.stdin.end(`${key}\n`);
    assert.equal(await run.exit, 0);
    assert.equal(run.output.stdout, `${key}\n`);
    assert.match(run.output.stderr, /Key: /);
    await page.close();
  });

  it('--oob with an unknown key: nothing on stdout, exit 1', async () => {
    const run = runCli(oob());
    await printedUrl(run);
    run.child.stdin.end(`${'f'.repeat(40)}\n`);
    assert.equal(await run.exit, 1);
    assert.equal(run.output.stdout, '');
    assert.match(run.output.stderr, /Login failed \(backend_rejected\)/);
  });

  it('port in use (no terminal to paste into): exit 1, the message names the port', async () => {
    const port = await freePort();
    const holder = await holdPort(port);
    try {
      const run = runCli([...base(`http://127.0.0.1:${port}/callback`), '--timeout', '5']);
      assert.equal(await run.exit, 1);
      assert.equal(run.output.stdout, '');
      assert.match(
        run.output.stderr,
        new RegExp(`Login failed \\(network_error\\): cannot listen on 127\\.0\\.0\\.1:${port} \\(EADDRINUSE`),
      );
    } finally {
      await closeNet(holder);
    }
  });

  it('a timeout, bad usage and Ctrl+C have their exit codes', async () => {
    const port = await freePort();
    const timedOut = runCli([...base(`http://127.0.0.1:${port}/callback`), '--timeout', '0.5']);
    assert.equal(await timedOut.exit, 1);
    assert.match(timedOut.output.stderr, /Login failed \(timeout\): no answer from itch\.io within 1 second:/);
    await assertPortFree(port);

    const usage = runCli(['--redirect-uri', 'http://127.0.0.1:1/x']);
    assert.equal(await usage.exit, 2);
    assert.match(usage.output.stderr, /--client-id is required/);
    const notLoopback = runCli(['--client-id', 'x', '--redirect-uri', 'https://example.com/cb', '--no-browser']);
    assert.equal(await notLoopback.exit, 2);

    const interrupted = runCli(base(`http://127.0.0.1:${port}/callback`));
    await printedUrl(interrupted);
    interrupted.child.kill('SIGINT');
    assert.equal(await interrupted.exit, 130);
    assert.equal(interrupted.output.stdout, '');
    await assertPortFree(port);
  });
});
