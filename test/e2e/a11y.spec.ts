// Accessibility in Chromium: axe-core's WCAG 2.2 A/AA rules on every state of the button, every
// outcome of the callback element, the capture's pending view, the popup's pages, the game's code
// overlay, the emulator's consent page and the demo; then what an audit cannot see: focus after a
// failure and after a popup closes, a live region announced once, a login by keyboard alone, the
// code overlay's focus, forced colours and reduced motion. (Firefox and WebKit run the same audits
// in the engine matrix: test/engines/scenarios-a11y.ts.)
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, test, type Frame, type FrameLocator, type Page } from '@playwright/test';
import type { AxeResults } from 'axe-core';
import { DEFAULT_SEED_CREDENTIALS as C } from '../../src/emulator/index.js';
import { startDemo } from '../../demo/serve.js';
import { audit, WCAG } from './support/axe.js';
import { startPopupWorld, type PopupWorld, type PopupWorldOptions } from './support/popup-world.js';
import { gamePage, startSite, startFlow, type Site } from './support/site.js';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * The same audit inside one frame (the framed game): axe-core's own script evaluated there, as
 * the engine matrix does, since the page-level audit does not reach into this cross-site frame.
 */
async function auditFrame(frame: Frame, what: string): Promise<number> {
  await frame.evaluate(AXE_SOURCE);
  const results = await frame.evaluate(
    (tags) =>
      (window as unknown as { axe: { run(c: Document, o: object): Promise<AxeResults> } }).axe.run(document, {
        runOnly: { type: 'tag', values: tags },
        iframes: false,
      }),
    WCAG,
  );
  const found = results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`);
  expect(found, `axe violations on ${what}`).toEqual([]);
  const shadow = results.passes.flatMap((rule) => rule.nodes).filter((node) => node.target.some((part) => Array.isArray(part))).length;
  console.log(
    `axe chromium ${what}: ${results.violations.length} violations, ${results.passes.length} passes, ${results.incomplete.length} incomplete, ${shadow} shadow nodes passed`,
  );
  return shadow;
}

/** The framed game's frame. */
function gameFrame(page: Page): Frame {
  return page.frames().find((frame) => frame.url().startsWith(world!.game))!;
}

let world: PopupWorld | undefined;
let site: Site | undefined;
test.afterEach(async () => {
  await world?.close();
  await site?.close();
  world = site = undefined;
});

async function openGame(page: Page, options: PopupWorldOptions = {}): Promise<FrameLocator> {
  world = await startPopupWorld(options);
  await page.goto(`${world.top}/top.html`);
  const game = page.frameLocator('iframe[title="game"]');
  await expect(game.getByRole('button', { name: 'Log in with itch.io' })).toBeEnabled();
  return game;
}

/** A callback page with the capture first and the element, on the game site. */
async function callbackSite(noRedirect = true): Promise<Site> {
  site = await startSite();
  site.page = {
    hostile: false,
    // The title before the capture: it is no script, and the capture's pending view, which turns
    // the rest of <head> into text, keeps a title (WCAG 2.4.2).
    headStart: '<title>Signing in</title>',
    noRedirect,
    body: `<itch-oauth-callback${noRedirect ? ' no-redirect' : ''}></itch-oauth-callback><script src="/dist/itch-oauth.iife.js"></script>`,
  };
  return site;
}

/** Logs in through the fake itch.io with the site as it is set, and waits for the callback's outcome. */
async function loginThrough(page: Page, s: Site, state = 'S1'): Promise<void> {
  await startFlow(page, s, state);
  await page.goto(`${s.authUrl}/user/oauth?redirect_uri=${encodeURIComponent(`${s.url}/callback.html`)}&state=${state}`);
  // (The capture retries a server that fails or cannot be reached before it gives up.)
  await expect(page.locator('itch-oauth-callback [part=status]')).toBeAttached({ timeout: 30_000 });
}

test.describe('axe-core finds no WCAG 2.2 A/AA violation', () => {
  // An audit takes seconds on a loaded machine, and some tests run several.
  test.describe.configure({ timeout: 120_000 });
  test('on the login button, idle and disabled, with its shadow content audited', async ({ page }) => {
    site = await startSite();
    site.game = gamePage(
      `<itch-login-button client-id="c" redirect-uri="${site.url}/callback.html" base-url="${site.authUrl}"></itch-login-button>
       <itch-login-button disabled client-id="c" redirect-uri="${site.url}/callback.html"></itch-login-button>`,
    );
    await page.goto(`${site.url}/game.html`);
    await expect(page.locator('itch-login-button button').first()).toBeVisible();
    expect(await audit(page, 'button idle and disabled'), 'axe checked nodes inside the shadow roots').toBeGreaterThan(0);
  });

  test('on the button while its popup is open (aria-busy) and after popup_closed, and on the popup and consent pages', async ({
    page,
    context,
  }) => {
    const game = await openGame(page);
    const opened = context.waitForEvent('page');
    await game.getByRole('button', { name: 'Log in with itch.io' }).click();
    const popup = await opened;
    await expect(game.locator('itch-login-button button[aria-busy=true]')).toBeAttached();
    expect(await auditFrame(gameFrame(page), 'button busy'), "axe checked nodes inside the button's shadow root").toBeGreaterThan(0);
    await expect(popup.getByRole('heading', { level: 1 })).toHaveText(/^Authorize /);
    await audit(popup, "emulator's consent page");
    await page.waitForTimeout(2600); // past the window in which a closed popup may be a severed one
    await popup.close();
    await expect(game.locator('#result')).toContainText('popup_closed', { timeout: 10_000 });
    expect(await auditFrame(gameFrame(page), 'button after popup_closed')).toBeGreaterThan(0);
  });

  test("on the popup's six-digit confirmation page and the game's code overlay", async ({ page, context }) => {
    const game = await openGame(page, { isolated: true, handler: { popup: { severedOpener: 'confirm' } } });
    const opened = context.waitForEvent('page');
    await game.getByRole('button', { name: 'Log in with itch.io' }).click();
    const popup = await opened;
    await expect(popup.locator('.code')).toHaveText(/^\d{3} \d{3}$/);
    await audit(popup, 'popup confirmation page');
    await expect(game.getByRole('dialog')).toBeVisible({ timeout: 10_000 });
    await auditFrame(gameFrame(page), 'code overlay');
  });

  test("on the callback element's outcomes: success, each error family with its way on, and the capture's pending view", async ({
    page,
  }) => {
    const s = await callbackSite();
    let hold: () => void = () => undefined;
    s.backendHold = new Promise<void>((resolve) => (hold = resolve));
    await startFlow(page, s, 'P');
    await page.goto(`${s.authUrl}/user/oauth?redirect_uri=${encodeURIComponent(`${s.url}/callback.html`)}&state=P`, {
      waitUntil: 'commit',
    });
    await expect(page.locator('output')).toHaveText('Signing you in…');
    await audit(page, "capture's pending view");
    hold();
    await expect(page.getByRole('status')).toHaveText("You're logged in with itch.io.");
    s.backendHold = undefined;
    await audit(page, 'callback success');

    s.authorizeWith = { error: 'access_denied' };
    await loginThrough(page, s, 'D');
    await expect(page.getByRole('alert')).toContainText('You declined');
    expect(await audit(page, 'callback access_denied'), 'axe checked nodes inside the shadow root').toBeGreaterThan(0);

    s.authorizeWith = { token: 'T' };
    s.backendStatuses = [403];
    await loginThrough(page, s, 'R');
    await expect(page.getByRole('alert')).toContainText('server refused');
    await audit(page, 'callback backend_rejected');

    s.backendStatuses = [0];
    await loginThrough(page, s, 'N');
    await expect(page.getByRole('alert')).toContainText('not answering right now');
    await audit(page, 'callback service_unavailable');

    // No flow for this state: the login was not started in this tab. (From another page: a new
    // fragment alone on the same page is no navigation.)
    await page.goto(`${s.url}/game.html`);
    await page.goto(`${s.url}/callback.html#access_token=T&state=UNKNOWN`);
    await expect(page.getByRole('alert')).toContainText('works only once');
    await audit(page, 'callback state_mismatch');
  });

  test("on the popup's ending with Close (a severed popup, not an owner)", async ({ page, context }) => {
    const game = await openGame(page, {
      coop: true,
      callbackAttributes: 'store-url="https://pixelforge.itch.io/starfall-keep"',
      handler: { ownership: { gameIds: [C.games.starfallKeep], apiKey: C.apiKeys.developer, require: true } },
    });
    const opened = context.waitForEvent('page');
    await game.getByRole('button', { name: 'Log in with itch.io' }).click();
    const popup = await opened;
    await expect(popup.getByRole('heading', { level: 1 })).toHaveText(/^Authorize /);
    await popup.getByLabel('Log in as').selectOption(String(C.users.newcomer));
    await popup.getByRole('button', { name: 'Approve' }).click();
    await expect(popup.getByRole('button', { name: 'Close' })).toBeFocused({ timeout: 15_000 });
    await audit(popup, 'popup ending not_owner with Close');
  });

  test("on the demo's pages", async ({ page }) => {
    const demo = await startDemo({ port: 0, logLevel: 'silent' });
    try {
      for (const path of ['/', '/account.html', '/vault.html', '/isolated.html', '/game/']) {
        await page.goto(`${demo.url}${path}`);
        await page.waitForLoadState('load');
        // The login buttons drawn (a module script defines them after load): their insides are audited too.
        if ((await page.locator('itch-login-button').count()) > 0)
          await expect(page.locator('itch-login-button button').first()).toBeAttached();
        await audit(page, `demo ${path}`);
      }
    } finally {
      await demo.close();
    }
  });
});

