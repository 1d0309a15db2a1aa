// The Godot 4 addon (engines/godot) in Godot's own web runtime: the official 4.6 web export
// template runs a project packed from the addon and the example button as they are
// (test/engines/godot/runtime.ts), in Chromium with its popup blocker on, after the package's
// dist/ script-tag files, against the emulator and a token handler with sessions and an ownership
// check. What GDScript receives is read from the console, where the scene's driver prints it:
// no script of the test's runs in the game's page, as one would give it a user activation.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { findBrowser, MISSING_BROWSER } from '../../scripts/find-browser.mjs';
import { DEFAULT_SEED_CREDENTIALS as C } from '../../src/emulator/index.js';
import { startEngineWorld, type EngineWorld } from '../e2e/support/engine-world.js';
import { godotRoutes } from './godot/runtime.js';
import { chromiumLaunchOptions } from './puppeteer-session.js';
import { POPUP_BLOCKER_PROBE } from './steps.js';

const inCi = process.env['CI'] === 'true' || process.env['CI'] === '1';
const chromium = findBrowser();
const skip = chromium ? false : inCi ? false : MISSING_BROWSER;

/** One line the scene's test_driver.gd printed. */
interface Report {
  event: string;
  code?: string;
  message?: string;
  id?: string;
  user?: { id: number; username: string; display_name: string } | null;
  owns?: Record<string, boolean>;
  user_id_type?: string;
  user_id?: number;
  has_game_token?: boolean;
  button_text?: string;
  status?: number;
  body?: string;
  player_message?: string;
}

interface Game {
  page: Page;
  reports: Report[];
  /** Console errors (Godot prints its own errors there) and uncaught errors. */
  problems: string[];
  /** Console warnings: Chromium's about its software WebGL, reported, not asserted. */
  warnings: string[];
  loadedMs: number;
}

let world: EngineWorld;
let browser: Browser;

before(async () => {
  if (!chromium) {
    if (inCi) throw new Error(`Chromium is missing in CI: ${MISSING_BROWSER}`);
    return;
  }
  world = await startEngineWorld(godotRoutes(() => world));
  // Godot's renderer needs WebGL 2, which headless Chromium without a GPU gives only in software,
  // and now only when asked (https://chromium.googlesource.com/chromium/src/+/main/docs/gpu/swiftshader.md).
  const options = chromiumLaunchOptions(chromium);
  browser = await puppeteer.launch({ ...options, args: [...(options.args ?? []), '--enable-unsafe-swiftshader'] });
  const probe = await browser.newPage();
  await probe.goto(POPUP_BLOCKER_PROBE);
  assert.equal(await probe.title(), 'blocked', "Chromium's popup blocker is off: a popup here would prove nothing about the click");
  await probe.close();
});
after(async () => {
  await browser?.close();
  await world?.close();
});

