// The dead ends of a popup login, in real Chromium, as a player meets them: the site's server
// down, its popup-login store down, itch.io down while the token is checked, and a browser that
// blocks cookies. Each time the game hears what happened (service_unavailable, cookies_blocked,
// never popup_closed or a refusal), the player never stays on the browser's error page, and the
// words the game can show come from playerMessage().
import { expect, test, type BrowserContext, type FrameLocator, type Page } from '@playwright/test';
import { DEFAULT_SEED_CREDENTIALS as C } from '../../src/emulator/index.js';
import { brokenStore } from './support/broken-store.js';
import { clickToClose } from './support/close-button.js';
import { launchCookieBlockingChromium } from './support/cookies-blocked.js';
import type { PopupWorld } from './support/popup-world.js';
import { openGame, usePopupWorld } from './support/popup-game.js';

let world: PopupWorld;
const start = usePopupWorld((running) => (world = running));

/** Clicks the game's button; the popup, and every address it was at. */
async function clickForPopup(context: BrowserContext, game: FrameLocator): Promise<{ popup: Page; visited: string[] }> {
  const opened = context.waitForEvent('page');
  await game.getByRole('button', { name: 'Log in with itch.io' }).click();
  const popup = await opened;
  const visited = [popup.url()];
  popup.on('framenavigated', (frame) => {
    if (frame === popup.mainFrame()) visited.push(frame.url());
  });
  return { popup, visited };
}

test('the store down: the opener learns it at its first collection and closes the popup before itch.io', async ({ page, context }) => {
  await start({ handler: { store: brokenStore() } });
  const game = await openGame(page, world);
  const { popup, visited } = await clickForPopup(context, game);
  await expect(game.locator('#result')).toContainText('itch-login-error {"code":"service_unavailable"', { timeout: 10_000 });
  await expect.poll(() => popup.isClosed()).toBe(true);
  expect(
    visited.filter((url) => url.startsWith(world.emulator.url)),
    'the popup never reached itch.io',
  ).toEqual([]);
  expect(world.refusals.some((refusal) => refusal.startsWith('503 service_unavailable'))).toBe(true);
});

test('the store down and the opener slow to ask: the start page itself stops before itch.io and says so', async ({ page, context }) => {
  await start({ handler: { store: brokenStore() } });
  const game = await openGame(page, world);
  // The game's collections held back: the start page's bind, which reads the store, is first.
  await page.route(
    (url) => url.href.startsWith(`${world.app}/`),
    async (route) => {
      if (route.request().method() === 'POST') await new Promise((resolve) => setTimeout(resolve, 4000));
      await route.continue().catch(() => undefined);
    },
  );
  const { popup, visited } = await clickForPopup(context, game);
  const { pages } = await import('../../src/i18n/pages/en.js');
  await expect(popup.getByText(pages.unavailable)).toBeVisible();
  await expect(popup.getByRole('button', { name: pages.close })).toBeVisible();
  expect(
    visited.filter((url) => url.startsWith(world.emulator.url)),
    'the popup never reached itch.io',
  ).toEqual([]);
  await expect(game.locator('#result')).toContainText('itch-login-error {"code":"service_unavailable"', { timeout: 15_000 });
});

test("the site's server down: the popup on the browser's error page is closed and the game gets service_unavailable", async ({
  page,
  context,
}) => {
  await start();
  world.backendDown = true;
  const game = await openGame(page, world);
  const startedAt = Date.now();
  const { popup } = await clickForPopup(context, game);
  await expect(game.locator('#result')).toContainText('itch-login-error {"code":"service_unavailable"', { timeout: 15_000 });
  await expect.poll(() => popup.isClosed()).toBe(true);
  // Five collections about a second apart, not the login's ten minutes.
  expect(Date.now() - startedAt).toBeLessThan(12_000);
});

