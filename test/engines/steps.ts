// Steps the engine scenarios (and bench/popup-timing.ts) share, in any engine's Session: a login
// button drawn, the framed game opened, a test user approved on the emulator's consent page.
import type { PopupWorld } from '../e2e/support/popup-world.js';
import { waitFor, waitForUrl, type Session } from './driver.js';

/** Waits until the login button's shadow button has rendered (the element is defined and drawn). */
export function buttonReady(session: Session, selector: string): Promise<true> {
  return waitFor(`${selector} to render`, () =>
    session.evaluate((s: string) => document.querySelector(s)?.shadowRoot?.querySelector('button') != null, selector),
  );
}

/** The framed game on the top-level page of another site, its login button rendered; the main window's handle. */
export async function openFramedGame(session: Session, world: PopupWorld): Promise<string> {
  await session.goto(`${world.top}/top.html`);
  const [main] = await session.windows();
  await session.enterFrame('iframe[title="game"]');
  await buttonReady(session, 'itch-login-button');
  return main!;
}

/** Approves the login as `userId` on the emulator's consent page, once it is there. */
export async function approveOnConsentPage(session: Session, emulatorUrl: string, userId: number): Promise<void> {
  await waitForUrl(session, "the emulator's consent page", (url) => url.origin === emulatorUrl && url.pathname === '/user/oauth');
  await session.select('#user', String(userId));
  await session.click('button[value="approve"]');
}

/**
 * A page that calls `window.open` while it loads, with no click, and says in its title whether the
 * browser `allowed` or `blocked` it: the popup blocker's control. (Not a script of the driver's:
 * puppeteer runs those with a user activation.)
 */
export const POPUP_BLOCKER_PROBE = `data:text/html,${encodeURIComponent(
  "<title>opening</title><script>var w = window.open('about:blank'); document.title = w ? 'allowed' : 'blocked'; if (w) w.close();</script>",
)}`;
