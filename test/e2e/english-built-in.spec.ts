// English is built into both script-tag files that a game or a site loads (the full one and the
// button's): `locales/` beside them is for the other languages only. With only the script file
// served (its locales/ answering 404), and again with the site's server gone after the page
// loaded, every word the package shows and every playerMessage() is an English sentence, never a
// code, and no English is ever asked of the network. Then the popup's callback address opened
// again in a new tab says the link works once, with Close; and a redirect login in a browser that
// blocks cookies says so in the player's words, with nothing in the console. In real Chromium.
import { expect, test, type BrowserContext, type Frame, type FrameLocator, type Page } from '@playwright/test';
import { ERROR_CODES } from '../../src/core/errors.js';
import { DEFAULT_SEED_CREDENTIALS as C } from '../../src/emulator/index.js';
import { button as buttonWords, callback as callbackWords, problems } from '../../src/i18n/locales/en.js';
import { launchCookieBlockingChromium } from './support/cookies-blocked.js';
import { startPopupWorld, type PopupWorld, type PopupWorldOptions } from './support/popup-world.js';

let world: PopupWorld;
async function start(options: PopupWorldOptions = {}): Promise<PopupWorld> {
  world = await startPopupWorld(options);
  return world;
}
test.afterEach(async ({ page }, testInfo) => {
  if (testInfo.status !== testInfo.expectedStatus) {
    // What the game heard, and what the backend saw: printed with the failure.
    const frame = page.frames().find((candidate) => world && candidate.url().startsWith(world.game));
    const events = await frame?.evaluate(() => (window as unknown as { events: unknown[] }).events).catch(String);
    console.log(
      `[english-built-in] game events ${JSON.stringify(events)}; collections at ${JSON.stringify(world?.collections)}, held ${world?.holding}`,
    );
  }
  await world?.close();
});

/**
 * One step of a test, timed: a step that takes more than 2 s says so on the console (shown with a
 * failure), with what the backend saw by then, so that a run that times out tells where it waited.
 */
async function step<T>(name: string, run: () => Promise<T>): Promise<T> {
  const started = Date.now();
  try {
    return await run();
  } finally {
    const took = Date.now() - started;
    if (took > 2000)
      console.log(
        `[english-built-in] ${name}: ${took} ms (collections ${world?.collections.length ?? 0}, held ${world?.holding ?? 0}, deposits ${JSON.stringify(world?.deposits ?? [])}, refusals ${JSON.stringify(world?.refusals ?? [])})`,
      );
  }
}

/** Every request the context makes for a locale file, and `locales/` answering 404. */
async function withoutLocales(context: BrowserContext): Promise<string[]> {
  const asked: string[] = [];
  await context.route('**/dist/locales/**', (route) => {
    asked.push(new URL(route.request().url()).pathname);
    return route.fulfill({ status: 404, contentType: 'text/plain', body: 'not found' });
  });
  return asked;
}

async function openGame(page: Page): Promise<{ game: FrameLocator; frame: Frame }> {
  await page.goto(`${world.top}/top.html`);
  const game = page.frameLocator('iframe[title="game"]');
  await expect(game.getByRole('button', { name: buttonWords.login })).toBeEnabled();
  return { game, frame: page.frames().find((candidate) => candidate.url().startsWith(world.game))! };
}

/** What the game's page would tell the player for each error code: `ItchOAuth.playerMessage(code)`. */
function playerMessages(frame: Frame, lang?: string): Promise<Record<string, string>> {
  return frame.evaluate(
    async ([codes, lang]) => {
      const { playerMessage } = (window as unknown as { ItchOAuth: { playerMessage(code: string, lang?: string): Promise<string> } })
        .ItchOAuth;
      return Object.fromEntries(await Promise.all(codes.map(async (code) => [code, await playerMessage(code, lang)])));
    },
    [ERROR_CODES as readonly string[], lang] as const,
  );
}

/** The text the game's button shows (its shadow tree), as one line. */
function buttonText(game: FrameLocator): Promise<string> {
  return game.locator('itch-login-button').evaluate((el) => el.shadowRoot!.textContent!.replace(/\s+/g, ' ').trim());
}

