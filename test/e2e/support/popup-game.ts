// What every popup spec does with the popup world: start one per test and close it after, open
// the top-level page that frames the game, and approve on itch.io's consent page.
import { expect, test, type FrameLocator, type Page } from '@playwright/test';
import { DEFAULT_SEED_CREDENTIALS as C } from '../../../src/emulator/index.js';
import { startPopupWorld, type PopupWorld, type PopupWorldOptions } from './popup-world.js';

/**
 * Registers an afterEach that closes the world a test started; the returned `start` starts one
 * (with `defaults` under the test's own options) and hands it to `onStart` before returning it.
 */
export function usePopupWorld(
  onStart: (world: PopupWorld) => void,
  defaults: PopupWorldOptions = {},
): (options?: PopupWorldOptions) => Promise<PopupWorld> {
  let running: PopupWorld | undefined;
  test.afterEach(async () => {
    await running?.close();
    running = undefined;
  });
  return async (options = {}) => {
    running = await startPopupWorld({ ...defaults, ...options });
    onStart(running);
    return running;
  };
}

/** The top-level page (with `query`), once the framed game's login button is enabled; the game frame. */
export async function openGame(page: Page, world: PopupWorld, query = ''): Promise<FrameLocator> {
  await page.goto(`${world.top}/top.html${query}`);
  const game = page.frameLocator('iframe[title="game"]');
  await expect(game.getByRole('button', { name: 'Log in with itch.io' })).toBeEnabled();
  return game;
}

/** Approves on the emulator's consent page as `userId`. */
export async function approve(popup: Page, userId: number = C.users.gamer): Promise<void> {
  await expect(popup.getByRole('heading', { level: 1 })).toHaveText(/^Authorize /);
  await popup.getByLabel('Log in as').selectOption(String(userId));
  await popup.getByRole('button', { name: 'Approve' }).click();
}
