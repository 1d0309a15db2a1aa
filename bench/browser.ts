// The browser figures, in one Chromium, each run in a fresh context (empty storage, cold cache).
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import type { ButtonPage, Callback, Site } from './site.js';

export const CHROME_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];
export const TOKEN = 'benchTokenA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5';

export function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env['CHROME_PATH'] || '/usr/bin/chromium', args: CHROME_ARGS });
}

/**
 * The bench's own instrument, injected by Playwright before any script of each document (it is
 * not one of the page's scripts): it reports the callback document's navigation timing, its
 * paints, and the moment the fragment left the address (the Navigation API's
 * `currententrychange`, which `history.replaceState` fires synchronously).
 */
function instrument() {
  if (!location.pathname.startsWith('/cb-')) return;
  const send = (window as unknown as { __bench: (what: string, value: unknown) => void }).__bench;
  const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
  send('nav', { requestStart: nav?.requestStart, responseStart: nav?.responseStart });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) send(entry.name, entry.startTime);
  }).observe({ type: 'paint', buffered: true });
  const navigation = (window as unknown as { navigation?: EventTarget }).navigation;
  let cleared = false;
  navigation?.addEventListener('currententrychange', () => {
    if (!cleared && !location.hash.includes('access_token')) {
      cleared = true;
      send('cleared', performance.now());
    }
  });
}

export interface CallbackRun {
  /** Navigation start of the callback document to the backend receiving the POST. */
  latencyMs?: number;
  /** Response start to the callback document's first paint; absent when it never painted. */
  feedbackMs?: number;
  /** Response start to the fragment leaving the address; absent when it never did. */
  clearedMs?: number;
  /** How many of the page's later scripts ran in the token-bearing document. */
  laterScripts: number;
  posts: number;
  /** Whether the token was left in localStorage or sessionStorage. */
  tokenStored: boolean;
}

async function freshPage(browser: Browser, reports?: Record<string, unknown>): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  if (reports) {
    await context.exposeFunction('__bench', (what: string, value: unknown) => {
      reports[what] ??= value;
    });
    await context.addInitScript(instrument);
  }
  return { context, page: await context.newPage() };
}

/** The address itch.io would send the user back to, after a real login start on the game page. */
async function startLogin(page: Page, site: Site, callback: Callback): Promise<string> {
  if (callback === 'floor') {
    await page.goto(`${site.url}/user/oauth`);
    return `${site.url}/cb-floor.html#access_token=${TOKEN}&token_type=bearer`;
  }
  if (callback === 'hello') {
    await page.goto(`${site.url}/hello-game.html`);
    await page.evaluate(() => (window as unknown as { benchLogin(): void }).benchLogin());
  } else {
    await page.goto(`${site.url}/game.html`);
    await page.click(callback === 'full' ? 'itch-login-button#full' : 'itch-login-button:not(#full)');
  }
  await page.waitForURL(/\/user\/oauth\?/);
  const authorize = new URL(page.url());
  const state = authorize.searchParams.get('state');
  const redirectUri = authorize.searchParams.get('redirect_uri');
  if (!state || !redirectUri) throw new Error(`${callback}: no state or redirect_uri in ${page.url()}`);
  return `${redirectUri}#access_token=${TOKEN}&token_type=bearer&state=${encodeURIComponent(state)}`;
}

export async function callbackRun(browser: Browser, site: Site, callback: Callback): Promise<CallbackRun> {
  const reports: Record<string, unknown> = {};
  const { context, page } = await freshPage(browser, reports);
  try {
    const target = await startLogin(page, site, callback);
    const run = site.newRun();
    await page.goto(target, { waitUntil: 'commit' });
    await page.waitForURL(`${site.url}/done.html`, { timeout: 15_000 });
    // The later scripts' reports are keepalive fetches: let the last ones land.
    await page.waitForTimeout(100);
    const stored = await page.evaluate(() => JSON.stringify([{ ...localStorage }, { ...sessionStorage }]));
    const nav = reports['nav'] as { requestStart: number; responseStart: number } | undefined;
    if (!nav || run.documentAt === undefined || run.postAt === undefined) {
      throw new Error(`${callback}: incomplete run ${JSON.stringify({ nav, run: { ...run, ran: [...run.ran] } })}`);
    }
    const paint = reports['first-paint'] as number | undefined;
    const cleared = reports['cleared'] as number | undefined;
    return {
      // Two differences each in one clock: the browser's (navigation start → request sent) and
      // the server's (request received → POST received); loopback delivery in between.
      latencyMs: nav.requestStart + (run.postAt - run.documentAt),
      ...(paint !== undefined ? { feedbackMs: paint - nav.responseStart } : {}),
      ...(cleared !== undefined ? { clearedMs: cleared - nav.responseStart } : {}),
      laterScripts: run.ran.size,
      posts: run.posts,
      tokenStored: stored.includes(TOKEN),
    };
  } finally {
    await context.close();
  }
}

export interface ButtonRun {
  /** Start of the script's load to the button upgraded and rendered. */
  readyMs: number;
  cls: number;
  interactive: boolean;
}

export async function buttonRun(browser: Browser, site: Site, variant: ButtonPage): Promise<ButtonRun> {
  const { context, page } = await freshPage(browser);
  try {
    await page.goto(`${site.url}/button-${variant}.html`);
    await page.waitForFunction(() => (window as unknown as { __button: { ready?: number } }).__button.ready !== undefined);
    // Layout shifts are reported after the frame that has them: give it two frames more.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    await page.waitForTimeout(100);
    const b = await page.evaluate(
      () => (window as unknown as { __button: { ready: number; start: number; cls: number; interactive: boolean } }).__button,
    );
    return { readyMs: b.ready - b.start, cls: b.cls, interactive: b.interactive };
  } finally {
    await context.close();
  }
}
