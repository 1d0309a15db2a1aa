// The demo's framed browser game, ready for a player's clicks.
import { expect, type FrameLocator, type Page } from '@playwright/test';

/**
 * Waits until a click into the game lands where it aims: the page has finished scrolling to
 * `#play` (smoothly, where motion is not reduced: a click during the scroll hits the spot the game
 * has just left, as the frame's own content never moves for the stability check), and the game has
 * attached its listeners and rendered its login button (`data-ready`).
 */
export async function gameReady(page: Page): Promise<FrameLocator> {
  await page.waitForFunction(() => {
    const top = document.getElementById('play')!.getBoundingClientRect().top;
    return Math.abs(top) < 1 || Math.ceil(scrollY + innerHeight) >= document.documentElement.scrollHeight;
  });
  const game = page.frameLocator('iframe.game-frame');
  await expect(game.locator('.game')).toHaveAttribute('data-ready', 'true');
  return game;
}
