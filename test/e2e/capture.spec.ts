// The capture on a real callback page in Chromium: it must read and clear the fragment before
// any other script, let no other script of that document run, check the state and POST once.
import { expect, test, type Page } from '@playwright/test';
import { HOSTILE_KINDS, startFlow, startSite, type Site } from './support/site.js';
import { ERROR_CODES } from '../../src/core/errors.js';

const TOKEN = 'itchKEY_s3cr3t_0123456789abcdef';
const OUTCOME_KEY = 'itch-oauth:outcome';

let site: Site;
test.beforeEach(async () => {
  site = await startSite();
});
test.afterEach(async () => {
  await site.close();
});

function outcome(page: Page) {
  return page.evaluate((key) => JSON.parse(sessionStorage.getItem(key) ?? 'null'), OUTCOME_KEY);
}

/** Waits until everything the hostile scripts send has arrived. */
async function settle(page: Page) {
  await page.waitForLoadState('load');
  await page.waitForTimeout(300);
}

function expectNoToken() {
  for (const report of site.collected) {
    expect(report).not.toContain(TOKEN);
  }
}

test('posts the token once to the backend and lands on the return-to with replace', async ({ page }) => {
  await startFlow(page, site);
  await page.goto(`${site.url}/callback.html#access_token=${TOKEN}&state=S1`);
  await page.waitForURL(`${site.url}/return.html?from=login`);

  expect(site.backendCalls).toHaveLength(1);
  const [call] = site.backendCalls;
  expect(call!.method).toBe('POST');
  expect(call!.headers['content-type']).toBe('application/json');
  expect(JSON.parse(call!.body)).toEqual({ access_token: TOKEN });
  expect(call!.headers['referer']).toBeUndefined();
  // The callback page is not in the history: back goes to the page that started the login.
  await page.goBack();
  await expect(page).toHaveURL(`${site.url}/game.html`);
  expect(site.backendCalls).toHaveLength(1);
});

test('the hostile scripts do report the token on an unprotected callback page (control)', async ({ page }) => {
  site.page = { capture: 'none' };
  await startFlow(page, site);
  await page.goto(`${site.url}/callback.html#access_token=${TOKEN}&state=S1`);
  await settle(page);
  const reporting = new Set(site.collected.map((r) => JSON.parse(r.slice(r.indexOf(' ') + 1)).kind));
  expect([...reporting].sort()).toEqual([...HOSTILE_KINDS].sort());
  expect(site.collected.some((r) => r.includes(TOKEN))).toBe(true);
});

for (const capture of ['capture', 'full'] as const) {
  test(`no hostile script of any kind ever sees the token (${capture} file)`, async ({ page }) => {
    site.page = { capture, noRedirect: true };
    await startFlow(page, site);
    await page.goto(`${site.url}/callback.html#access_token=${TOKEN}&state=S1`);
    await page.waitForURL(`${site.url}/callback.html`);
    await settle(page);
    // The clean document's copies of the hostile scripts ran and reported; none saw the token.
    const reporting = new Set(site.collected.map((r) => JSON.parse(r.slice(r.indexOf(' ') + 1)).kind));
    expect([...reporting].sort()).toEqual([...HOSTILE_KINDS].sort());
    expect(site.backendCalls).toHaveLength(1);
    expectNoToken();
    // Leaving the page fires the pagehide reporters too.
    await page.goto(`${site.url}/game.html`);
    await settle(page);
    expectNoToken();
  });
}

test('the token is nowhere in the clean document: address, history, storage, cookies, DOM, timeline', async ({ page }) => {
  site.page = { noRedirect: true, hostile: false };
  await startFlow(page, site);
  await page.goto(`${site.url}/callback.html?keep=1#access_token=${TOKEN}&state=S1`);
  await page.waitForURL(`${site.url}/callback.html?keep=1`);
  const everything = await page.evaluate(() =>
    JSON.stringify({
      href: location.href,
      state: history.state,
      session: { ...sessionStorage },
      local: { ...localStorage },
      cookie: document.cookie,
      html: document.documentElement.outerHTML,
      timeline: performance.getEntries().map((e) => e.toJSON()),
      navigation: (window as { navigation?: { entries(): { url: string }[] } }).navigation?.entries().map((e) => e.url),
    }),
  );
  expect(everything).toContain('keep=1');
  expect(everything).not.toContain(TOKEN);
});

test('keeps the query string when it clears the fragment', async ({ page }) => {
  site.page = { noRedirect: true, hostile: false };
  await startFlow(page, site);
  await page.goto(`${site.url}/callback.html?a=1&b=2#access_token=${TOKEN}&state=S1`);
  await page.waitForURL(`${site.url}/callback.html?a=1&b=2`);
  expect(site.backendCalls).toHaveLength(1);
});

