// The Vite plugin in a Vite + React app as a user installs it: the packed tarball in the app's
// node_modules (so Vite pre-bundles it, as it does for a user), @vitejs/plugin-react, and a
// callback.html with an inline <script type="module"> (test/vite/react-app). Under `vite` (dev) and
// `vite preview` (after `vite build`): the callback page loads, reloaded or reopened, with its inline
// module run and an empty console (no CSP refusal of plugin-react's preamble, no "Lit is in dev
// mode"); a login through the emulator completes; and the page's CSP is the plugin's, with the
// hashes of what Vite dev adds to the page in dev only.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { pack } from '../../scripts/pack.mjs';
import { DEFAULT_SEED, DEFAULT_SEED_CREDENTIALS as C, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { cspHash } from '../../src/vite/dev-csp.js';
import { freePort } from './support/free-port.js';
import { userEnvironment } from './support/user-env.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const fixture = path.join(repo, 'test', 'vite', 'react-app');
const press = DEFAULT_SEED.users.find((user) => user.id === C.users.press)!;
const DEFAULT_CSP = /^script-src 'self' 'sha256-[\w+/]+=*'; object-src 'none'; base-uri 'none'$/;

let app: string;
let itch: RunningEmulator;

/**
 * The app in a fresh folder: the fixture's files, and a node_modules with the tarball unpacked as
 * itch-oauth-widget beside links to the repository's packages (Vite, React, plugin-react, Lit).
 */
test.beforeAll(() => {
  app = mkdtempSync(path.join(tmpdir(), 'itch-vite-react-'));
  cpSync(fixture, app, { recursive: true });
  const modules = path.join(app, 'node_modules');
  mkdirSync(path.join(modules, 'itch-oauth-widget'), { recursive: true });
  for (const name of readdirSync(path.join(repo, 'node_modules'))) {
    if (!name.startsWith('.') && name !== 'itch-oauth-widget') symlinkSync(path.join(repo, 'node_modules', name), path.join(modules, name));
  }
  const unpacked = spawnSync('tar', ['-xzf', pack(), '--strip-components=1', '-C', path.join(modules, 'itch-oauth-widget')]);
  expect(unpacked.status, String(unpacked.stderr)).toBe(0);
});

test.afterAll(() => rmSync(app, { recursive: true, force: true }));

interface Running {
  origin: string;
  child: ChildProcess;
  log: () => string;
}

/** `vite <args>` in the app, on a free port, until it prints its address. */
async function vite(args: string[]): Promise<Running> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(repo, 'node_modules', 'vite', 'bin', 'vite.js'), ...args], {
    cwd: app,
    env: userEnvironment({ PORT: String(port), ITCH_BASE_URL: itch.url, NO_COLOR: '1', FORCE_COLOR: '0' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`vite ${args.join(' ')} did not start in 60 s:\n${log}`)), 60_000);
    const read = (chunk: Buffer): void => {
      log += chunk.toString();
      if (/Local:\s+http:\/\/127\.0\.0\.1:\d+/.test(log)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.on('exit', (code) => reject(new Error(`vite ${args.join(' ')} exited (${code}):\n${log}`)));
  });
  return { origin: `http://127.0.0.1:${port}`, child, log: () => log };
}

