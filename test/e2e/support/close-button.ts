import type { Locator, Page } from '@playwright/test';

/**
 * Clicks a button whose click closes its own window (the popup's Close, which calls
 * `window.close()`), and waits until the window is closed. The page may go while Playwright still
 * finishes the click (its mouse-up answered by a closed target): that error means the click did
 * what it should, and only that one is let through (the wait for the close still decides).
 */
export async function clickToClose(page: Page, button: Locator): Promise<void> {
  const closed = page.waitForEvent('close');
  try {
    await button.click();
  } catch (error) {
    if (!/has been closed/.test(String(error))) throw error;
  }
  await closed;
}
