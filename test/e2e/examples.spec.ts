// Every project in examples/ as a newcomer runs it, against the packed tarball (installed into
// examples/node_modules by `npm run test:examples`), each in its own runtime: Node, Express, Hono,
// Vite, workerd (wrangler dev, no account), Deno and Bun. One emulator for all; each example's
// server on a free port. For each: a redirect login, a popup login, a refusal that leaves one line
// naming the reason in the server's log, the callback page's headers, pages that never repeat the
// Host header, and (started again with an https PUBLIC_ORIGIN, as behind a proxy that ends TLS) a
// Secure cookie though the request is http.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { popupBindingOf, popupStateOfBinding } from '../../src/core/state.js';
import { DEFAULT_SEED, DEFAULT_SEED_CREDENTIALS as C, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';

const examples = fileURLToPath(new URL('../../examples/', import.meta.url));
const bin = (name: string): string => path.join(examples, 'node_modules', '.bin', name);
const press = DEFAULT_SEED.users.find((user) => user.id === C.users.press)!;

interface Example {
  name: string;
  /** The command of the example's README, with the port to listen on. */
  command: (port: number, itchUrl: string, publicOrigin: string) => string[];
  /** Where the example says it is ready: its first capture group is the site's origin. */
  ready: RegExp;
}

const EXAMPLES: Example[] = [
  { name: 'static-node', command: () => [process.execPath, 'server.js'], ready: /listening on (http:\/\/\S+)/ },
  { name: 'express', command: () => [process.execPath, 'server.js'], ready: /listening on (http:\/\/\S+)/ },
  { name: 'hono', command: () => [process.execPath, 'server.js'], ready: /listening on (http:\/\/\S+)/ },
  { name: 'vite-spa', command: (port) => [process.execPath, bin('vite'), '--host', '127.0.0.1', '--port', String(port), '--strictPort'], ready: /Local:\s+(http:\/\/127\.0\.0\.1:\d+)/ },
  {
    name: 'cloudflare-worker',
    // wrangler.jsonc's vars are the Worker's settings: the test's emulator replaces the default one.
    command: (port, itchUrl, publicOrigin) => [
      ...[process.execPath, bin('wrangler'), 'dev', '--ip', '127.0.0.1', '--port', String(port), '--inspector-port', '0', '--show-interactive-dev-session=false'],
      ...['--var', `ITCH_BASE_URL:${itchUrl}`, '--var', `PUBLIC_ORIGIN:${publicOrigin}`],
    ],
    ready: /Ready on (http:\/\/\S+)/,
  },
  { name: 'deno', command: () => [bin('deno'), 'run', '--allow-net', '--allow-env', '--allow-read', 'main.ts'], ready: /listening on (http:\/\/\S+)/ },
  { name: 'bun', command: () => [bin('bun'), 'run', 'server.ts'], ready: /listening on (http:\/\/\S+)/ },
];

/** A port nobody listens on right now (for the servers that cannot take `0`). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

interface Running {
  origin: string;
  child: ChildProcess;
  /** Everything the server wrote, stdout and stderr. */
  log: () => string;
}

