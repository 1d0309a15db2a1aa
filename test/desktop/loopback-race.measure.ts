// A measurement, not part of npm test (it starts cold browsers for a minute):
//   node --import tsx --test test/desktop/loopback-race.measure.ts
// The race that stays open (see loginWithLoopback's TSDoc), measured: a browser opener with the
// start address on its command line (a cold headless Chromium, spawned as `open` spawns one),
// and another program that reads that command line from /proc, visits the start address, and
// answers the callback with its own token. Who wins depends on who is first at the start
// address; the test checks that either way the login cannot end with the forged token unless
// the forged callback was complete before the browser's first visit, and prints the timings.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { after, before, describe, it } from 'node:test';
import { ItchOAuthError, loginWithLoopback } from '../../src/desktop/index.js';
import { assertPortFree, C, emulatorFor, freePort, type RunningEmulator } from './support.js';

const CHROMIUM = process.env['CHROME_PATH'] || '/usr/bin/chromium';
const TRIALS = 3;

let emulator: RunningEmulator;
before(async () => {
  emulator = await emulatorFor([]);
});
after(async () => {
  await emulator.close();
});

/** The first command line in /proc that contains `needle`, polled as fast as a watcher would. */
async function watchProc(needle: string, signal: AbortSignal): Promise<string | undefined> {
  while (!signal.aborted) {
    for (const pid of readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      let cmdline: string;
      try {
        cmdline = readFileSync(`/proc/${pid}/cmdline`, 'latin1');
      } catch {
        continue;
      }
      const at = cmdline.indexOf(needle);
      if (at >= 0) return cmdline.slice(cmdline.lastIndexOf('\0', at) + 1).split('\0')[0];
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  return undefined;
}

async function stopBrowser(browser: ChildProcess | undefined, profile: string): Promise<void> {
  if (browser !== undefined && browser.exitCode === null && browser.signalCode === null) {
    const exited = once(browser, 'exit');
    browser.kill('SIGKILL');
    await exited;
  }
  // Chromium's helpers may still be writing there for a moment: cleaning up is best effort.
  await new Promise((resolve) => setTimeout(resolve, 200));
  try {
    rmSync(profile, { recursive: true, force: true, maxRetries: 5 });
  } catch {
    // left in the temporary directory
  }
}

interface Trial {
  /** ms from the opener's spawn: the watcher saw the start address, got the state, had its callback answered; the browser's first request. */
  seen?: number;
  forgerStarted?: number;
  forgedAnswered?: number;
  forgedStatus?: number;
  browserFirst?: number;
  outcome: 'forged token' | 'stopped' | 'browser token' | string;
}

async function trial(withForger: boolean): Promise<Trial> {
  const port = await freePort();
  const redirectUri = `http://127.0.0.1:${port}/itch-callback`;
  emulator.addRedirectUri(C.clients.demo.clientId, redirectUri);
  const profile = mkdtempSync(join(tmpdir(), 'itch-race-'));
  const times: Partial<Trial> = {};
  let spawnedAt = 0;
  const since = (): number => Math.round(performance.now() - spawnedAt);
  // Every request the listener receives, with the time it arrived (this process's own servers).
  const onRequest = (message: unknown): void => {
    const request = (message as { request: IncomingMessage }).request;
    if (request.headers.host !== `127.0.0.1:${port}` || !(request.url ?? '').startsWith('/itch-oauth-start/')) return;
    if (/Chrome/.test(request.headers['user-agent'] ?? '') && times.browserFirst === undefined) times.browserFirst = since();
  };
  subscribe('http.server.request.start', onRequest);
  const watcher = new AbortController();
  let browser: ReturnType<typeof spawn> | undefined;
  const forgedToken = emulator.issueToken({ userId: C.users.developer, clientId: C.clients.demo.clientId, scopes: 'profile:me' });
  const forger = async (): Promise<void> => {
    const startAddress = await watchProc(`127.0.0.1:${port}/itch-oauth-start/`, watcher.signal);
    if (startAddress === undefined) return;
    times.seen = since();
    const started = await fetch(startAddress, { redirect: 'manual' });
    times.forgerStarted = since();
    const state = new URL(started.headers.get('location') ?? '').searchParams.get('state');
    const cookie = (started.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const forged = await fetch(redirectUri, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: `http://127.0.0.1:${port}`, cookie },
      body: JSON.stringify({ fragment: `access_token=${forgedToken}&state=${state}` }),
    }).catch(() => undefined);
    times.forgedAnswered = since();
    times.forgedStatus = forged?.status ?? 0;
  };
  try {
    const login = loginWithLoopback({
      clientId: C.clients.demo.clientId,
      redirectUri,
      baseUrl: emulator.url,
      apiBaseUrl: emulator.apiUrl,
      timeoutMs: 15_000,
      openBrowser: (url) => {
        spawnedAt = performance.now();
        browser = spawn(CHROMIUM, ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', `--user-data-dir=${profile}`, url], {
          stdio: 'ignore',
        });
      },
    });
    const forging = withForger ? forger() : Promise.resolve();
    const outcome = await login.then(
      (result) => (result.accessToken === forgedToken ? 'forged token' : 'browser token'),
      (error: unknown) => (error instanceof ItchOAuthError && error.code === 'state_mismatch' ? 'stopped' : String(error)),
    );
    // Without a forger the login waits for an approval nobody gives: the first visit is the figure.
    for (let i = 0; i < 200 && times.browserFirst === undefined; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    watcher.abort();
    await forging;
    await assertPortFree(port).catch(() => undefined);
    return { ...times, outcome };
  } finally {
    watcher.abort();
    unsubscribe('http.server.request.start', onRequest);
    await stopBrowser(browser, profile);
  }
}

describe(
  'loginWithLoopback: the start-address race, measured with a cold headless Chromium',
  { skip: process.platform !== 'linux' && 'reads /proc' },
  () => {
    it("spawn to the browser's first visit, without anyone watching", { timeout: 60_000 }, async (t) => {
      const firsts: number[] = [];
      for (let i = 0; i < TRIALS; i++) {
        const port = await freePort();
        const redirectUri = `http://127.0.0.1:${port}/itch-callback`;
        emulator.addRedirectUri(C.clients.demo.clientId, redirectUri);
        const profile = mkdtempSync(join(tmpdir(), 'itch-race-'));
        let spawnedAt = 0;
        let first: number | undefined;
        const onRequest = (message: unknown): void => {
          const request = (message as { request: IncomingMessage }).request;
          if (first === undefined && request.headers.host === `127.0.0.1:${port}` && (request.url ?? '').startsWith('/itch-oauth-start/'))
            first = performance.now() - spawnedAt;
        };
        subscribe('http.server.request.start', onRequest);
        const controller = new AbortController();
        let browser: ReturnType<typeof spawn> | undefined;
        const login = loginWithLoopback({
          clientId: C.clients.demo.clientId,
          redirectUri,
          baseUrl: emulator.url,
          apiBaseUrl: emulator.apiUrl,
          signal: controller.signal,
          openBrowser: (url) => {
            spawnedAt = performance.now();
            browser = spawn(
              CHROMIUM,
              ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', `--user-data-dir=${profile}`, url],
              { stdio: 'ignore' },
            );
          },
        });
        login.catch(() => undefined);
        for (let j = 0; j < 300 && first === undefined; j++) await new Promise((resolve) => setTimeout(resolve, 50));
        controller.abort(new Error('measured'));
        await assert.rejects(login, /measured/);
        unsubscribe('http.server.request.start', onRequest);
        await stopBrowser(browser, profile);
        assert.ok(first !== undefined, 'the browser visited the start address');
        firsts.push(Math.round(first));
      }
      t.diagnostic(`spawn → the browser's first visit of the start address: ${firsts.join(', ')} ms`);
    });

    it(
      'a /proc watcher forging the callback: never the forged token unless it finished before the browser came',
      { timeout: 90_000 },
      async (t) => {
        for (let i = 0; i < TRIALS; i++) {
          const result = await trial(true);
          t.diagnostic(
            `trial ${i + 1}: watcher saw the start address at ${result.seen} ms, had the state at ${result.forgerStarted} ms, ` +
              `its callback answered ${result.forgedStatus} at ${result.forgedAnswered} ms; the browser's first visit at ${result.browserFirst ?? 'never'} ms → ${result.outcome}`,
          );
          assert.ok(result.seen !== undefined, 'the start address was on a command line');
          if (result.outcome === 'forged token') {
            assert.ok(
              result.browserFirst === undefined || (result.forgedAnswered ?? Infinity) <= result.browserFirst + 5,
              'won only by finishing before the browser came',
            );
          } else {
            assert.equal(result.outcome, 'stopped');
          }
        }
      },
    );
  },
);