test('itch.io down while the token is checked: the popup says to try again in a minute, Close ends it, and the game gets service_unavailable', async ({
  page,
  context,
}) => {
  const itchDown: typeof fetch = async (input, init) => {
    if (String(input instanceof Request ? input.url : input).startsWith(world.emulator.apiUrl)) throw new TypeError('fetch failed');
    return fetch(input, init);
  };
  await start({ handler: { fetch: itchDown } });
  const game = await openGame(page, world);
  const { popup } = await clickForPopup(context, game);
  await expect(popup.getByRole('heading', { level: 1 })).toHaveText(/^Authorize /);
  await popup.getByLabel('Log in as').selectOption(String(C.users.gamer));
  await popup.getByRole('button', { name: 'Approve' }).click();
  const alert = popup.getByRole('alert');
  await expect(alert).toContainText("This site's server or itch.io is not answering right now. Try again in a minute.", {
    timeout: 15_000,
  });
  await expect(alert).not.toContainText('refused');
  await clickToClose(popup, popup.getByRole('button', { name: 'Close' }));
  await expect(game.locator('#result')).toContainText('itch-login-error {"code":"service_unavailable"', { timeout: 10_000 });
});

test('playerMessage gives the sentence in the page language, or the one asked for', async ({ page }) => {
  await start();
  const game = await openGame(page, world);
  const frame = page.frames().find((candidate) => candidate.url().startsWith(world.game))!;
  expect(await frame.evaluate(() => (window as any).ItchOAuth.playerMessage('service_unavailable'))).toBe(
    "This site's server or itch.io is not answering right now. Try again in a minute.",
  );
  expect(await frame.evaluate(() => (window as any).ItchOAuth.playerMessage('cookies_blocked', 'de'))).toContain(
    'Erlaube Cookies für diese Website in den Datenschutzeinstellungen',
  );
  await frame.evaluate(() => document.documentElement.setAttribute('lang', 'fr'));
  expect(await frame.evaluate(() => (window as any).ItchOAuth.playerMessage('popup_closed'))).toBe(
    'La fenêtre itch.io a été fermée avant la fin de la connexion.',
  );
  await expect(frame.evaluate(() => (window as any).ItchOAuth.playerMessage('nope'))).rejects.toThrow(/not an error code/);
  void game;
});

test.describe('a browser that blocks cookies', () => {
  let blocked: BrowserContext;
  let closeBlocked: () => Promise<void>;
  test.beforeEach(async () => {
    ({ context: blocked, close: closeBlocked } = await launchCookieBlockingChromium());
  });
  test.afterEach(async () => {
    await closeBlocked();
  });

  test('a popup login: the start page finds cookies off, the opener closes it, and the game gets cookies_blocked', async () => {
    await start();
    const page = await blocked.newPage();
    const game = await openGame(page, world);
    const { popup, visited } = await clickForPopup(blocked, game);
    await expect(game.locator('#result')).toContainText('itch-login-error {"code":"cookies_blocked"', { timeout: 10_000 });
    await expect.poll(() => popup.isClosed()).toBe(true);
    expect(
      visited.filter((url) => url.startsWith(world.emulator.url)),
      'the popup never reached itch.io',
    ).toEqual([]);
  });

  test('the callback page names the setting instead of "No itch.io login in progress"', async () => {
    await start();
    const page = await blocked.newPage();
    await page.goto(`${world.app}/callback.html#access_token=T&state=S`);
    const alert = page.getByRole('alert');
    await expect(alert).toContainText('Your browser is blocking the cookies this login needs.');
    await expect(alert).toContainText("Allow cookies for this site in your browser's privacy settings");
    // This tab cannot know where the login started (its storage is refused): the site's root.
    await expect(alert.getByRole('link', { name: 'Back to the site' })).toHaveAttribute('href', '/');
  });

  test('a redirect login reports cookies_blocked on the button, and stays on the page', async () => {
    await start();
    const page = await blocked.newPage();
    await page.goto(`${world.app}/spa.html`);
    await page.evaluate(() => document.querySelector('itch-login-button')!.setAttribute('mode', 'redirect'));
    await page.getByRole('button', { name: 'Log in with itch.io' }).click();
    await expect(page.locator('#result')).toContainText('itch-login-error {"code":"cookies_blocked"');
    expect(page.url()).toBe(`${world.app}/spa.html`);
  });
});
