// While the backend takes its time, the callback document shows the capture's own pending view
// ("Signing you in…"), and still no other script of that document ever runs. The capture writes
// `<output><plaintext>` after itself when it runs as a parser-blocking classic script; run any other
// way (async, defer, module, late) it stops the document as before. Each way is tried here, in
// real Chromium, with a backend that holds the POST.
import { inflateSync } from 'node:zlib';
import { expect, test, type Page } from '@playwright/test';
import { STRICT_CSP, startFlow, startSite, type Site } from './support/site.js';

const TOKEN = 'itchKEY_pending_0123456789abcdef';
const DARK_AND_LIGHT = '<meta name="color-scheme" content="light dark">';

let site: Site;
let release: () => void;
test.beforeEach(async () => {
  site = await startSite();
  // The backend holds every POST until the test releases it.
  site.backendHold = new Promise<void>((resolve) => (release = resolve));
});
test.afterEach(async () => {
  release();
  await site.close();
});

/**
 * Opens the callback with a token and waits until the backend holds the POST. (A stopped document
 * never fires `load`: only the response is waited for.)
 */
async function arriveWithToken(page: Page) {
  await page.goto(`${site.url}/callback.html#access_token=${TOKEN}&state=S1`, { waitUntil: 'commit' });
  await expect.poll(() => site.backendCalls.length).toBe(1);
}

/**
 * Runs the flow up to the held backend: for `quietMs` the page shows no view and none of its
 * scripts reports (with `keepsPage`, its `#page` heading stays: no write replaced it); released,
 * the page goes on to the return address with one backend call, and still none reported.
 */
async function expectStoppedUntilReleased(page: Page, quietMs: number, keepsPage = false): Promise<void> {
  await startFlow(page, site);
  await arriveWithToken(page);
  await page.waitForTimeout(quietMs);
  expect(await page.locator('output').count()).toBe(0);
  if (keepsPage) expect(await page.locator('#page').count()).toBe(1);
  expect(reportingKinds()).toEqual([]);
  release();
  await page.waitForURL(`${site.url}/return.html?from=login`);
  expect(site.backendCalls).toHaveLength(1);
  expect(reportingKinds()).toEqual([]);
}

/** The kinds of the hostile scripts that reported so far (none may have seen the token). */
function reportingKinds(): string[] {
  for (const report of site.collected) expect(report).not.toContain(TOKEN);
  return [...new Set(site.collected.map((r) => JSON.parse(r.slice(r.indexOf(' ') + 1)).kind as string))];
}

/** The colour of the top-left pixel of a screenshot (a 1×1 PNG: one filter byte, then RGB(A)). */
function topLeftPixel(png: Buffer): [number, number, number] {
  const data: Buffer[] = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    if (png.toString('latin1', at + 4, at + 8) === 'IDAT') data.push(png.subarray(at + 8, at + 8 + length));
    at += length + 12;
  }
  // With one pixel in one row, every PNG filter leaves the bytes as they are.
  const [, r, g, b] = inflateSync(Buffer.concat(data));
  return [r!, g!, b!];
}

for (const scheme of ['light', 'dark'] as const) {
  test(`while a slow backend holds the POST, the callback paints "Signing you in…" (${scheme})`, async ({ page }, testInfo) => {
    await page.emulateMedia({ colorScheme: scheme });
    // The page declares both schemes before the capture; every kind of hostile script follows it.
    site.page = { headStart: DARK_AND_LIGHT };
    await startFlow(page, site);
    await arriveWithToken(page);

    const status = page.getByRole('status');
    await expect(status).toHaveText('Signing you in…');
    await expect(status).toBeVisible();
    // The token document is fully loaded and painted: a screenshot does not time out.
    const shot = await page.screenshot({ timeout: 5_000 });
    await testInfo.attach(`pending-${scheme}.png`, { body: shot, contentType: 'image/png' });
    const [r, g, b] = topLeftPixel(await page.screenshot({ clip: { x: 0, y: 0, width: 1, height: 1 }, timeout: 5_000 }));
    const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    if (scheme === 'dark') expect(luminance).toBeLessThan(64);
    else expect(luminance).toBeGreaterThan(192);
    expect(await status.evaluate((view) => getComputedStyle(view).color)).toBe(scheme === 'dark' ? 'rgb(255, 255, 255)' : 'rgb(0, 0, 0)');

    // Loaded, painted, the POST still held, and not one of the hostile scripts has run.
    expect(await page.evaluate(() => [document.readyState, document.scripts.length, location.href])).toEqual([
      'complete',
      1,
      `${site.url}/callback.html#`,
    ]);
    await page.waitForTimeout(300);
    expect(reportingKinds()).toEqual([]);
    expect(site.backendCalls).toHaveLength(1);

    release();
    await page.waitForURL(`${site.url}/return.html?from=login`);
    expect(site.backendCalls).toHaveLength(1);
    expect(reportingKinds()).toEqual([]);
  });
}

