// How a popup login ends for the player, in real Chromium: closed early, late or after Deny, the
// game hears `popup_closed` within seconds; severed from its opener (the emulator's COOP), the
// popup shows what happened in plain words and a Close button, and no control that leads to the
// backend's site. The tests audit these pages with axe and take their screenshots, light and dark
// (docs/screenshots/).
import { mkdirSync } from 'node:fs';
import { expect, test, type BrowserContext, type FrameLocator, type Locator, type Page } from '@playwright/test';
import { DEFAULT_SEED_CREDENTIALS as C } from '../../src/emulator/index.js';
import { audit } from './support/axe.js';
import { clickToClose } from './support/close-button.js';
import type { PopupWorld, PopupWorldOptions } from './support/popup-world.js';
import { approve, openGame, usePopupWorld } from './support/popup-game.js';

const SCREENSHOTS = new URL('../../docs/screenshots/', import.meta.url);
const STORE = 'https://pixelforge.itch.io/starfall-keep';

let world: PopupWorld;
const start = usePopupWorld((running) => (world = running));

async function clickForPopup(context: BrowserContext, game: FrameLocator): Promise<{ popup: Page; clickedAt: number }> {
  const opened = context.waitForEvent('page');
  const clickedAt = Date.now();
  await game.getByRole('button', { name: 'Log in with itch.io' }).click();
  return { popup: await opened, clickedAt };
}

/** A popup severed from its game (COOP) in a world started with `options`, approved as the gamer: the popup and its callback element. */
async function severedApproval(
  page: Page,
  context: BrowserContext,
  options: PopupWorldOptions,
): Promise<{ popup: Page; callback: Locator }> {
  await start(options);
  const game = await openGame(page, world);
  const { popup } = await clickForPopup(context, game);
  await approve(popup, C.users.gamer);
  return { popup, callback: popup.locator('itch-oauth-callback') };
}

/** The game's login events. */
function gameEvents(page: Page): Promise<{ type: string; detail: { code?: string } }[]> {
  return page
    .frames()
    .find((frame) => frame.url().startsWith(world.game))!
    .evaluate(() => (window as unknown as { events: { type: string; detail: { code?: string } }[] }).events);
}

/** Closes the popup and measures how long the game takes to report `popup_closed`. */
async function closeAndTime(popup: Page, game: FrameLocator): Promise<number> {
  const closedAt = Date.now();
  await popup.close();
  await expect(game.locator('#result')).toContainText('popup_closed', { timeout: 15_000 });
  return Date.now() - closedAt;
}

/** Every link, form and script-free control in the popup leads nowhere on the backend's site. */
async function expectNothingLeadsToTheBackend(popup: Page): Promise<void> {
  const targets = await popup.evaluate(() => {
    const all: string[] = [];
    const walk = (root: Document | ShadowRoot) => {
      for (const element of root.querySelectorAll('*')) {
        if (element instanceof HTMLAnchorElement) all.push(element.href);
        if (element instanceof HTMLFormElement) all.push(element.action);
        if (element.shadowRoot) walk(element.shadowRoot);
      }
    };
    walk(document);
    return all;
  });
  for (const target of targets) expect(new URL(target).origin, `${target} leads back to the backend`).not.toBe(world.app);
}

/**
 * The popup's page in light and in dark (its page declares both): axe finds nothing, and the
 * screenshots go to docs/screenshots/<name>.png and <name>-dark.png.
 */
async function screenshot(popup: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await popup.setViewportSize({ width: 480, height: 360 });
  for (const scheme of ['light', 'dark'] as const) {
    await popup.emulateMedia({ colorScheme: scheme });
    await audit(popup, `${name} (${scheme})`);
    await popup.screenshot({ path: new URL(`${name}${scheme === 'dark' ? '-dark' : ''}.png`, SCREENSHOTS).pathname });
  }
  await popup.emulateMedia({ colorScheme: 'light' });
}

test.describe('a closed popup is reported within seconds', () => {
  test('closed 0.5 s after it opened', async ({ page, context }) => {
    await start();
    const game = await openGame(page, world);
    const { popup, clickedAt } = await clickForPopup(context, game);
    await page.waitForTimeout(Math.max(0, 500 - (Date.now() - clickedAt)));
    const took = await closeAndTime(popup, game);
    console.log(`close at 0.5 s: popup_closed after ${took} ms`);
    expect(took).toBeLessThan(4000);
  });

  test('closed 4 s after it opened, on the authorization page', async ({ page, context }) => {
    await start();
    const game = await openGame(page, world);
    const { popup, clickedAt } = await clickForPopup(context, game);
    await expect(popup.getByRole('heading', { level: 1 })).toHaveText(/^Authorize /);
    await page.waitForTimeout(Math.max(0, 4000 - (Date.now() - clickedAt)));
    const took = await closeAndTime(popup, game);
    console.log(`close at 4 s: popup_closed after ${took} ms`);
    expect(took).toBeLessThan(4000);
  });

  test('closed a second after Deny: the Deny page says the window can be closed and leads nowhere else', async ({ page, context }) => {
    await start();
    const game = await openGame(page, world);
    const { popup } = await clickForPopup(context, game);
    await expect(popup.getByRole('heading', { level: 1 })).toHaveText(/^Authorize /);
    await popup.getByRole('button', { name: 'Deny' }).click();
    await expect(popup.getByRole('heading', { level: 1 })).toHaveText('Access denied');
    await expect(popup.getByText('You can close this window')).toBeVisible();
    await expect(popup.getByRole('link', { name: /^Back to/ })).toHaveCount(0);
    await expectNothingLeadsToTheBackend(popup);
    await screenshot(popup, 'popup-denied');
    await page.waitForTimeout(1000);
    const took = await closeAndTime(popup, game);
    console.log(`close 1 s after Deny: popup_closed after ${took} ms`);
    expect(took).toBeLessThan(4000);
  });
});