/** No word shown is an error code. */
function expectNoCode(text: string): void {
  for (const code of ERROR_CODES) expect(text, `"${code}" shown`).not.toContain(code);
}

for (const file of ['itch-oauth.iife.js', 'itch-oauth-button.iife.js'] as const) {
  test.describe(`${file}, the only file served`, () => {
    test("locales/ answering 404: a German page's game says every word and every playerMessage() in English, never a code", async ({
      page,
      context,
    }) => {
      const asked = await withoutLocales(context);
      await step('the world starts', () => start({ gameScript: file, gameLang: 'de' }));
      const { game, frame } = await step('the game page opens', () => openGame(page));
      expect(await buttonText(game)).toBe(buttonWords.login);
      // The player closes the itch.io window (Deny on itch.io leaves it on itch.io's page).
      const opened = context.waitForEvent('page');
      await step('the button is clicked', () => game.getByRole('button', { name: buttonWords.login }).click());
      const popup = await step('the popup opens', () => opened);
      await step("the popup shows itch.io's consent page", () =>
        expect(popup.getByRole('heading', { level: 1 })).toHaveText(/^Authorize /),
      );
      await step('Deny is clicked', () => popup.getByRole('button', { name: 'Deny' }).click());
      // The player reads itch.io's answer, then closes the window. (Closed while Deny's form
      // submission was still loading, Playwright's page.close() waited 29 s in a full CI run.)
      await step('the popup says access was denied', () => expect(popup.getByRole('heading', { level: 1 })).toHaveText('Access denied'));
      await step('the popup is closed', () => popup.close());
      await step('the game reports popup_closed', () =>
        expect(game.locator('#result')).toContainText('itch-login-error {"code":"popup_closed"', { timeout: 15_000 }),
      );
      expect(await playerMessages(frame)).toEqual(problems);
      expect(await playerMessages(frame, 'en')).toEqual(problems);
      const shown = await buttonText(game);
      expect(shown).toBe(buttonWords.login);
      expectNoCode(shown);
      // German was asked for (and refused); English never.
      expect(asked.filter((path) => !path.endsWith('/de.js'))).toEqual([]);
    });

    test("the site's server gone after the page loaded: the game hears service_unavailable, says it in English, and asks the network nothing for its words", async ({
      page,
      context,
    }) => {
      await start({ gameScript: file });
      const { game, frame } = await openGame(page);
      // From here on, nothing of the site answers: neither the game's files nor its token endpoint.
      const gone: string[] = [];
      await context.route(
        (url) => url.origin === world.game || url.origin === world.app,
        (route) => {
          gone.push(new URL(route.request().url()).pathname);
          return route.abort('connectionrefused');
        },
      );
      const opened = context.waitForEvent('page');
      await game.getByRole('button', { name: buttonWords.login }).click();
      const popup = await opened;
      await expect(game.locator('#result')).toContainText('itch-login-error {"code":"service_unavailable"', { timeout: 20_000 });
      await expect.poll(() => popup.isClosed(), { timeout: 10_000 }).toBe(true);
      const said = await playerMessages(frame);
      expect(said).toEqual(problems);
      expect(said['service_unavailable']).toBe("This site's server or itch.io is not answering right now. Try again in a minute.");
      expectNoCode(await buttonText(game));
      expect(
        gone.filter((path) => path.startsWith('/dist/')),
        'no words asked of the server that is gone',
      ).toEqual([]);
    });
  });
}

test("the full file's callback page in a popup, locales/ answering 404: the failure in English words, with Close", async ({
  page,
  context,
}) => {
  await withoutLocales(context);
  // itch.io's API unreachable from the backend: the token cannot be checked (a 502 after the retries).
  await start({ coop: true, handler: { apiBaseUrl: 'http://127.0.0.1:9/api/1' } });
  const { game } = await openGame(page);
  const opened = context.waitForEvent('page');
  await game.getByRole('button', { name: buttonWords.login }).click();
  const popup = await opened;
  await expect(popup.getByRole('heading', { level: 1 })).toHaveText(/^Authorize /);
  await popup.getByLabel('Log in as').selectOption(String(C.users.gamer));
  await popup.getByRole('button', { name: 'Approve' }).click();
  const alert = popup.locator('itch-oauth-callback').getByRole('alert');
  await expect(alert).toContainText(problems.service_unavailable, { timeout: 20_000 });
  await expect(alert.getByRole('button', { name: callbackWords.close })).toBeVisible();
  expectNoCode((await alert.textContent()) ?? '');
});