test('a page that declares no dark scheme before the capture keeps the pending view light', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  site.page = { hostile: false, body: DARK_AND_LIGHT };
  await startFlow(page, site);
  await arriveWithToken(page);
  await expect(page.getByRole('status')).toHaveText('Signing you in…');
  const [r, g, b] = topLeftPixel(await page.screenshot({ clip: { x: 0, y: 0, width: 1, height: 1 }, timeout: 5_000 }));
  expect(Math.min(r, g, b)).toBeGreaterThan(192);
});

test('data-pending sets the text, with the full script-tag file too', async ({ page }) => {
  site.page = { capture: 'full', pending: 'Opening the gates <b>now</b>…'.replace(/</g, '&lt;') };
  await startFlow(page, site);
  await arriveWithToken(page);
  // Text, never markup.
  await expect(page.getByRole('status')).toHaveText('Opening the gates <b>now</b>…');
  await page.screenshot({ timeout: 5_000 });
  await page.waitForTimeout(300);
  expect(reportingKinds()).toEqual([]);
  release();
  await page.waitForURL(`${site.url}/return.html?from=login`);
});

// Run any other way, document.write would be ignored (and the later scripts would run) or would
// replace the page: the capture stops the document instead, and shows no view.
test('an async capture stops the document: a slow script later in the page never runs', async ({ page }) => {
  site.slowPaths['/hostile/classic.js'] = 1_000;
  // The parser waits for the slow script; the async capture runs meanwhile, during parsing.
  site.page = {
    loading: 'async',
    hostile: false,
    body: '<script src="/hostile/classic.js"></script><script defer src="/hostile/defer.js"></script><script type="module" src="/hostile/module.js"></script>',
  };
  await expectStoppedUntilReleased(page, 1_500);
});

test('a deferred capture stops the document: the deferred and module scripts after it never run', async ({ page }) => {
  site.page = {
    loading: 'defer',
    hostile: false,
    body: '<h1 id="page">The page</h1><script defer src="/hostile/defer.js"></script><script type="module" src="/hostile/module.js"></script>',
  };
  await expectStoppedUntilReleased(page, 500, true);
});

test('captureCallback() from a module stops the document: the scripts after it never run', async ({ page }) => {
  site.page = {
    capture: 'none',
    hostile: false,
    headStart: `<script type="module">import { captureCallback } from '/dist/capture.js'; captureCallback({ backend: '/auth/itch' });</script>`,
    body: '<h1 id="page">The page</h1><script defer src="/hostile/defer.js"></script><script type="module" src="/hostile/module.js"></script>',
  };
  await expectStoppedUntilReleased(page, 500, true);
});

test('captureCallback() called after the page has loaded leaves the page as it is (no write)', async ({ page }) => {
  site.page = {
    capture: 'none',
    hostile: false,
    body:
      '<h1 id="page">The page</h1><script>addEventListener("load", () => setTimeout(() => ' +
      `import('/dist/capture.js').then((m) => m.captureCallback({ backend: '/auth/itch' }))));</script>`,
  };
  await startFlow(page, site);
  await arriveWithToken(page);
  // document.write here would have replaced the page by the view.
  await expect(page.locator('#page')).toHaveText('The page');
  expect(await page.locator('output').count()).toBe(0);
  release();
  await page.waitForURL(`${site.url}/return.html?from=login`);
  expect(site.backendCalls).toHaveLength(1);
});

test.describe('under the README strict CSP with Trusted Types enforced', () => {
  for (const capture of ['capture', 'full'] as const) {
    test(`the pending view, the POST and the clean callback page work, with no violation (${capture} file)`, async ({ page }) => {
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning') errors.push(message.text());
      });
      page.on('pageerror', (error) => errors.push(String(error)));
      site.page = {
        capture,
        noRedirect: true,
        hostile: false,
        headStart: DARK_AND_LIGHT,
        headers: { 'Content-Security-Policy': STRICT_CSP },
        // The full file in <head> has registered the elements already.
        body: `<itch-oauth-callback no-redirect></itch-oauth-callback>${capture === 'full' ? '' : '<script src="/dist/itch-oauth.iife.js"></script>'}`,
      };
      await startFlow(page, site);
      await arriveWithToken(page);
      await expect(page.getByRole('status')).toHaveText('Signing you in…');
      await page.screenshot({ timeout: 5_000 });
      release();
      await page.waitForURL(`${site.url}/callback.html`);
      await expect(page.locator('itch-oauth-callback')).toContainText(/logged in/i);
      expect(errors).toEqual([]);
    });
  }

  test('without the capture policy allowed, the capture falls back to stopping the document', async ({ page }) => {
    site.page = {
      hostile: false,
      headers: { 'Content-Security-Policy': STRICT_CSP.replace('itch-oauth-capture ', '') },
      body: '<h1 id="page">The page</h1><script src="/hostile/classic.js"></script>',
    };
    await expectStoppedUntilReleased(page, 300);
  });
});