/** Waits for a report that passes `test`, reading the page's console as it comes. */
async function waitForReport(game: Game, what: string, test: (report: Report) => boolean, timeoutMs = 30_000): Promise<Report> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = game.reports.find(test);
    if (found) return found;
    if (Date.now() > deadline)
      throw new Error(
        `timed out waiting for ${what}; GDScript reported ${JSON.stringify(game.reports)}; problems: ${game.problems.join('\n')}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Opens the game in a fresh browser context and waits for its scene to be ready. */
async function openGame(query = ''): Promise<Game> {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  const game: Game = { page, reports: [], problems: [], warnings: [], loadedMs: 0 };
  page.on('console', (message) => {
    const text = message.text();
    if (text.startsWith('ITCH_TEST ')) game.reports.push(JSON.parse(text.slice('ITCH_TEST '.length)) as Report);
    else if (message.type() === 'error') game.problems.push(text);
    else if (message.type() === 'warn') game.warnings.push(text);
  });
  page.on('pageerror', (error) => game.problems.push(`uncaught: ${error instanceof Error ? error.message : String(error)}`));
  const started = Date.now();
  await page.goto(`${world.game}/${query}`);
  await waitForReport(game, 'the scene to be ready', (report) => report.event === 'ready', 60_000);
  game.loadedMs = Date.now() - started;
  return game;
}

/** A real mouse click on the canvas: the example's button fills its upper left, the driver's its upper right. */
async function clickButton(game: Game, which: 'example' | 'driver'): Promise<Page> {
  const popup = new Promise<Page>((resolve) => game.page.once('popup', (page) => page && resolve(page)));
  await game.page.mouse.click(which === 'example' ? 160 : 480, 180);
  return Promise.race([
    popup,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`no popup 15 s after the click; GDScript reported ${JSON.stringify(game.reports)}`)), 15_000),
    ),
  ]);
}

async function approve(popup: Page, userId: number): Promise<void> {
  await popup.waitForFunction(() => location.pathname === '/user/oauth', { timeout: 15_000 });
  await popup.waitForSelector('#user');
  await popup.select('#user', String(userId));
  await popup.click('button[value="approve"]');
}

describe('engines/godot in the Godot 4.6 web runtime (Chromium, popup blocker on)', { skip }, () => {
  test("the example's button logs in: logged_in reaches GDScript with the user (id a float, int() exact) and owns, the page keeps the game token, and the button says hello", async (t) => {
    const game = await openGame();
    try {
      const started = Date.now();
      const popup = await clickButton(game, 'example');
      await approve(popup, C.users.gamer);
      const report = await waitForReport(game, 'logged_in or login_failed', (r) => r.event === 'logged_in' || r.event === 'login_failed');
      t.diagnostic(`engine loaded in ${game.loadedMs} ms; click to logged_in ${Date.now() - started} ms`);
      assert.equal(report.event, 'logged_in', JSON.stringify(report));
      assert.equal(report.user?.id, C.users.gamer);
      assert.equal(report.user?.display_name, 'Mossy Pine');
      assert.equal(report.user_id_type, 'float', "JSON.parse_string gives every number as a float: the README's int(user.id)");
      assert.equal(report.user_id, C.users.gamer);
      assert.deepEqual(report.owns, { [String(C.games.starfallKeep)]: true });
      assert.equal(report.has_game_token, false, 'with renew, the page keeps the game token: GDScript never holds it');
      assert.match(report.button_text ?? '', /^Hello Mossy Pine \(owns: \{ "\d+": true \}\)$/);
      assert.deepEqual(game.problems, [], 'the console stays clean');
    } finally {
      await game.page.browserContext().close();
    }
  });

  test("the example's save button calls the site's API with ItchLogin.fetch: the page adds the game token, GDScript gets the status and the body", async () => {
    const game = await openGame();
    try {
      await approve(await clickButton(game, 'example'), C.users.gamer);
      await waitForReport(game, 'logged_in', (r) => r.event === 'logged_in');
      const before = world.apiCalls.length;
      await game.page.mouse.click(320, 315); // the example's SaveButton, along the bottom
      await waitForReport(game, 'the save to reach the site', () => world.apiCalls.length > before);
      const saved = world.apiCalls[before]!;
      assert.equal(saved.method, 'PUT');
      assert.match(
        saved.authorization ?? '',
        /^DPoP ey[\w-]+\.[\w-]+\.[\w-]+$/,
        "the game token, bound to the page's key, added by the page",
      );
      await game.page.keyboard.press('l');
      const read = await waitForReport(game, 'fetched', (r) => r.event === 'fetched');
      assert.equal(read.status, 200, JSON.stringify(read));
      assert.deepEqual(JSON.parse(read.body ?? ''), { user: C.users.gamer, progress: { stars: 3 } });
      assert.equal(read.button_text, 'Saved', "the example's button read the 204");
      assert.deepEqual(game.problems, [], 'the console stays clean');
    } finally {
      await game.page.browserContext().close();
    }
  });

  test('at start, without a click, ItchLogin.restore answers null on a page that kept no login (the button stays), and after a login and a reload the player: the example button says hello, no popup', async (t) => {
    const game = await openGame();
    try {
      const fresh = await waitForReport(game, 'restored', (r) => r.event === 'restored');
      assert.equal(fresh.user, null, JSON.stringify(fresh));
      assert.deepEqual(fresh.owns, {});
      await approve(await clickButton(game, 'example'), C.users.gamer);
      await waitForReport(game, 'logged_in', (r) => r.event === 'logged_in');
      assert.ok(
        !game.reports.some((r) => r.event === 'button_text' && !/^Hello /.test(r.button_text ?? '')),
        `the button changed before its login: ${JSON.stringify(game.reports)}`,
      );

      game.reports.length = 0;
      const started = Date.now();
      await game.page.reload();
      await waitForReport(game, 'the scene to be ready again', (r) => r.event === 'ready', 60_000);
      const restored = await waitForReport(game, 'restored', (r) => r.event === 'restored');
      const greeted = await waitForReport(game, "the example button's greeting", (r) => r.event === 'button_text');
      t.diagnostic(`reload to the greeting ${Date.now() - started} ms`);
      assert.equal(restored.user?.id, C.users.gamer, JSON.stringify(restored));
      assert.equal(restored.user?.display_name, 'Mossy Pine');
      assert.equal(restored.user_id_type, 'float', 'as from logged_in: int(user.id)');
      assert.equal(restored.user_id, C.users.gamer);
      assert.deepEqual(restored.owns, { [String(C.games.starfallKeep)]: true });
      assert.equal(restored.has_game_token, false, 'GDScript never holds the game token');
      assert.match(greeted.button_text ?? '', /^Hello Mossy Pine \(owns: \{ "\d+": true \}\)$/);
      assert.equal((await game.page.browserContext().pages()).length, 1, 'no popup');
      assert.deepEqual(game.problems, [], 'the console stays clean');
    } finally {
      await game.page.browserContext().close();
    }
  });

  test('a popup the player closes ends in login_failed("popup_closed"), with the player\'s words in player_message, which the example shows', async () => {
    const game = await openGame();
    try {
      const popup = await clickButton(game, 'driver');
      await popup.waitForFunction(() => location.pathname === '/user/oauth', { timeout: 15_000 });
      await popup.close();
      const report = await waitForReport(game, 'login_failed', (r) => r.event === 'login_failed');
      assert.equal(report.code, 'popup_closed', JSON.stringify(report));
      assert.ok(report.message);
      // The player's words, which the example's button shows rather than the code.
      assert.equal(report.player_message, 'The itch.io window was closed before the login finished.', JSON.stringify(report));
      assert.equal(report.button_text, report.player_message);
    } finally {
      await game.page.browserContext().close();
    }
  });

  test('ItchLogin.cancel(id) with the id login() returned closes the popup and ends in login_failed("aborted")', async () => {
    const game = await openGame();
    try {
      const popup = await clickButton(game, 'driver');
      const started = await waitForReport(game, 'the login id', (r) => r.event === 'started');
      assert.match(started.id ?? '', /^\d+$/, 'login() returns the id');
      await popup.waitForFunction(() => location.pathname === '/user/oauth', { timeout: 15_000 });
      await game.page.bringToFront();
      await game.page.keyboard.press('Escape');
      const report = await waitForReport(game, 'login_failed', (r) => r.event === 'login_failed');
      assert.equal(report.code, 'aborted', JSON.stringify(report));
      await waitForReport(game, 'the popup to close', () => popup.isClosed(), 10_000);
    } finally {
      await game.page.browserContext().close();
    }
  });

  test('a page without itch_login.js: login_failed("config_invalid") names it, no popup, and Godot logs no error', async () => {
    const game = await openGame('?no-js-half');
    try {
      await game.page.mouse.click(160, 180);
      const report = await waitForReport(game, 'login_failed', (r) => r.event === 'login_failed');
      assert.equal(report.code, 'config_invalid');
      assert.match(report.message ?? '', /itch_login\.js/);
      assert.equal(report.button_text, 'Login failed: config_invalid', "the example's button shows it");
      assert.equal((await game.page.browserContext().pages()).length, 1, 'no popup');
      assert.deepEqual(game.problems, [], 'the console stays clean');
    } finally {
      await game.page.browserContext().close();
    }
  });
});
