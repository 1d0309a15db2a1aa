// The desktop guide's programs as a player runs them: each a child process of its own over the
// built package, the emulator as itch.io and Chromium as the player's browser.
// - fixtures/itch-app-game.ts, launched as the itch app launches it from fixtures/.itch.toml (the
//   key the manifest's scope asks for, in ITCHIO_API_KEY), logs in with that key and opens nothing;
//   with an expired key, it logs in in the browser instead (here out of band: its port is taken).
// - fixtures/loopback-guide.ts opens the system browser with the default opener (xdg-open, which
//   runs $BROWSER where there is no desktop session) and reads the player from itch.io's API.
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { assertPortFree, C, closeNet, decide, freePort, holdPort, useBrowserAndEmulator } from './support.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const DAY = 24 * 60 * 60 * 1000;

const world = useBrowserAndEmulator();
let dir: string;
/** A stand-in for the system browser: records the address it was asked to open. */
let opener: string;

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'itch-desktop-guide-'));
  opener = join(dir, 'browser.sh');
  writeFileSync(opener, '#!/bin/sh\nprintf \'%s\\n\' "$1" >> "$0.opened"\n');
  chmodSync(opener, 0o755);
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** The addresses the stand-in browser was asked to open so far. */
const opened = (): string[] => (existsSync(`${opener}.opened`) ? readFileSync(`${opener}.opened`, 'utf8').trim().split('\n') : []);

/** What the itch app reads of an action in .itch.toml: its `key = "value"` lines (nothing else may be there). */
function manifestAction(): Record<string, string> {
  const action: Record<string, string> = {};
  const lines = readFileSync(fixture('.itch.toml'), 'utf8').trim().split('\n');
  assert.equal(lines[0], '[[actions]]');
  for (const line of lines.slice(1)) {
    const pair = /^(\w+) = "([^"\\]*)"$/.exec(line);
    assert.ok(pair, `a line the test does not read: ${line}`);
    action[pair[1]!] = pair[2]!;
  }
  return action;
}

interface Run {
  child: ChildProcessWithoutNullStreams;
  output: { stdout: string; stderr: string };
  exit: Promise<number | null>;
}

/** Runs a guide's program as its player would, in a session with no desktop: only `env` set, and the stand-in browser. */
function runProgram(name: string, env: Record<string, string>): Run {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) => !/^(DISPLAY|WAYLAND_DISPLAY|XDG_CURRENT_DESKTOP|DESKTOP_SESSION|KDE_|GNOME_|ITCH)/.test(key),
    ),
  );
  const child = spawn(process.execPath, ['--import', 'tsx', fixture(name)], {
    cwd: ROOT,
    stdio: 'pipe',
    env: { ...inherited, BROWSER: opener, ITCH_BASE_URL: world.emulator.url, ITCH_CLIENT_ID: C.clients.demo.clientId, ...env },
  });
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk: Buffer) => (output.stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output.stderr += chunk.toString()));
  return { child, output, exit: once(child, 'exit').then(([code]) => code as number | null) };
}

async function until<T>(what: string, value: () => T | undefined, run: Run): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const found = value();
    if (found !== undefined) return found;
    if (run.child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${what}: nothing yet\n${run.output.stderr}`);
}

async function playerOf(token: string): Promise<number> {
  const answer = await fetch(`${world.emulator.apiUrl}/profile`, { headers: { authorization: `Bearer ${token}` } });
  return ((await answer.json()) as { user: { id: number } }).user.id;
}

describe("the desktop guide's game, launched by the itch app", () => {
  it("logs in with the key the manifest's scope asked for, and opens no browser", async () => {
    const { scope } = manifestAction();
    const expiresAt = new Date(Date.now() + DAY);
    const key = world.emulator.issueJwt({ userId: C.users.gamer, scopes: scope!, expiresAt });
    // Were it to log in another way, it would find its port taken and nothing to paste: exit 1.
    const port = await freePort();
    const holder = await holdPort(port);
    try {
      const run = runProgram('itch-app-game.ts', {
        ITCHIO_API_KEY: key,
        ITCHIO_API_KEY_EXPIRES_AT: expiresAt.toISOString(),
        ITCH_REDIRECT_URI: `http://127.0.0.1:${port}/itch-callback`,
      });
      run.child.stdin.end();
      assert.equal(await run.exit, 0, run.output.stderr);
      assert.deepEqual(JSON.parse(run.output.stdout), { via: 'itch app', accessToken: key, scopes: [scope] });
    } finally {
      await closeNet(holder);
    }
    assert.deepEqual(opened(), []);
  });

  it('with an expired key, logs in in the browser instead: out of band, its port being taken', async () => {
    const port = await freePort();
    const redirectUri = `http://127.0.0.1:${port}/itch-callback`;
    world.emulator.addRedirectUri(C.clients.demo.clientId, redirectUri);
    const holder = await holdPort(port);
    try {
      const expired = world.emulator.issueJwt({ userId: C.users.gamer, scopes: 'profile:me', expiresAt: new Date(Date.now() - 1000) });
      const run = runProgram('itch-app-game.ts', { ITCHIO_API_KEY: expired, ITCH_REDIRECT_URI: redirectUri });
      const url = await until('the address to open', () => /Open (http\S+) in your browser/.exec(run.output.stderr)?.[1], run);
      const page = await world.browser.newPage();
      await decide(page, url, 'Approve', C.users.otherDeveloper);
      const pasted = (await page.locator('#key').textContent()) ?? '';
      run.child.stdin.end(`${pasted}\n`);
      assert.equal(await run.exit, 0, run.output.stderr);
      const result = JSON.parse(run.output.stdout) as { via: string; accessToken: string };
      assert.equal(result.via, 'browser');
      assert.equal(result.accessToken, pasted);
      assert.equal(await playerOf(result.accessToken), C.users.otherDeveloper);
      assert.deepEqual(opened(), [], 'the out-of-band fallback leaves opening to readKey');
      await page.close();
    } finally {
      await closeNet(holder);
    }
  });
});

describe(
  "the desktop guide's loopback login",
  { skip: process.platform !== 'linux' && 'the default opener runs $BROWSER through xdg-open' },
  () => {
    it('opens the system browser at the one-time start address, logs in, reads the player and frees its port', async () => {
      const port = await freePort();
      const redirectUri = `http://127.0.0.1:${port}/itch-callback`;
      world.emulator.addRedirectUri(C.clients.demo.clientId, redirectUri);
      const before = opened().length;
      const run = runProgram('loopback-guide.ts', { ITCH_REDIRECT_URI: redirectUri });
      const url = await until('the address the browser was asked to open', () => opened()[before], run);
      assert.match(url, new RegExp(`^http://127\\.0\\.0\\.1:${port}/itch-oauth-start/[A-Za-z0-9_-]{43}$`));
      const page = await world.browser.newPage();
      await decide(page, url, 'Approve', C.users.gamer);
      assert.equal(await run.exit, 0, run.output.stderr);
      assert.deepEqual(JSON.parse(run.output.stdout), { player: 'mossy', scopes: ['profile:me', 'profile:owned'] });
      await assertPortFree(port);
      await page.close();
    });
  },
);
