// Shared by the desktop tests: the emulator, Playwright's Chromium as the "system browser", free
// ports, and the proof that a listener is gone (its port can be bound again at once).
import { createServer as createNetServer, type Server as NetServer } from 'node:net';
import { after, before } from 'node:test';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { DEFAULT_SEED_CREDENTIALS as C, startEmulator, type RunningEmulator, type StartEmulatorOptions } from '../../src/emulator/index.js';

export { C };

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  // DNS rebinding, for real: these names resolve to the loopback listener.
  '--host-resolver-rules=MAP rebind.example 127.0.0.1',
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env['CHROME_PATH'] || '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

/**
 * For a test file: Chromium and an emulator (no redirect URIs registered yet), started before its
 * tests and closed after them. Read them in the tests, once `before` has run.
 */
export function useBrowserAndEmulator(): { readonly browser: Browser; readonly emulator: RunningEmulator } {
  const world = {} as { browser: Browser; emulator: RunningEmulator };
  before(async () => {
    world.browser = await launchBrowser();
    world.emulator = await emulatorFor([]);
  });
  after(async () => {
    await world.browser?.close();
    await world.emulator?.close();
  });
  return world;
}

/** A port that was free a moment ago (the OS picked it). */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, resolve);
  });
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Holds `port` like another program would; close it when done. */
export async function holdPort(port: number, host = '127.0.0.1'): Promise<NetServer> {
  const server = createNetServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host, exclusive: true }, resolve);
  });
  return server;
}

/** Binds `port` and lets it go: fails (EADDRINUSE) while a listener is still there. */
export async function assertPortFree(port: number, host = '127.0.0.1'): Promise<void> {
  const server = await holdPort(port, host);
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

export function closeNet(server: NetServer): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

/** The emulator, with `redirectUris` registered for the demo application. */
export function emulatorFor(redirectUris: readonly string[], options: StartEmulatorOptions = {}): Promise<RunningEmulator> {
  return startEmulator({ ...options, extraRedirectUris: { [C.clients.demo.clientId]: redirectUris } });
}

/** What the test's `openBrowser` received: the authorization URL the login opened. */
export function browserOpener(): { openBrowser: (url: string) => void; opened: Promise<string> } {
  let resolve!: (url: string) => void;
  const opened = new Promise<string>((r) => (resolve = r));
  return { openBrowser: (url) => resolve(url), opened };
}

/** Goes through the emulator's consent page as `userId` and clicks `decision`. */
export async function decide(page: Page, url: string, decision: 'Approve' | 'Deny', userId: number = C.users.gamer): Promise<void> {
  await page.goto(url);
  await page.getByLabel('Log in as').selectOption(String(userId));
  await page.getByRole('button', { name: decision }).click();
}

/** The callback page's heading once the capture has had its answer. */
export async function pageOutcome(page: Page): Promise<string> {
  const title = page.locator('#title');
  await title.filter({ hasNotText: 'Finishing the itch.io login' }).waitFor();
  return (await title.textContent()) ?? '';
}

export type { Browser, BrowserContext, Page, RunningEmulator };
