// A popup login is released only to the browser that started it: the attacks on its binding in real
// Chromium, on the loopback sites of the popup world (the app on localhost, a game framed from
// 127.0.0.2 on a page of 127.0.0.1, an unlisted site on 127.0.0.3, the emulator as itch.io).
// The attacker picks a state from a verifier it keeps and tries to collect the victim's login
// with it; every collection must come back empty and onLogin must never run.
import { randomBytes } from 'node:crypto';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { popupStateOf } from '../../src/core/state.js';
import { DEFAULT_SEED_CREDENTIALS as C } from '../../src/emulator/index.js';
import type { PopupWorld } from './support/popup-world.js';
import { approve, openGame, usePopupWorld } from './support/popup-game.js';
import { callback } from '../../src/i18n/locales/en.js';

/** What <itch-oauth-callback> says for state_mismatch (src/elements/itch-oauth-callback.ts). */
// A refused popup state says what such a link does (it works once, where the login started), as
// redirect mode does, and never that the player is logged in.
const STATE_MISMATCH_WORDS = callback.state_used;

let world: PopupWorld;
const start = usePopupWorld((running) => (world = running));

/** The attacker's pair: a verifier it keeps, and the state made from it. */
async function attackerPair(): Promise<{ verifier: string; state: string }> {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, state: await popupStateOf(verifier) };
}

/** The query of the real app's authorization request, with a given state. */
function appQuery(state: string): string {
  return new URLSearchParams({
    client_id: C.clients.demo.clientId,
    redirect_uri: `${world.app}/callback.html`,
    scope: 'profile:me',
    state,
  }).toString();
}

/**
 * The attacker tries to collect with its verifier, as curl would, with every Origin it might
 * claim: none of the answers may be a login.
 */
async function expectAttackerCollectsNothing(verifier: string): Promise<void> {
  for (const origin of [undefined, world.app, world.game, world.evil]) {
    const answer = await fetch(`${world.app}/auth/itch`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(origin === undefined ? {} : { Origin: origin }) },
      body: JSON.stringify({ popup_verifier: verifier }),
    });
    const body = (await answer.json()) as { user?: unknown; pending?: boolean };
    expect(answer.status, `collecting with Origin ${origin}`).not.toBe(200);
    expect(body.user, `collecting with Origin ${origin}`).toBeUndefined();
    expect(answer.headers.get('set-cookie')).toBeNull();
  }
  expect(world.logins, 'onLogin never ran').toHaveLength(0);
}

/** The unlisted site's page at `path`, once ready: its Claim button opens a popup, returned. */
async function claimOnEvilPage(page: Page, context: BrowserContext, path: string): Promise<Page> {
  await page.goto(`${world.evil}${path}`);
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'yes');
  const opened = context.waitForEvent('page');
  await page.getByRole('button', { name: 'Claim' }).click();
  return opened;
}

test('a link to itch.io with an attacker-picked state: the victim approves, the callback refuses, the attacker collects nothing', async ({
  page,
}) => {
  await start();
  const { verifier, state } = await attackerPair();
  await page.goto(`${world.emulator.url}/user/oauth?${appQuery(state).replace('scope=', 'response_type=token&scope=')}`);
  await approve(page);
  await page.waitForURL(`${world.app}/callback.html`);
  await expect(page.locator('itch-oauth-callback')).toContainText(STATE_MISMATCH_WORDS);
  expect(world.deposits, 'the deposit was refused').toEqual([403]);
  expect(world.refusals.join('\n')).toContain('403 state_mismatch this popup login was not started in this browser');
  await expectAttackerCollectsNothing(verifier);
});

test("a link to the app's own start page with an attacker-picked state stops there: no opener, no itch.io", async ({ page }) => {
  await start();
  const { verifier, state } = await attackerPair();
  await page.goto(`${world.app}/auth/itch?${appQuery(state)}`);
  await expect(page.getByRole('status')).toContainText('could not be tied to the game that opened it');
  expect(page.url().startsWith(world.app), 'never went on to itch.io').toBe(true);
  await expectAttackerCollectsNothing(verifier);
});

