// The full script-tag file (dist/itch-oauth.iife.js) speaks the page's language as the button-only
// file does (button-file.spec.ts): English is built in, another language is loaded from
// dist/locales/ beside the file. On a callback page served with the strict CSP of
// docs/concepts/security.md (Trusted Types required), through the `itch-oauth-locale` policy.
import { expect, test } from '@playwright/test';
import { STRICT_CSP, startSite, type Site } from './support/site.js';

let site: Site;
test.beforeEach(async () => {
  site = await startSite();
});
test.afterEach(async () => {
  await site.close();
});

test("the full file speaks the callback page's language under the strict CSP: German, loaded from locales/de.js beside it", async ({
  page,
}) => {
  const { widget } = await import('../../src/i18n/locales/de.js');
  site.page = {
    capture: 'full',
    hostile: false,
    headers: { 'Content-Security-Policy': `${STRICT_CSP}; report-uri /csp-report` },
    body: '<div lang="de"><itch-oauth-callback></itch-oauth-callback></div>',
  };
  const loaded: string[] = [];
  page.on('request', (request) => loaded.push(new URL(request.url()).pathname));
  const refused: string[] = [];
  page.on('console', (message) => {
    if (/Trusted Type|Content Security Policy/i.test(message.text())) refused.push(message.text());
  });
  await page.goto(`${site.url}/callback.html`);
  await expect(page.locator('itch-oauth-callback [part=status]')).toHaveText(widget.idle + widget.back);
  expect(loaded).toContain('/dist/locales/de.js');
  expect(refused).toEqual([]);
  expect(site.cspReports).toEqual([]);
});

test('the full file speaks English without a language of its own loaded, and loads none', async ({ page }) => {
  site.page = { capture: 'full', hostile: false, body: '<itch-oauth-callback></itch-oauth-callback>' };
  const loaded: string[] = [];
  page.on('request', (request) => loaded.push(new URL(request.url()).pathname));
  await page.goto(`${site.url}/callback.html`);
  await expect(page.locator('itch-oauth-callback [part=status]')).toHaveText('No itch.io login in progress.Back to the site');
  expect(loaded.filter((path) => path.startsWith('/dist/locales/'))).toEqual([]);
});

/** Holds back the page's requests for dist/locales/: `release()` lets them through. */
async function holdLocales(page: import('@playwright/test').Page): Promise<{ release(): void; asked: () => boolean }> {
  let release = () => undefined as void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let asked = false;
  await page.route('**/dist/locales/*.js', async (route) => {
    asked = true;
    await released;
    await route.continue();
  });
  return { release, asked: () => asked };
}

test('while its language loads, the button is not in the page: never a button without a name', async ({ page }) => {
  const { widget } = await import('../../src/i18n/locales/de.js');
  site.page = {
    capture: 'full',
    hostile: false,
    body: '<div lang="de"><itch-login-button client-id="c" redirect-uri="https://example.test/cb"></itch-login-button></div>',
  };
  const locales = await holdLocales(page);
  // (A script on its way holds back the load event.)
  await page.goto(`${site.url}/callback.html`, { waitUntil: 'domcontentloaded' });
  await expect.poll(locales.asked).toBe(true);
  await page.waitForTimeout(300);
  expect(await page.getByRole('button').count(), 'no button while the words are on their way').toBe(0);
  locales.release();
  await expect(page.getByRole('button')).toHaveAccessibleName(widget.login);
});

test('after a failure, the way on (here the link back) takes the focus once the words of the page arrive', async ({ page }) => {
  const { widget } = await import('../../src/i18n/locales/de.js');
  site.page = { capture: 'full', hostile: false, body: '<div lang="de"><itch-oauth-callback></itch-oauth-callback></div>' };
  const locales = await holdLocales(page);
  // A login this browser never started: refused by the capture, and the view links back to the site.
  await page.goto(`${site.url}/callback.html#access_token=not-ours&token_type=bearer&state=unknown-state-value`, {
    waitUntil: 'domcontentloaded',
  });
  await expect.poll(locales.asked).toBe(true);
  // The document is parsed: the element has asked for the focus, and has nothing drawn to take it.
  await page.waitForTimeout(300);
  locales.release();
  const back = page.getByRole('link', { name: widget.back });
  await expect(back).toBeVisible();
  await expect(back).toBeFocused();
});

test('a language file the site does not serve leaves English, and says where it looked in the console', async ({ page }) => {
  site.page = {
    capture: 'full',
    hostile: false,
    body: '<div lang="de"><itch-login-button client-id="c" redirect-uri="https://example.test/cb"></itch-login-button></div>',
  };
  await page.route('**/dist/locales/*.js', (route) => route.fulfill({ status: 404, body: 'not found' }));
  const warnings: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'warning') warnings.push(message.text());
  });
  await page.goto(`${site.url}/callback.html`);
  await expect(page.getByRole('button')).toHaveAccessibleName('Log in with itch.io');
  expect(warnings).toContainEqual(
    expect.stringMatching(/^itch-oauth-widget: no de words at .*\/dist\/locales\/de\.js: serve locales\/ beside/),
  );
});
