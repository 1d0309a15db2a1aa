// The whole redirect flow in Chromium: the button on the game's page, a fake itch.io that
// approves or denies at once, the capture on the callback page, the backend, and the outcome
// shown by <itch-oauth-callback>.
import { expect, test, type Page } from '@playwright/test';
import { gamePage, startSite, type Site } from './support/site.js';

let site: Site;
test.beforeEach(async () => {
  site = await startSite();
});
test.afterEach(async () => {
  await site.close();
});

function button(extra = '') {
  return `<itch-login-button client-id="client" redirect-uri="${site.url}/callback.html" base-url="${site.authUrl}" return-to="/return.html?ok=1" ${extra}></itch-login-button>`;
}

async function clickLogin(page: Page) {
  await page.goto(`${site.url}/game.html`);
  await page.getByRole('button', { name: 'Log in with itch.io' }).click();
}

test('a click on the button logs the user in and lands on return-to', async ({ page }) => {
  site.game = gamePage(button());
  site.authorizeWith = { token: 'FLOW_TOKEN' };
  await clickLogin(page);
  await page.waitForURL(`${site.url}/return.html?ok=1`);
  expect(site.backendCalls.map((c) => JSON.parse(c.body))).toEqual([{ access_token: 'FLOW_TOKEN' }]);
  // The state was consumed: nothing is left in storage.
  expect(await page.evaluate(() => Object.keys(sessionStorage))).toEqual([]);
});

test('the authorization request carries every parameter and a fresh state', async ({ page }) => {
  site.game = gamePage(button('scope="profile:me profile:games"'));
  const requests: URL[] = [];
  page.on('request', (r) => {
    if (r.url().startsWith(site.authUrl)) requests.push(new URL(r.url()));
  });
  await clickLogin(page);
  await page.waitForURL(/return\.html/);
  await clickLogin(page);
  await page.waitForURL(/return\.html/);
  expect(requests).toHaveLength(2);
  const [first, second] = requests.map((u) => Object.fromEntries(u.searchParams));
  expect(first).toMatchObject({
    client_id: 'client',
    redirect_uri: `${site.url}/callback.html`,
    response_type: 'token',
    scope: 'profile:me profile:games',
  });
  expect(first!['state']).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(second!['state']).not.toBe(first!['state']);
});

test('access_denied is shown on the callback page and Try again starts a fresh login', async ({ page }) => {
  site.game = gamePage(button());
  site.page = { capture: 'full', hostile: false, body: '<itch-oauth-callback></itch-oauth-callback>' };
  site.authorizeWith = { error: 'access_denied' };
  const errors: unknown[] = [];
  await page.exposeFunction('reportError', (detail: unknown) => errors.push(detail));
  await page.addInitScript(() =>
    addEventListener('itch-login-error', (e) =>
      (window as unknown as { reportError(d: unknown): void }).reportError((e as CustomEvent).detail),
    ),
  );
  await clickLogin(page);
  await page.waitForURL(`${site.url}/callback.html`);
  await expect(page.locator('itch-oauth-callback')).toContainText(/declined|denied/i);
  await expect.poll(() => errors).toEqual([expect.objectContaining({ code: 'access_denied' })]);
  expect(site.backendCalls).toHaveLength(0);

  site.authorizeWith = { token: 'SECOND_TRY' };
  await page
    .locator('itch-oauth-callback')
    .getByRole('button', { name: /try again/i })
    .click();
  await page.waitForURL(`${site.url}/return.html?ok=1`);
  expect(site.backendCalls.map((c) => JSON.parse(c.body))).toEqual([{ access_token: 'SECOND_TRY' }]);
});

test('a backend 400 is shown with a retry that starts a fresh login', async ({ page }) => {
  site.game = gamePage(button());
  site.page = { capture: 'full', hostile: false, body: '<itch-oauth-callback></itch-oauth-callback>' };
  site.backendStatuses = [400, 200];
  await clickLogin(page);
  await page.waitForURL(`${site.url}/callback.html`);
  await expect(page.locator('itch-oauth-callback')).toContainText(/server/i);
  await page
    .locator('itch-oauth-callback')
    .getByRole('button', { name: /try again/i })
    .click();
  await page.waitForURL(/return\.html/);
  expect(site.backendCalls).toHaveLength(2);
});

test('with no-redirect the callback page shows the success and fires itch-login-success', async ({ page }) => {
  site.game = gamePage(button());
  site.page = { capture: 'full', hostile: false, noRedirect: true, body: '<itch-oauth-callback no-redirect></itch-oauth-callback>' };
  await page.addInitScript(() =>
    addEventListener('itch-login-success', (e) => sessionStorage.setItem('seen', JSON.stringify((e as CustomEvent).detail))),
  );
  await clickLogin(page);
  await page.waitForURL(`${site.url}/callback.html`);
  await expect(page.locator('itch-oauth-callback')).toContainText(/logged in/i);
  expect(JSON.parse((await page.evaluate(() => sessionStorage.getItem('seen')))!)).toEqual({
    response: { user: { id: 1, username: 'leafo' } },
  });
});

test('a framed-off or misconfigured button stays disabled and starts nothing', async ({ page }) => {
  site.game = gamePage(
    `<itch-login-button client-id="client" redirect-uri="${site.url}/callback.html" base-url="javascript:alert(1)"></itch-login-button>`,
  );
  await page.goto(`${site.url}/game.html`);
  await expect(page.getByRole('button', { name: 'Log in with itch.io' })).toBeDisabled();
});

test('an off-origin return-to is refused by the button', async ({ page }) => {
  site.game = gamePage(
    `<itch-login-button client-id="client" redirect-uri="${site.url}/callback.html" base-url="${site.authUrl}" return-to="//evil.example/"></itch-login-button>`,
  );
  await page.goto(`${site.url}/game.html`);
  await expect(page.getByRole('button', { name: 'Log in with itch.io' })).toBeDisabled();
});

test("the README's script-tag callback page works as written (capture in head, elements at the end)", async ({ page }) => {
  site.game = gamePage(button());
  site.page = {
    capture: 'capture',
    hostile: false,
    body: '<itch-oauth-callback></itch-oauth-callback><script src="/dist/itch-oauth.iife.js"></script>',
  };
  site.authorizeWith = { error: 'access_denied' };
  await clickLogin(page);
  await page.waitForURL(`${site.url}/callback.html`);
  await expect(page.locator('itch-oauth-callback')).toContainText(/declined/i);
  site.authorizeWith = { token: 'README_TOKEN' };
  await page
    .locator('itch-oauth-callback')
    .getByRole('button', { name: /try again/i })
    .click();
  await page.waitForURL(`${site.url}/return.html?ok=1`);
  expect(site.backendCalls.map((c) => JSON.parse(c.body))).toEqual([{ access_token: 'README_TOKEN' }]);
});