test("a page on an unlisted site that opens the app's start page and answers its check itself gets no login", async ({ page, context }) => {
  await start();
  const { verifier } = await attackerPair();
  const popup = await claimOnEvilPage(page, context, `/open.html?verifier=${verifier}`);
  await expect(popup.getByRole('status')).toContainText('is not allowed to log in to this site');
  expect(popup.url().startsWith(world.app), 'never went on to itch.io').toBe(true);
  expect(world.refusals.join('\n')).toContain(`(${JSON.stringify(world.evil)}) is not on this origin nor in allowedOrigins`);
  await expectAttackerCollectsNothing(verifier);
});

test("a page on an unlisted site that opens itch.io's page with its own state gets no login", async ({ page, context }) => {
  await start();
  const { verifier } = await attackerPair();
  const popup = await claimOnEvilPage(page, context, `/link.html?verifier=${verifier}`);
  await approve(popup);
  await popup.waitForURL(`${world.app}/callback.html`);
  await expect(popup.locator('itch-oauth-callback')).toContainText(STATE_MISMATCH_WORDS);
  expect(world.deposits).toEqual([403]);
  await expectAttackerCollectsNothing(verifier);
});

test("the package's own login() on an unlisted site, pointed at the app's backend, gets no login", async ({ page, context }) => {
  await start();
  const popup = await claimOnEvilPage(page, context, `/login.html`);
  await expect(page.locator('#result')).toHaveText(/^error /, { timeout: 10_000 });
  expect(popup.isClosed() || popup.url().startsWith(world.app), 'the popup never went on to itch.io').toBe(true);
  expect(world.deposits).toEqual([]);
  expect(world.logins).toHaveLength(0);
});

test('a game under a cross-origin-isolated page (opener severed from the start) fails with popup_unverified, not popup_blocked, by default', async ({
  page,
  context,
}) => {
  await start({ isolated: true });
  const game = await openGame(page, world);
  const opened = context.waitForEvent('page');
  await game.getByRole('button', { name: 'Log in with itch.io' }).click();
  const popup = await opened;
  await expect(popup.getByRole('status')).toContainText('could not be tied to the game that opened it');
  await expect(game.locator('#result')).toContainText('popup_unverified', { timeout: 10_000 });
  expect(popup.url().startsWith(world.app), 'never went on to itch.io').toBe(true);
  expect(world.logins).toHaveLength(0);
});

test('a game under a cross-origin-isolated page logs in when the site asks the person to confirm the code the game shows', async ({
  page,
  context,
}) => {
  await start({ isolated: true, handler: { popup: { severedOpener: 'confirm' } } });
  const game = await openGame(page, world);
  const opened = context.waitForEvent('page');
  await game.getByRole('button', { name: 'Log in with itch.io' }).click();
  const popup = await opened;
  const popupCode = (await popup.locator('.code').textContent())!;
  expect(popupCode).toMatch(/^\d{3} \d{3}$/);
  await expect(game.getByText(`shows the code ${popupCode}`)).toBeVisible({ timeout: 10_000 });
  await popup.getByRole('button', { name: `The game shows ${popupCode}` }).click();
  await approve(popup);
  await expect(game.locator('#result')).toContainText('itch-login-success', { timeout: 15_000 });
  expect(world.logins.map((login) => login.user.id)).toEqual([C.users.gamer]);
  await expect(game.getByText(`shows the code ${popupCode}`)).toHaveCount(0);
});

test('a person who says the game does not show the code ends the login with popup_unverified', async ({ page, context }) => {
  await start({ isolated: true, handler: { popup: { severedOpener: 'confirm' } } });
  const game = await openGame(page, world);
  const opened = context.waitForEvent('page');
  await game.getByRole('button', { name: 'Log in with itch.io' }).click();
  const popup = await opened;
  await popup.getByRole('button', { name: 'It does not' }).click();
  await expect(game.locator('#result')).toContainText('popup_unverified', { timeout: 10_000 });
  expect(world.logins).toHaveLength(0);
});
