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
  await expect(page.locator('itch-oauth-callback [part=status]')).toHaveText(widget.idle);
  expect(loaded).toContain('/dist/locales/de.js');
  expect(refused).toEqual([]);
  expect(site.cspReports).toEqual([]);
});

test('the full file speaks English without a language of its own loaded, and loads none', async ({ page }) => {
  site.page = { capture: 'full', hostile: false, body: '<itch-oauth-callback></itch-oauth-callback>' };
  const loaded: string[] = [];
  page.on('request', (request) => loaded.push(new URL(request.url()).pathname));
  await page.goto(`${site.url}/callback.html`);
  await expect(page.locator('itch-oauth-callback [part=status]')).toHaveText('No itch.io login in progress.');
  expect(loaded.filter((path) => path.startsWith('/dist/locales/'))).toEqual([]);
});
