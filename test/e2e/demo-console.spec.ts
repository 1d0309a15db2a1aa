// A newcomer opening the browser console on the demo sees nothing red: every console message of
// type error or warning, and every uncaught error, during the normal flows (browsing signed out,
// logging in through the emulator's consent page, the account page, logging out, denying, opening
// the callback page by hand, the framed game's popup login) fails this test, on the site, the
// game and the emulator's pages alike.
import { expect, test, type ConsoleMessage, type Page } from '@playwright/test';
import { DEFAULT_SEED_CREDENTIALS as C } from '../../src/emulator/index.js';
import { startDemo, type RunningDemo } from '../../demo/serve.js';
import { gameReady } from './support/demo-game.js';

let demo: RunningDemo;
test.beforeAll(async () => {
  demo = await startDemo({ port: 0, logLevel: 'silent' });
});
test.afterAll(async () => {
  await demo?.close();
});

/** Everything red the page's console shows from now on. */
function collectConsoleErrors(page: Page): string[] {
  const problems: string[] = [];
  const describe = (message: ConsoleMessage) => `${message.type()}: ${message.text()} (${message.location().url})`;
  // Every page declares its icon (the emulator's is inline, which its CSP allows): no message is
  // filtered out, whatever the engine puts in a message or its location.
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(describe(message));
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  // A request that failed (a host that does not resolve, a refused connection), not one cancelled
  // because its page went away (ERR_ABORTED: the console does not show those).
  page.on('requestfailed', (request) => {
    const error = request.failure()?.errorText ?? '';
    if (error !== 'net::ERR_ABORTED') problems.push(`failed request: ${request.url()} ${error}`);
  });
  return problems;
}

async function logIn(page: Page, userId: number): Promise<void> {
  await page.locator('.hero').getByRole('button', { name: 'Log in with itch.io' }).click();
  await page.waitForURL(`${demo.emulator!.url}/user/oauth?**`);
  await page.getByLabel('Log in as').selectOption(String(userId));
  await page.getByRole('button', { name: 'Approve' }).click();
  await page.waitForURL(`${demo.url}/account.html`);
}

test('the console stays clean: signed out, logging in, the account page, logging out', async ({ page }) => {
  const problems = collectConsoleErrors(page);
  // Signed out: the session probe finds nobody.
  await page.goto(`${demo.url}/`);
  await expect(page.locator('html')).toHaveAttribute('data-signed-in', 'false');
  await page.goto(`${demo.url}/account.html`);
  await expect(page.getByRole('heading', { name: 'You are not signed in' })).toBeVisible();
  // The callback page opened by hand, without a login.
  await page.goto(`${demo.url}/callback.html`);
  await expect(page.locator('itch-oauth-callback')).toBeAttached();

  await page.goto(`${demo.url}/`);
  await logIn(page, C.users.developer);
  await expect(page.getByText('@pixelforge')).toBeVisible();
  // The avatar spot shows the monogram, with no failed image behind it.
  await expect(page.locator('[data-field="avatar"] .avatar')).toHaveText('P');
  await page.goto(`${demo.url}/`);
  await expect(page.locator('html')).toHaveAttribute('data-signed-in', 'true');

  await page.goto(`${demo.url}/account.html`);
  await page.getByRole('button', { name: 'Log out' }).click();
  await page.waitForURL(`${demo.url}/`);
  await expect(page.locator('html')).toHaveAttribute('data-signed-in', 'false');
  await page.waitForLoadState('load');
  expect(problems).toEqual([]);
});

test('the console stays clean when the player denies and starts again', async ({ page }) => {
  const problems = collectConsoleErrors(page);
  await page.goto(`${demo.url}/`);
  await page.locator('.hero').getByRole('button', { name: 'Log in with itch.io' }).click();
  await page.getByRole('button', { name: 'Deny' }).click();
  await expect(page.getByRole('heading', { name: 'Access denied' })).toBeVisible();
  await page.getByRole('link', { name: `Back to ${new URL(demo.url).host}` }).click();
  await page.waitForURL(`${demo.url}/`);
  await logIn(page, C.users.gamer);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Mossy Pine');
  await page.waitForLoadState('load');
  expect(problems).toEqual([]);
});

test('while the backend checks the token, the callback shows "Signing you in…" in the site\'s dark scheme', async ({ page }) => {
  const problems = collectConsoleErrors(page);
  await page.emulateMedia({ colorScheme: 'dark' });
  // A slow backend: the POST is held for 2 s on its way.
  let posted = false;
  await page.route(`${demo.url}/auth/itch`, async (route) => {
    posted = true;
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await route.continue();
  });
  await page.goto(`${demo.url}/`);
  await page.locator('.hero').getByRole('button', { name: 'Log in with itch.io' }).click();
  await page.waitForURL(`${demo.emulator!.url}/user/oauth?**`);
  await page.getByLabel('Log in as').selectOption(String(C.users.gamer));
  await page.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByRole('status')).toHaveText('Signing you in…');
  expect(posted).toBe(true);
  await page.screenshot({ timeout: 2_000 });
  // The site's dark colours (demo/app/pending.css, placed before the capture).
  expect(await page.getByRole('status').evaluate((view) => [getComputedStyle(view).color, getComputedStyle(view).backgroundColor])).toEqual(
    ['rgb(236, 234, 247)', 'rgb(22, 25, 55)'],
  );
  await page.waitForURL(`${demo.url}/account.html`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Mossy Pine');
  await page.waitForLoadState('load');
  expect(problems).toEqual([]);
});

test('the console stays clean when the framed game logs in through a popup and saves', async ({ page, context }) => {
  const problems = collectConsoleErrors(page);
  await page.goto(`${demo.url}/#play`);
  const game = await gameReady(page);
  await game.getByRole('button', { name: 'Catch a falling star' }).click();
  await expect(game.locator('[data-stars]')).toHaveText('1');
  const popupOpened = context.waitForEvent('page');
  await game.getByRole('button', { name: 'Log in to save' }).click();
  const popup = await popupOpened;
  // The popup's own console: the consent page, then the callback page with the pending view.
  const popupProblems = collectConsoleErrors(popup);
  await popup.getByLabel('Log in as').selectOption(String(C.users.gamer));
  await popup.getByRole('button', { name: 'Approve' }).click();
  await expect(game.locator('[data-player]')).toHaveText('Mossy Pine', { timeout: 15_000 });
  await game.getByRole('button', { name: 'Save progress' }).click();
  await expect(game.getByRole('status')).toHaveText('Saved: 1 stars.');
  expect([...problems, ...popupProblems]).toEqual([]);
});
