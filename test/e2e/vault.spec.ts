// Owners only, in the demo, in real Chromium through the emulator's consent page: the vault opens
// for players who own Starfall Keep (bought, claimed key, bundle) and tells the others to buy it;
// the framed game offers its vault level to owners only; and with --owners-only the login itself
// refuses a non-owner (403 not_owner, no session), in redirect mode and in the game's popup.
import { expect, test, type Page } from '@playwright/test';
import { DEFAULT_SEED_CREDENTIALS as C } from '../../src/emulator/index.js';
import { startDemo, type RunningDemo } from '../../demo/serve.js';
import { VAULT } from '../../demo/server/vault.js';
import { gameReady } from './support/demo-game.js';

const STORE = 'https://pixelforge.itch.io/starfall-keep';

let demo: RunningDemo;
test.beforeAll(async () => {
  demo = await startDemo({ port: 0, logLevel: 'silent' });
});
test.afterAll(async () => {
  await demo?.close();
});

/** Logs in from the vault page as `userId` (redirect mode) and comes back to it. */
async function logInFromVault(page: Page, site: RunningDemo, userId: number): Promise<void> {
  await page.goto(`${site.url}/vault.html`);
  await expect(page.getByRole('heading', { level: 1, name: 'The vault is for owners of Starfall Keep' })).toBeVisible();
  await page.getByRole('button', { name: 'Log in to open the vault' }).click();
  await page.waitForURL(`${site.emulator!.url}/user/oauth?**`);
  await page.getByLabel('Log in as').selectOption(String(userId));
  await page.getByRole('button', { name: 'Approve' }).click();
}