test.describe('a popup severed from its game (COOP) ends on a page that says what happened, with Close', () => {
  test('not an owner: which game, where to get it, how to switch accounts; Close closes it', async ({ page, context }) => {
    await start({
      coop: true,
      callbackAttributes: `store-url="${STORE}"`,
      handler: { ownership: { gameIds: [2001], apiKey: C.apiKeys.developer, require: true } },
    });
    const game = await openGame(page, world);
    const { popup } = await clickForPopup(context, game);
    await approve(popup, C.users.newcomer);
    await expect(game.locator('#result')).toContainText('not_owner', { timeout: 15_000 });
    const callback = popup.locator('itch-oauth-callback');
    await expect(callback.getByRole('alert')).toContainText('You need to own this game on itch.io to continue.');
    await expect(callback.getByRole('alert')).toContainText('log out there to use the account that owns it');
    await expect(callback.getByRole('link', { name: 'Get it on itch.io' })).toHaveAttribute('href', STORE);
    await expect(callback.getByRole('button', { name: 'Try again' })).toHaveCount(0);
    await expectNothingLeadsToTheBackend(popup);
    await screenshot(popup, 'popup-not-owner');
    expect((await gameEvents(page)).filter((event) => event.type === 'itch-login-error').map((event) => event.detail.code)).toEqual([
      'not_owner',
    ]);
    expect(world.refusals.filter((refusal) => refusal.includes('not_owner'))).toHaveLength(1);
    await clickToClose(popup, callback.getByRole('button', { name: 'Close' }));
  });

  test('refused by the site (here a missing scope): how to use another account', async ({ page, context }) => {
    const { popup, callback } = await severedApproval(page, context, {
      coop: true,
      handler: { requiredScopes: 'profile:me game:view:ownership' },
    });
    await expect(callback.getByRole('alert')).toContainText('To use another itch.io account, log out on itch.io', { timeout: 15_000 });
    await expect(callback.getByRole('button', { name: 'Close' })).toBeVisible();
    await expectNothingLeadsToTheBackend(popup);
    await screenshot(popup, 'popup-refused');
  });

  test('reloaded after its ending: no login in progress, with Close and still nothing that leads to the backend', async ({
    page,
    context,
  }) => {
    const { popup, callback } = await severedApproval(page, context, {
      coop: true,
      handler: { requiredScopes: 'profile:me game:view:ownership' },
    });
    await expect(callback.getByRole('button', { name: 'Close' })).toBeFocused({ timeout: 15_000 });
    await popup.reload();
    await expect(callback.getByRole('status')).toHaveText('No itch.io login in progress.Close');
    await expect(callback.getByRole('link')).toHaveCount(0);
    await expectNothingLeadsToTheBackend(popup);
    await screenshot(popup, 'popup-no-login');
    await clickToClose(popup, callback.getByRole('button', { name: 'Close' }));
  });

  test("the site's server down: try again later", async ({ page, context }) => {
    // itch.io's API cannot be reached from the backend: every deposit answers 502.
    const { popup, callback } = await severedApproval(page, context, { coop: true, handler: { apiBaseUrl: 'http://127.0.0.1:9/api/1' } });
    await expect(callback.getByRole('alert')).toContainText('Try again in a minute.', { timeout: 20_000 });
    await expect(callback.getByRole('button', { name: 'Close' })).toBeVisible();
    await expectNothingLeadsToTheBackend(popup);
    await screenshot(popup, 'popup-server-down');
  });

  test('while the severed popup is waited for, the button offers Cancel, which ends the login with aborted', async ({ page, context }) => {
    await start({ coop: true });
    const game = await openGame(page, world);
    const { popup } = await clickForPopup(context, game);
    await expect(popup.getByRole('heading', { level: 1 })).toHaveText(/^Authorize /);
    const cancel = game.locator('itch-login-button').getByRole('button', { name: 'Cancel' });
    await expect(cancel).toBeVisible({ timeout: 5000 });
    await cancel.click();
    await expect(game.locator('#result')).toContainText('aborted');
    await expect(cancel).toHaveCount(0);
  });
});