test('a crafted callback with a foreign token and an unknown state posts nothing (login CSRF)', async ({ page }) => {
  site.page = { hostile: false };
  await startFlow(page, site, 'MINE');
  await page.goto(`${site.url}/callback.html#access_token=ATTACKER_TOKEN&state=FORGED`);
  await page.waitForURL(`${site.url}/callback.html`);
  await settle(page);
  expect(site.backendCalls).toHaveLength(0);
  expect(await outcome(page)).toMatchObject({ code: 2 });
  // The forged state consumed nothing: the user's own login still completes.
  await page.goto(`${site.url}/game.html`);
  await page.goto(`${site.url}/callback.html#access_token=${TOKEN}&state=MINE`);
  await page.waitForURL(/return\.html/);
  expect(site.backendCalls).toHaveLength(1);
});

test('a callback without state posts nothing', async ({ page }) => {
  site.page = { hostile: false };
  await startFlow(page, site);
  await page.goto(`${site.url}/callback.html#access_token=${TOKEN}`);
  await page.waitForURL(`${site.url}/callback.html`);
  expect(site.backendCalls).toHaveLength(0);
  expect(await outcome(page)).toMatchObject({ code: 1 });
});

test('replaying a used callback address posts nothing', async ({ page }) => {
  site.page = { hostile: false };
  await startFlow(page, site);
  const address = `${site.url}/callback.html#access_token=${TOKEN}&state=S1`;
  await page.goto(address);
  await page.waitForURL(`${site.url}/return.html?from=login`);
  await page.goto(address);
  await page.waitForURL(`${site.url}/callback.html`);
  expect(site.backendCalls).toHaveLength(1);
  expect(await outcome(page)).toMatchObject({ code: 2 });
});

test('a login older than ten minutes is refused and posts nothing', async ({ page }) => {
  site.page = { hostile: false };
  await page.clock.install();
  await startFlow(page, site);
  await page.clock.fastForward('10:01');
  await page.goto(`${site.url}/callback.html#access_token=${TOKEN}&state=S1`);
  await page.waitForURL(`${site.url}/callback.html`);
  expect(site.backendCalls).toHaveLength(0);
  expect(await outcome(page)).toMatchObject({ code: 3 });
});

test('access_denied is reported after the state check and posts nothing', async ({ page }) => {
  site.page = { hostile: false };
  await startFlow(page, site);
  await page.goto(`${site.url}/callback.html#error=access_denied&error_description=%3Cimg+src%3Dx%3E&state=S1`);
  await page.waitForURL(`${site.url}/callback.html`);
  expect(site.backendCalls).toHaveLength(0);
  expect(await outcome(page)).toMatchObject({ code: 0, flow: { returnTo: '/return.html?from=login' } });
});

test('an error with an unknown state is a state error, not access_denied', async ({ page }) => {
  site.page = { hostile: false };
  await startFlow(page, site);
  await page.goto(`${site.url}/callback.html#error=access_denied&state=FORGED`);
  await page.waitForURL(`${site.url}/callback.html`);
  expect(await outcome(page)).toMatchObject({ code: 2 });
});

for (const [what, fragment] of [
  ['a repeated token', `access_token=${TOKEN}&access_token=OTHER&state=S1`],
  ['a bad percent-escape', `access_token=${TOKEN}%E0%A4%A&state=S1`],
  ['an empty token', `access_token=&state=S1`],
  ['both a token and an error', `access_token=${TOKEN}&error=access_denied&state=S1`],
  ['an oversized fragment', `access_token=${TOKEN}&state=${'x'.repeat(5000)}`],
]) {
  test(`${what} posts nothing and is cleared`, async ({ page }) => {
    site.page = { noRedirect: true };
    await startFlow(page, site);
    await page.goto(`${site.url}/callback.html#${fragment}`);
    await page.waitForURL(`${site.url}/callback.html`);
    await settle(page);
    expect(site.backendCalls).toHaveLength(0);
    expect(await outcome(page)).toMatchObject({ code: 4 });
    expectNoToken();
  });
}

test('a fragment that is not an implicit-flow response is left alone', async ({ page }) => {
  await page.goto(`${site.url}/callback.html#/games/42?tab=saves`);
  await settle(page);
  await expect(page).toHaveURL(`${site.url}/callback.html#/games/42?tab=saves`);
  expect(site.collected.some((r) => r.includes('#/games/42'))).toBe(true);
  expect(site.backendCalls).toHaveLength(0);
});

test('retries a 5xx and succeeds', async ({ page }) => {
  site.backendStatuses = [503, 500, 200];
  await startFlow(page, site);
  await page.goto(`${site.url}/callback.html#access_token=${TOKEN}&state=S1`);
  await page.waitForURL(`${site.url}/return.html?from=login`, { timeout: 10_000 });
  expect(site.backendCalls).toHaveLength(3);
});

