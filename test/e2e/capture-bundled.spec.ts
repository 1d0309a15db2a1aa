// The Vite guide's early classic script for a site without Vite (fixtures/capture-bundled.ts, quoted
// in docs/guides/spa-vite.md): bundled with esbuild from the built package as a classic script, as
// a site's bundler would, and inlined first in <head> of the callback page, before the page's
// hostile scripts. It posts the token to /auth/itch and no other script sees it; a hash router's
// fragment is left alone.
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { expect, test } from '@playwright/test';
import { startFlow, startSite, type Site } from './support/site.js';

const TOKEN = 'itchKEY_bundled_0123456789abcdef';
let script: string;
let site: Site;

test.beforeAll(async () => {
  const bundled = await build({
    entryPoints: [fileURLToPath(new URL('./fixtures/capture-bundled.ts', import.meta.url))],
    bundle: true,
    format: 'iife',
    target: 'es2020',
    write: false,
  });
  script = bundled.outputFiles[0]!.text;
  expect(script).not.toContain('</script');
});
test.beforeEach(async () => {
  site = await startSite();
  site.page = { capture: 'none', headStart: `<script>${script}</script>` };
});
test.afterEach(() => site.close());

test('posts the token to /auth/itch, lands on the return-to, and no other script of the page sees it', async ({ page }) => {
  await startFlow(page, site);
  await page.goto(`${site.url}/callback.html#access_token=${TOKEN}&state=S1`);
  await page.waitForURL(`${site.url}/return.html?from=login`);
  expect(site.backendCalls.map(({ method, body }) => [method, JSON.parse(body)])).toEqual([['POST', { access_token: TOKEN }]]);
  for (const report of site.collected) expect(report).not.toContain(TOKEN);
});

test("leaves a hash router's fragment alone: the page and its scripts run as they are", async ({ page }) => {
  await page.goto(`${site.url}/callback.html#/games/42?tab=saves`);
  await page.waitForLoadState('load');
  await expect(page.getByRole('heading', { name: 'Signing you in' })).toBeVisible();
  await expect(page).toHaveURL(`${site.url}/callback.html#/games/42?tab=saves`);
  await expect.poll(() => site.collected.some((report) => report.includes('#/games/42'))).toBe(true);
  expect(site.backendCalls).toHaveLength(0);
});
