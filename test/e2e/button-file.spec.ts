// The button-only script-tag file (dist/itch-oauth-button.iife.js), as a framed game's page loads
// it: the button and the `ItchOAuth` global, and nothing of the callback side.
import { expect, test } from '@playwright/test';
import { startSite, type Site } from './support/site.js';

let site: Site;
test.beforeEach(async () => {
  site = await startSite();
});
test.afterEach(async () => {
  await site.close();
});

function buttonFilePage(lang = 'en'): string {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>Game</title>
<script src="/dist/itch-oauth-button.iife.js"></script></head><body><h1>Game</h1>
<itch-login-button client-id="client" redirect-uri="${site.url}/callback.html" base-url="${site.authUrl}" return-to="/return.html?ok=1"></itch-login-button></body></html>`;
}

test('the button file defines the button and ItchOAuth.login, and neither the callback element nor the capture', async ({ page }) => {
  site.game = buttonFilePage();
  // A token in the address of a page that loads only the button file stays there: no capture runs.
  await page.goto(`${site.url}/game.html#access_token=NOT_CAPTURED&state=S1`);
  const loaded = await page.evaluate(() => ({
    button: customElements.get('itch-login-button') !== undefined,
    callback: customElements.get('itch-oauth-callback') !== undefined,
    login: typeof (globalThis as unknown as { ItchOAuth: { login: unknown } }).ItchOAuth.login,
    codes: (globalThis as unknown as { ItchOAuth: { ERROR_CODES: string[] } }).ItchOAuth.ERROR_CODES.includes('popup_blocked'),
    hash: location.hash,
  }));
  expect(loaded).toEqual({ button: true, callback: false, login: 'function', codes: true, hash: '#access_token=NOT_CAPTURED&state=S1' });
  expect(site.backendCalls).toEqual([]);
});

test("the button file's button logs the user in, with the capture file on the callback page", async ({ page }) => {
  site.game = buttonFilePage();
  site.authorizeWith = { token: 'BUTTON_FILE_TOKEN' };
  await page.goto(`${site.url}/game.html`);
  await page.getByRole('button', { name: 'Log in with itch.io' }).click();
  await page.waitForURL(`${site.url}/return.html?ok=1`);
  expect(site.backendCalls.map((c) => JSON.parse(c.body))).toEqual([{ access_token: 'BUTTON_FILE_TOKEN' }]);
});

test("the button file speaks the page's language: German, loaded from locales/de.js beside it", async ({ page }) => {
  const { widget } = await import('../../src/i18n/locales/de.js');
  site.game = buttonFilePage('de');
  const loaded: string[] = [];
  page.on('request', (request) => loaded.push(new URL(request.url()).pathname));
  await page.goto(`${site.url}/game.html`);
  await expect(page.getByRole('button', { name: widget.login })).toBeVisible();
  expect(loaded).toContain('/dist/locales/de.js');
});