test.describe('beyond the audit', () => {
  test('after a failure the focus is on Try again in one alert, which a re-render keeps (nothing is announced twice)', async ({ page }) => {
    const s = await callbackSite();
    s.authorizeWith = { error: 'access_denied' };
    await loginThrough(page, s, 'D');
    await expect(page.getByRole('button', { name: 'Try again' })).toBeFocused();
    await expect(page.getByRole('alert')).toHaveCount(1);
    await expect(page.locator('itch-oauth-callback').first()).toMatchAriaSnapshot(`
      - alert:
        - paragraph: You declined the login on itch.io.
        - button "Try again"
        - paragraph:
          - link "Back to the site"
    `);
    // A re-render (an attribute changes) keeps the same live region: nothing is announced again.
    const region = await page
      .locator('itch-oauth-callback')
      .first()
      .evaluateHandle((el) => el.shadowRoot!.querySelector('[role=alert]'));
    await page
      .locator('itch-oauth-callback')
      .first()
      .evaluate(async (el) => {
        el.setAttribute('store-url', 'https://example.itch.io/game');
        await (el as unknown as { updateComplete: Promise<unknown> }).updateComplete;
      });
    expect(
      await page
        .locator('itch-oauth-callback')
        .first()
        .evaluate((el, old) => el.shadowRoot!.querySelector('[role=alert]') === old, region),
    ).toBe(true);
  });

  test('a login by keyboard alone: Tab to the button, Enter, then Tab and Enter on the consent page', async ({ page, context }) => {
    world = await startPopupWorld();
    await page.goto(`${world.app}/spa.html`);
    const button = page.getByRole('button', { name: 'Log in with itch.io' });
    await expect(button).toBeEnabled();
    for (let i = 0; i < 10 && !(await button.evaluate((el) => el === (el.getRootNode() as ShadowRoot).activeElement)); i++)
      await page.keyboard.press('Tab');
    await expect(button).toBeFocused();
    const opened = context.waitForEvent('page');
    await page.keyboard.press('Enter');
    const popup = await opened;
    await expect(popup.getByRole('heading', { level: 1 })).toHaveText(/^Authorize /);
    const approve = popup.getByRole('button', { name: 'Approve' });
    for (let i = 0; i < 15 && !(await approve.evaluate((el) => el === document.activeElement)); i++) await popup.keyboard.press('Tab');
    await expect(approve).toBeFocused();
    await popup.keyboard.press('Enter');
    await expect(page.locator('#result')).toContainText('itch-login-success', { timeout: 15_000 });
  });

  test('after popup_closed the focus is back on the button, and Space starts a login again', async ({ page, context }) => {
    const game = await openGame(page);
    const button = game.getByRole('button', { name: 'Log in with itch.io' });
    await button.focus();
    let opened = context.waitForEvent('page');
    await page.keyboard.press('Enter');
    const popup = await opened;
    await expect(popup.getByRole('heading', { level: 1 })).toHaveText(/^Authorize /);
    await page.waitForTimeout(2600);
    await popup.close();
    await expect(game.locator('#result')).toContainText('popup_closed', { timeout: 10_000 });
    await expect(button).toBeFocused();
    opened = context.waitForEvent('page');
    await page.keyboard.press('Space');
    await (await opened).close();
  });

  test('the code overlay takes the focus, keeps Tab off the game behind it, gives the focus back on Escape and stays in view', async ({
    page,
    context,
  }) => {
    const game = await openGame(page, { isolated: true, handler: { popup: { severedOpener: 'confirm' } } });
    const button = game.getByRole('button', { name: 'Log in with itch.io' });
    await button.focus();
    const opened = context.waitForEvent('page');
    await page.keyboard.press('Enter');
    const popup = await opened;
    const popupCode = (await popup.locator('.code').textContent())!;
    const dialog = game.getByRole('dialog');
    await expect(dialog).toContainText(popupCode, { timeout: 10_000 });
    await expect(dialog).toBeFocused();
    await game.locator('body').evaluate(() => window.focus());
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press('Tab');
      await expect(button).not.toBeFocused();
    }
    await dialog.focus();
    await page.keyboard.press('Escape');
    await expect(button).toBeFocused();
    await expect(game.getByText(`shows the code ${popupCode}`)).toBeVisible();
    await popup.getByRole('button', { name: `The game shows ${popupCode}` }).click();
    await popup.getByLabel('Log in as').selectOption(String(C.users.gamer));
    await popup.getByRole('button', { name: 'Approve' }).click();
    await expect(game.locator('#result')).toContainText('itch-login-success', { timeout: 15_000 });
    await expect(game.getByText(`shows the code ${popupCode}`)).toHaveCount(0);
  });

  test('forced colours: the button keeps a border in a system colour', async ({ page }) => {
    site = await startSite();
    site.game = gamePage(`<itch-login-button client-id="c" redirect-uri="${site.url}/callback.html"></itch-login-button>`);
    await page.goto(`${site.url}/game.html`);
    const border = () =>
      page.locator('itch-login-button').evaluate((el) => {
        const style = getComputedStyle(el.shadowRoot!.querySelector('button')!);
        const probe = document.body.appendChild(document.createElement('i'));
        probe.style.color = 'ButtonText';
        const system = getComputedStyle(probe).color;
        probe.remove();
        return { width: style.borderTopWidth, style: style.borderTopStyle, color: style.borderTopColor, system };
      });
    expect((await border()).width).toBe('0px');
    await page.emulateMedia({ forcedColors: 'active' });
    const forced = await border();
    expect(forced).toMatchObject({ width: '2px', style: 'solid' });
    expect(forced.color).toBe(forced.system);
  });

  test('reduced motion: nothing in the button moves', async ({ page }) => {
    site = await startSite();
    site.game = gamePage(`<itch-login-button client-id="c" redirect-uri="${site.url}/callback.html"></itch-login-button>`);
    await page.goto(`${site.url}/game.html`);
    const motion = () =>
      page.locator('itch-login-button').evaluate((el) => {
        const style = getComputedStyle(el.shadowRoot!.querySelector('button')!);
        return { transition: style.transitionDuration, animation: style.animationName };
      });
    expect((await motion()).transition).toBe('0.12s');
    await page.emulateMedia({ reducedMotion: 'reduce' });
    expect(await motion()).toEqual({ transition: '0s', animation: 'none' });
  });
});