/** With `publicOrigin`, the example's PUBLIC_ORIGIN; without, its default (its own address). */
async function start(example: Example, itch: RunningEmulator, publicOrigin?: string): Promise<Running> {
  const port = await freePort();
  const [command, ...args] = example.command(port, itch.url, publicOrigin ?? `http://127.0.0.1:${port}`);
  const { PUBLIC_ORIGIN: _ours, ...environment } = process.env;
  const child = spawn(command!, args, {
    cwd: path.join(examples, example.name),
    env: {
      ...environment,
      ...(publicOrigin === undefined ? {} : { PUBLIC_ORIGIN: publicOrigin }),
      PORT: String(port),
      ITCH_BASE_URL: itch.url,
      VITE_ITCH_BASE_URL: itch.url,
      NO_COLOR: '1',
      FORCE_COLOR: '0',
      WRANGLER_SEND_METRICS: 'false',
      DENO_NO_UPDATE_CHECK: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group, so that stop() ends what it started (wrangler's workerd)
  });
  let log = '';
  const origin = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${example.name} did not start in 60 s:\n${log}`)), 60_000);
    const read = (chunk: Buffer): void => {
      log += chunk.toString();
      const match = example.ready.exec(log.replace(/\x1b\[[0-9;]*m/g, ''));
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!.replace('localhost', '127.0.0.1').replace(/\/$/, ''));
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.on('exit', (code) => reject(new Error(`${example.name} exited (${code}) before it was ready:\n${log}`)));
  });
  return { origin, child, log: () => log };
}

/** Ends the example's process group (the server and what it started), by its id. */
async function stop(running: Running | undefined): Promise<void> {
  const child = running?.child;
  if (child?.pid === undefined) return;
  const signal = (name: NodeJS.Signals): void => {
    try {
      process.kill(-child.pid!, name);
    } catch {
      // The group is gone already.
    }
  };
  const exited = child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', resolve));
  signal('SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
  signal('SIGKILL');
}

async function approve(page: Page): Promise<void> {
  await page.getByLabel('Log in as').selectOption(String(C.users.press));
  await page.getByRole('button', { name: 'Approve' }).click();
}

/** The callback page's headers (README, Security), as every example sends them. */
const CALLBACK_HEADERS = { 'referrer-policy': 'no-referrer', 'cache-control': 'no-store', 'cross-origin-opener-policy': 'same-origin' };

test.beforeAll(() => {
  if (!existsSync(path.join(examples, 'node_modules', 'itch-oauth-widget', 'dist', 'server.js'))) {
    throw new Error('examples/node_modules has no packed itch-oauth-widget: run npm run test:examples');
  }
});

for (const example of EXAMPLES) {
  test.describe(`examples/${example.name}`, () => {
    test.describe.configure({ timeout: 90_000 });
    let itch: RunningEmulator;
    let running: Running | undefined;

    test.beforeAll(async () => {
      itch = await startEmulator({ port: 0 });
      running = await start(example, itch);
      itch.addRedirectUri(C.clients.demo.clientId, `${running.origin}/callback.html`);
    });

    test.afterAll(async () => {
      await stop(running);
      await itch?.close();
    });

    test('logs in through a redirect and comes back signed in', async ({ page }) => {
      await page.goto(`${running!.origin}/`);
      await expect(page.getByText('Not signed in.')).toBeVisible();
      await page.getByRole('button', { name: 'Log in with itch.io', exact: true }).click();
      await page.waitForURL(`${itch.url}/user/oauth?**`);
      await approve(page);
      await expect(page.getByText(`Signed in as ${press.username}`)).toBeVisible();
      expect(new URL(page.url()).pathname).toBe('/');
      await page.reload();
      await expect(page.getByText(`Signed in as ${press.username}`), 'the session cookie').toBeVisible();
    });

    test('logs in through a popup and the page stays', async ({ page, context }) => {
      await page.goto(`${running!.origin}/`);
      const opened = context.waitForEvent('page');
      await page.getByRole('button', { name: 'Log in with itch.io (popup)' }).click();
      const popup = await opened;
      await approve(popup);
      await expect(page.getByText(`Signed in as ${press.username}`)).toBeVisible();
      await expect.poll(() => popup.isClosed(), { message: 'the popup closes itself' }).toBe(true);
      await page.reload();
      await expect(page.getByText(`Signed in as ${press.username}`), 'the session cookie').toBeVisible();
    });

    test('a refused token leaves one line naming the reason in the server log, never the token', async ({ request }) => {
      const token = 'not-a-token-itch-io-knows-0123456789abcdef';
      const before = running!.log().length;
      const answer = await request.post(`${running!.origin}/auth/itch`, { data: { access_token: token }, headers: { Origin: running!.origin } });
      expect(answer.status()).toBe(401);
      // The handler's onError line (wrangler also logs each request, with its status).
      await expect.poll(() => running!.log().slice(before)).toMatch(/refused \(401\)/);
      const lines = running!.log().slice(before).split('\n').filter((line) => /refused \(401\)/.test(line));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/itch\.io did not accept the access token/);
      expect(running!.log()).not.toContain(token);
    });

    test('serves the callback page with no Referer, no cache and no opener', async ({ request }) => {
      const answer = await request.get(`${running!.origin}/callback.html`);
      expect(answer.status()).toBe(200);
      expect(answer.headers()).toMatchObject(CALLBACK_HEADERS);
    });

    if (example.name !== 'vite-spa') {
      // (vite-spa's pages hold no address: the app takes location.origin.)
      test('writes its configured origin into the pages, never the Host header', async ({ request }) => {
        for (const page of ['/', '/callback.html']) {
          const answer = await request.get(`${running!.origin}${page}`, { headers: { Host: 'attacker.example' } });
          const html = await answer.text();
          expect(html, page).not.toContain('attacker.example');
          if (page === '/') expect(html).toContain(`redirect-uri="${running!.origin}/callback.html"`);
        }
      });
    }

    if (example.name === 'deno') {
      test('type-checks with deno check against the packed types', () => {
        const checked = spawnSync(bin('deno'), ['check', 'main.ts'], { cwd: path.join(examples, 'deno'), encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' } });
        expect(checked.status, checked.stderr).toBe(0);
      });
    }

    if (example.name === 'cloudflare-worker') {
      // The popup relay's guarantees in workerd, with the Durable Object's storage as the store.
      test('the first of concurrent deposits wins, and the outcome is collected once', async ({ request }) => {
        const origin = running!.origin;
        const verifier = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url');
        const binding = await popupBindingOf(verifier);
        const state = await popupStateOfBinding(binding);
        const query = new URLSearchParams({ state, client_id: C.clients.demo.clientId, redirect_uri: `${origin}/callback.html`, scope: 'profile:me' });
        // What the popup's start page does: opened (GET), then bound to this browser once its
        // opener confirmed the state (the binding cookie stays in this request context).
        expect((await request.get(`${origin}/auth/itch?${query}`)).status()).toBe(200);
        const bound = await request.post(`${origin}/auth/itch?${query}`, { data: { popup_bind: state, opener: origin, binding }, headers: { Origin: origin } });
        expect(bound.status(), await bound.text()).toBe(200);
        const post = (data: object) => request.post(`${origin}/auth/itch`, { data, headers: { Origin: origin } });
        const deposits = await Promise.all(Array.from({ length: 8 }, () => post({ access_token: C.oauthToken, state })));
        expect(deposits.map((answer) => answer.status()).sort()).toEqual([202, 409, 409, 409, 409, 409, 409, 409]);
        const collects = await Promise.all(Array.from({ length: 8 }, () => post({ popup_verifier: verifier })));
        const outcomes = await Promise.all(collects.map(async (answer) => ({ status: answer.status(), body: await answer.json() })));
        const collected = outcomes.filter((outcome) => outcome.body.pending !== true);
        expect(collected, 'collected once').toHaveLength(1);
        const gamer = DEFAULT_SEED.users.find((user) => user.id === C.users.gamer)!;
        expect(collected[0]).toMatchObject({ status: 200, body: { user: { username: gamer.username } } });
      });
    }
  });
}

// Behind a proxy that ends TLS, the example gets plain http requests (and any Host a client sends):
// the cookie's Secure and the pages' addresses come from PUBLIC_ORIGIN, which the browser's Origin
// then matches (allowedOrigins).
for (const example of EXAMPLES) {
  test.describe(`examples/${example.name} behind a proxy that ends TLS`, () => {
    test.describe.configure({ timeout: 90_000 });
    const publicOrigin = 'https://game.example.test';
    let itch: RunningEmulator;
    let running: Running | undefined;

    test.beforeAll(async () => {
      itch = await startEmulator({ port: 0 });
      running = await start(example, itch, publicOrigin);
    });

    test.afterAll(async () => {
      await stop(running);
      await itch?.close();
    });

    test('sets a Secure cookie for an http request, from PUBLIC_ORIGIN', async ({ request }) => {
      const answer = await request.post(`${running!.origin}/auth/itch`, { data: { access_token: C.oauthToken }, headers: { Origin: publicOrigin } });
      expect(answer.status(), await answer.text()).toBe(200);
      const cookie = answer.headersArray().find(({ name }) => name.toLowerCase() === 'set-cookie')?.value ?? '';
      expect(cookie).toMatch(/^sid=/);
      expect(cookie).toMatch(/;\s*Secure(;|$)/i);
      if (example.name !== 'vite-spa') {
        expect(await (await request.get(`${running!.origin}/`)).text()).toContain(`redirect-uri="${publicOrigin}/callback.html"`);
      }
    });
  });
}