async function stop(running: Running | undefined): Promise<void> {
  const child = running?.child;
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/**
 * React's own line in dev, on every React app's page in a browser without the React DevTools
 * extension: the app page's, not the callback page's (which has no React).
 */
const REACT_DEVTOOLS = /^info: %cDownload the React DevTools/;

/**
 * Every console message and uncaught error of `page` while it shows one of `origin`'s pages (not
 * the emulator's), except the verbose level that browsers' consoles hide by default (Vite's
 * "[vite] connected.") and React's DevTools line.
 */
function consoleOf(page: Page, origin: string): string[] {
  const seen: string[] = [];
  page.on('console', (message) => {
    const line = `${message.type()}: ${message.text()} (${message.location().url})`;
    const where = message.location().url || page.url();
    if (message.type() !== 'debug' && !REACT_DEVTOOLS.test(line) && where.startsWith(origin)) seen.push(line);
  });
  page.on('pageerror', (error) => seen.push(`pageerror: ${error.message}`));
  return seen;
}

/** The callback page opened without a login (a reload, or its address opened again): its inline module ran, its element shows a sentence. */
async function openCallback(page: Page, origin: string): Promise<void> {
  const answer = await page.goto(`${origin}/callback.html`);
  expect(answer!.headers()['content-type']).toMatch(/^text\/html/);
  await expect(page.locator('html')).toHaveAttribute('data-inline-module', 'ran');
  await expect(page.locator('itch-oauth-callback')).toContainText(/\w+/);
}

for (const mode of ['dev', 'preview'] as const) {
  test.describe(`vite ${mode}`, () => {
    test.describe.configure({ timeout: 90_000 });
    let running: Running | undefined;

    test.beforeAll(async () => {
      test.setTimeout(180_000);
      itch = await startEmulator({ port: 0 });
      if (mode === 'preview') {
        const built = spawnSync(process.execPath, [path.join(repo, 'node_modules', 'vite', 'bin', 'vite.js'), 'build'], {
          cwd: app,
          encoding: 'utf8',
          env: userEnvironment({ PORT: '1', ITCH_BASE_URL: itch.url, NO_COLOR: '1' }),
        });
        expect(built.status, built.stdout + built.stderr).toBe(0);
      }
      running = await vite(mode === 'dev' ? [] : ['preview']);
      itch.addRedirectUri(C.clients.demo.clientId, `${running.origin}/callback.html`);
    });

    test.afterAll(async () => {
      await stop(running);
      await itch?.close();
    });

    test('the callback page loads with its inline module run and an empty console, reloaded too', async ({ page }) => {
      const seen = consoleOf(page, running!.origin);
      await openCallback(page, running!.origin);
      await page.reload();
      await expect(page.locator('html')).toHaveAttribute('data-inline-module', 'ran');
      await expect(page.locator('itch-oauth-callback')).toContainText(/\w+/);
      await page.waitForLoadState('networkidle');
      expect(seen).toEqual([]);
    });

    // (The build bundles the inline module into a file of its own: nothing to ask preview.)
    if (mode === 'dev')
      test('Vite answers the inline module: JavaScript, not the page', async ({ request }) => {
        await request.get(`${running!.origin}/callback.html`); // Vite knows a page's inline modules once it has served it
        const proxy = await request.get(`${running!.origin}/callback.html?html-proxy&index=0.js`, {
          headers: { 'Sec-Fetch-Dest': 'script' },
        });
        expect(proxy.status()).toBe(200);
        expect(proxy.headers()['content-type']).toMatch(/javascript/);
        expect(await proxy.text()).toContain('inlineModule');
      });

    test('a login through the emulator completes, with an empty console on the app', async ({ page }) => {
      const seen = consoleOf(page, running!.origin);
      await page.goto(`${running!.origin}/`);
      await expect(page.getByText('Not signed in.')).toBeVisible();
      await page.getByRole('button', { name: 'Log in with itch.io' }).click();
      await page.waitForURL(`${itch.url}/user/oauth?**`);
      await page.getByLabel('Log in as').selectOption(String(C.users.press));
      await page.getByRole('button', { name: 'Approve' }).click();
      await expect(page.getByText(`Signed in as ${press.username}`)).toBeVisible();
      expect(new URL(page.url()).pathname).toBe('/');
      await page.waitForLoadState('networkidle');
      expect(seen).toEqual([]);
    });

    test(`the callback page's CSP is the plugin's${mode === 'dev' ? ', with the hash of plugin-react’s preamble' : ', and nothing more'}`, async ({
      request,
    }) => {
      const page = await request.get(`${running!.origin}/callback.html`);
      const csp = page.headers()['content-security-policy']!;
      if (mode === 'preview') {
        expect(csp).toMatch(DEFAULT_CSP);
        return;
      }
      const html = await page.text();
      const preamble = /<script type="module">([^<]*injectIntoGlobalHook[^<]*)<\/script>/.exec(html)?.[1];
      expect(preamble, 'plugin-react put its preamble in the page').toBeDefined();
      expect(csp).toMatch(/^script-src 'self' 'sha256-[\w+/]+=*' 'sha256-[\w+/]+=*'; object-src 'none'; base-uri 'none'$/);
      expect(csp).toContain(cspHash(preamble!));
    });
  });
}