for (const [how, userId] of [
  ['bought it', C.users.gamer],
  ['claimed a key', C.users.press],
  ['got it in a bundle', C.users.bundleOwner],
] as const) {
  test(`the vault opens for a player who ${how}`, async ({ page }) => {
    await logInFromVault(page, demo, userId);
    await page.waitForURL(`${demo.url}/vault.html`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('The vault');
    await expect(page.getByText(`Bonus level: ${VAULT.level.name}`)).toBeVisible();
    await expect(page.locator('[data-field="soundtrack"] li')).toHaveCount(VAULT.soundtrack.length);
  });
}

test('the vault refuses a player who does not own the game, and sends them to the store page', async ({ page }) => {
  const bodies: string[] = [];
  page.on('response', async (response) => {
    if (response.url().startsWith(demo.url)) bodies.push(await response.text().catch(() => ''));
  });
  await logInFromVault(page, demo, C.users.newcomer);
  await page.waitForURL(`${demo.url}/vault.html`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('You need to own Starfall Keep to open the vault');
  await expect(page.getByText('@fernlight')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Get Starfall Keep on itch.io' })).toHaveAttribute('href', STORE);
  await expect(page.getByText(VAULT.level.name)).toHaveCount(0);
  // The login itself went through (the vault is what is refused), and the backend says why.
  await expect(page.locator('html')).toHaveAttribute('data-signed-in', 'true');
  const vault = await page.request.get(`${demo.url}/api/vault`);
  expect(vault.status()).toBe(403);
  expect(await vault.json()).toEqual({ errors: ['the vault is for owners of the game'], code: 'not_owner', storeUrl: STORE });
  // Nothing of the vault reached this browser, in any page, script or answer.
  expect(bodies.join('\n')).not.toContain(VAULT.level.name);
  // The developer's API key, which the backend used for the check, never did either.
  expect(bodies.join('\n')).not.toContain(C.apiKeys.developer);
});

test("the game's own developer holds no key of it, so the vault stays shut for them too", async ({ page }) => {
  await logInFromVault(page, demo, C.users.developer);
  await page.waitForURL(`${demo.url}/vault.html`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('You need to own Starfall Keep to open the vault');
});

test('signed out, the vault answers 401 and the page offers the login', async ({ page }) => {
  expect((await page.request.get(`${demo.url}/api/vault`)).status()).toBe(401);
  await page.goto(`${demo.url}/vault.html`);
  await expect(page.getByRole('button', { name: 'Log in to open the vault' })).toBeVisible();
});

/** Logs in inside the framed game (popup mode) as `userId`. */
async function logInToGame(page: Page, userId: number): Promise<ReturnType<Page['frameLocator']>> {
  await page.goto(`${demo.url}/#play`);
  // (Once the page has scrolled to the game and the game is ready: a click during the scroll misses it.)
  const game = await gameReady(page);
  const popupOpened = page.context().waitForEvent('page');
  await game.getByRole('button', { name: 'Log in to save' }).click();
  const popup = await popupOpened;
  await popup.getByLabel('Log in as').selectOption(String(userId));
  await popup.getByRole('button', { name: 'Approve' }).click();
  await expect(game.locator('[data-player]')).not.toBeEmpty({ timeout: 15_000 });
  return game;
}

test('the framed game offers its vault level to an owner, and it opens', async ({ page }) => {
  const game = await logInToGame(page, C.users.bundleOwner);
  await expect(game.locator('[data-player]')).toHaveText('Bramble Wren');
  await game.getByRole('button', { name: 'Play the vault level' }).click();
  await expect(game.getByRole('status')).toHaveText(`Vault level unlocked: ${VAULT.level.name}.`);
  await expect(game.getByText('Owners of Starfall Keep play a bonus vault level here.')).toBeHidden();
});

test('the framed game tells a non-owner where to buy it, and its backend refuses a copy of its game token', async ({ page }) => {
  // The game token the backend handed the game, read on its way to the frame.
  const sessions: string[] = [];
  await page.context().route(`${demo.url}/auth/itch`, async (route) => {
    const response = await route.fetch();
    const body = (await response.json().catch(() => ({}))) as { gameToken?: string };
    if (body.gameToken !== undefined) sessions.push(body.gameToken);
    await route.fulfill({ response });
  });
  const game = await logInToGame(page, C.users.newcomer);
  await expect(game.locator('[data-player]')).toHaveText('Fern Light');
  await expect(game.getByRole('button', { name: 'Play the vault level' })).toBeHidden();
  await expect(game.getByText('Owners of Starfall Keep play a bonus vault level here.')).toBeVisible();
  await expect(game.getByRole('link', { name: 'Get the game on itch.io' })).toHaveAttribute('href', STORE);
  expect(sessions).toHaveLength(1);
  // Read on its way, the token is a copy without the game's key (DPoP): the backend refuses it
  // before it looks at ownership, as Bearer and as DPoP without a proof.
  for (const authorization of [`Bearer ${sessions[0]}`, `DPoP ${sessions[0]}`]) {
    const level = await page.request.get(`${demo.url}/api/game/vault`, { headers: { Authorization: authorization } });
    expect(level.status(), authorization.split(' ')[0]).toBe(401);
    expect(level.headers()['www-authenticate']).toMatch(/^DPoP error=/);
  }
});

test.describe('with --owners-only (the login itself requires owning the game)', () => {
  let ownersOnly: RunningDemo;
  test.beforeAll(async () => {
    ownersOnly = await startDemo({ port: 0, logLevel: 'silent', ownersOnly: true });
  });
  test.afterAll(async () => {
    await ownersOnly?.close();
  });

  test('a non-owner is refused at login: 403 not_owner, no session, and the callback page says the login failed', async ({
    page,
    context,
  }) => {
    // The backend's answer to the capture, read on its way (the page navigates right after it).
    const answers: { status: number; body: string }[] = [];
    await page.route(`${ownersOnly.url}/auth/itch`, async (route) => {
      const response = await route.fetch();
      answers.push({ status: response.status(), body: await response.text() });
      await route.fulfill({ response });
    });
    await logInFromVault(page, ownersOnly, C.users.newcomer);
    await page.waitForURL(`${ownersOnly.url}/callback.html`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('The login did not go through');
    await expect(page.locator('itch-oauth-callback').getByRole('alert')).toBeVisible();
    expect(answers.map(({ status, body }) => [status, JSON.parse(body)])).toEqual([
      [403, { errors: ['this login requires owning game 2001 on itch.io'], code: 'not_owner' }],
    ]);
    expect(await context.cookies(ownersOnly.url)).toEqual([]);
    expect((await page.request.get(`${ownersOnly.url}/api/session`)).status()).toBe(204);
  });

  test('the callback page says "You need to own" and links the store page', async ({ page }) => {
    await logInFromVault(page, ownersOnly, C.users.newcomer);
    await page.waitForURL(`${ownersOnly.url}/callback.html`);
    const callback = page.locator('itch-oauth-callback');
    await expect(callback).toContainText('You need to own this game on itch.io to continue.');
    await expect(callback.getByRole('link', { name: 'Get it on itch.io' })).toHaveAttribute('href', STORE);
  });

  test("the framed game's popup login of a non-owner fails with not_owner, and the game says where to get it", async ({
    page,
    context,
  }) => {
    await page.goto(`${ownersOnly.url}/#play`);
    // (Once the page has scrolled to the game and the game is ready: a click during the scroll misses it.)
    const game = await gameReady(page);
    const popupOpened = context.waitForEvent('page');
    await game.getByRole('button', { name: 'Log in to save' }).click();
    const popup = await popupOpened;
    await popup.getByLabel('Log in as').selectOption(String(C.users.newcomer));
    await popup.getByRole('button', { name: 'Approve' }).click();
    await expect(game.getByRole('status')).toHaveText('You need to own Starfall Keep to log in here.', { timeout: 15_000 });
    await expect(game.getByRole('link', { name: 'Get the game on itch.io' })).toHaveAttribute('href', STORE);
    await expect(game.getByRole('button', { name: 'Log in to save' })).toBeVisible();
    await expect(game.locator('[data-player]')).toBeEmpty();
  });

  test("the framed game's popup login of an owner goes through", async ({ page, context }) => {
    await page.goto(`${ownersOnly.url}/#play`);
    // (Once the page has scrolled to the game and the game is ready: a click during the scroll misses it.)
    const game = await gameReady(page);
    const popupOpened = context.waitForEvent('page');
    await game.getByRole('button', { name: 'Log in to save' }).click();
    const popup = await popupOpened;
    await popup.getByLabel('Log in as').selectOption(String(C.users.press));
    await popup.getByRole('button', { name: 'Approve' }).click();
    await expect(game.locator('[data-player]')).toHaveText('Inkwell Review', { timeout: 15_000 });
    await expect(game.getByRole('button', { name: 'Play the vault level' })).toBeVisible();
  });

  test('an owner logs in and goes back to the vault', async ({ page }) => {
    await logInFromVault(page, ownersOnly, C.users.gamer);
    await page.waitForURL(`${ownersOnly.url}/vault.html`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('The vault');
  });
});