for (const when of ['before the game collected the login (409)', 'after the game collected it (403)'] as const) {
  test(`a popup's callback address opened again in a new tab ${when}: the link works once, Close, nothing about a refusal, no way to the backend's site`, async ({
    page,
    context,
  }) => {
    await start();
    const { game } = await openGame(page);
    // The address itch.io sent the popup to, token and state in its fragment.
    let callbackAddress = '';
    context.on('response', (response) => {
      const location = response.headers()['location'];
      if (location?.startsWith(`${world.app}/callback.html#`)) callbackAddress = location;
    });
    const opened = context.waitForEvent('page');
    await game.getByRole('button', { name: buttonWords.login }).click();
    const popup = await opened;
    await expect(popup.getByRole('heading', { level: 1 })).toHaveText(/^Authorize /);
    const early = when.includes('409');
    // The game's collections held back (its page's requests to the backend), until the new tab has been.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    if (early)
      await page.route(
        (url) => url.origin === world.app,
        async (route) => {
          await held;
          await route.continue().catch(() => undefined);
        },
      );
    // The popup login's binding cookie, as a browser holds it until the deposit clears it: put back,
    // the new tab's deposit is from the browser that started the login (as when two deposits race).
    const binding = await context.cookies(world.app);
    await popup.getByLabel('Log in as').selectOption(String(C.users.gamer));
    await popup.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => world.deposits).toEqual([202]);
    if (early) await context.addCookies(binding);
    if (!early) await expect(game.locator('#result')).toContainText('itch-login-success', { timeout: 15_000 });
    expect(callbackAddress).toMatch(/#access_token=.*state=p\./);

    const tab = await context.newPage();
    await tab.goto(callbackAddress);
    const alert = tab.locator('itch-oauth-callback').getByRole('alert');
    await expect(alert).toContainText(callbackWords.state_used, { timeout: 15_000 });
    await expect(alert).not.toContainText('refused');
    await expect(alert.getByRole('button', { name: callbackWords.close })).toBeVisible();
    await expect(alert.getByRole('link')).toHaveCount(0);
    expect(world.deposits).toEqual([202, early ? 409 : 403]);
    release();
    await expect(game.locator('#result')).toContainText('itch-login-success', { timeout: 15_000 });
    // Reloaded, the tab has no login in progress: Close again, never a way to the backend's root.
    await tab.reload();
    const status = tab.locator('itch-oauth-callback').getByRole('status');
    await expect(status).toContainText(callbackWords.idle);
    await expect(status.getByRole('button', { name: callbackWords.close })).toBeVisible();
    await expect(status.getByRole('link')).toHaveCount(0);
  });
}

test.describe('a browser that blocks all cookies', () => {
  test("a redirect login: the button's itch-login-error says cookies_blocked in the player's words, and the console stays empty", async () => {
    await start();
    const { context: blocked, close } = await launchCookieBlockingChromium();
    try {
      const page = await blocked.newPage();
      const logged: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning') logged.push(message.text());
      });
      page.on('pageerror', (error) => logged.push(String(error)));
      await page.goto(`${world.app}/spa.html`);
      await page.evaluate(() => document.querySelector('itch-login-button')!.setAttribute('mode', 'redirect'));
      await page.getByRole('button', { name: buttonWords.login }).click();
      await expect(page.locator('#result')).toContainText('itch-login-error', { timeout: 10_000 });
      const detail = await page.evaluate(
        () => (window as unknown as { events: { type: string; detail: { code: string; message: string } }[] }).events.at(-1)!.detail,
      );
      expect(detail).toEqual({ code: 'cookies_blocked', message: problems.cookies_blocked });
      expect(logged).toEqual([]);
    } finally {
      await close();
    }
  });
});