test('gives up after a few 5xx with service_unavailable, not a refusal', async ({ page }) => {
  site.backendStatuses = [500];
  site.page = { hostile: false };
  await startFlow(page, site);
  await page.goto(`${site.url}/callback.html#access_token=${TOKEN}&state=S1`);
  await page.waitForURL(`${site.url}/callback.html`, { timeout: 15_000 });
  expect(site.backendCalls).toHaveLength(4);
  expect(await outcome(page)).toMatchObject({ code: ERROR_CODES.indexOf('service_unavailable') });
});

test('does not retry a 400', async ({ page }) => {
  site.backendStatuses = [400];
  site.page = { hostile: false };
  await startFlow(page, site);
  await page.goto(`${site.url}/callback.html#access_token=${TOKEN}&state=S1`);
  await page.waitForURL(`${site.url}/callback.html`);
  expect(site.backendCalls).toHaveLength(1);
  expect(await outcome(page)).toMatchObject({ code: 5 });
});

test('reports service_unavailable when the backend cannot be reached', async ({ page }) => {
  site.backendStatuses = [0];
  site.page = { hostile: false };
  await startFlow(page, site);
  await page.goto(`${site.url}/callback.html#access_token=${TOKEN}&state=S1`);
  await page.waitForURL(`${site.url}/callback.html`, { timeout: 15_000 });
  // Four attempts (Chromium itself may retry a reset connection once more).
  expect(site.backendCalls.length).toBeGreaterThanOrEqual(4);
  expect(await outcome(page)).toMatchObject({ code: ERROR_CODES.indexOf('service_unavailable') });
});

test('reloading and going back and forth after success never posts again', async ({ page }) => {
  site.page = { noRedirect: true, hostile: false };
  await startFlow(page, site);
  await page.goto(`${site.url}/callback.html#access_token=${TOKEN}&state=S1`);
  await page.waitForURL(`${site.url}/callback.html`);
  await page.reload();
  await page.goto(`${site.url}/game.html`);
  await page.goBack();
  await page.goForward();
  await page.goBack();
  await settle(page);
  expect(site.backendCalls).toHaveLength(1);
});

test('a tampered off-origin return-to is never followed', async ({ page }) => {
  site.page = { hostile: false };
  await startFlow(page, site, 'S1', { returnTo: '//evil.example/steal' });
  await page.goto(`${site.url}/callback.html#access_token=${TOKEN}&state=S1`);
  await page.waitForURL(`${site.url}/callback.html`);
  expect(site.backendCalls).toHaveLength(1);
});

test('a redirecting backend never forwards the token (redirect: error)', async ({ page }) => {
  site.backendStatuses = [307];
  site.page = { hostile: false };
  await startFlow(page, site);
  await page.goto(`${site.url}/callback.html#access_token=${TOKEN}&state=S1`);
  await page.waitForURL(`${site.url}/callback.html`, { timeout: 15_000 });
  expect(site.backendCalls.length).toBeGreaterThanOrEqual(1);
  expect(site.collected).toEqual([]);
  expect(await outcome(page)).toMatchObject({ code: ERROR_CODES.indexOf('service_unavailable') });
});

test('the token never reaches the console', async ({ page }) => {
  const messages: string[] = [];
  page.on('console', (message) => messages.push(message.text()));
  page.on('pageerror', (error) => messages.push(String(error.stack)));
  site.backendStatuses = [500, 400];
  site.page = { noRedirect: true };
  await startFlow(page, site);
  await page.goto(`${site.url}/callback.html#access_token=${TOKEN}&state=S1`);
  await page.waitForURL(`${site.url}/callback.html`, { timeout: 15_000 });
  await settle(page);
  expect(messages.join('\n')).not.toContain(TOKEN);
});

test('an injected <base href> does not move the backend', async ({ page }) => {
  site.page = { hostile: false, headStart: '<base href="http://127.0.0.2:9/">' };
  await startFlow(page, site);
  await page.goto(`${site.url}/callback.html#access_token=${TOKEN}&state=S1`);
  await page.waitForURL(/return\.html/);
  expect(site.backendCalls).toHaveLength(1);
});

test('a cross-origin plain-http backend is refused', async ({ page }) => {
  site.page = { hostile: false, backend: 'http://game.example/auth' };
  await startFlow(page, site);
  await page.goto(`${site.url}/callback.html#access_token=${TOKEN}&state=S1`);
  await page.waitForURL(`${site.url}/callback.html`);
  expect(await outcome(page)).toMatchObject({ code: 9 });
});

test('a missing backend is config_invalid', async ({ page }) => {
  site.page = { hostile: false, backend: '' };
  await startFlow(page, site);
  await page.goto(`${site.url}/callback.html#access_token=${TOKEN}&state=S1`);
  await page.waitForURL(`${site.url}/callback.html`);
  expect(site.backendCalls).toHaveLength(0);
  expect(await outcome(page)).toMatchObject({ code: 9 });
});
