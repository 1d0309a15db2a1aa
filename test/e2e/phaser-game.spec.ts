// examples/phaser-game as a player meets it, against the packed tarball (installed into
// examples/node_modules by `npm run test:examples`) and the emulator: the game built with Vite
// (itch-oauth-widget/phaser from the tarball), framed by its site's page on another origin, a
// click on the "Log in with itch.io" button drawn on the canvas, the popup, and the owners-only
// level: opened with its stars from the site for an owner of the game; for a player who does not
// own it, locked with an offer to buy, and its data refused by the site (403), which reads
// ownership from the game token it signed, never from the game. The plugin's session keeps the
// game token (the game reads only the player) and renews it after a reload.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { expect, test, type BrowserContext, type FrameLocator, type Page } from '@playwright/test';
import config from '../../playwright.config.js';
import { DEFAULT_SEED, DEFAULT_SEED_CREDENTIALS as C, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { freePort } from './support/free-port.js';
import { userEnvironment } from './support/user-env.js';

const examples = fileURLToPath(new URL('../../examples/', import.meta.url));
const example = path.join(examples, 'phaser-game');
const STARFALL_KEEP = C.games.starfallKeep;
const userOf = (id: number) => DEFAULT_SEED.users.find((user) => user.id === id)!;
/** Owns Starfall Keep (a claimed press copy). */
const owner = userOf(C.users.press);
/** Owns nothing. */
const newcomer = userOf(C.users.newcomer);
const hello = (user: typeof owner) => `Hello, ${user.display_name || user.username}!`;

type Point = { x: number; y: number };
/** Where the game draws its buttons (game pixels, the canvas unscaled): the test clicks there. */
let BUTTONS: Record<'login' | 'meadow' | 'vault' | 'buy' | 'back', Point>;

let itch: RunningEmulator;
let server: ChildProcess | undefined;
let origin: string;
let log = '';

test.describe.configure({ timeout: 60_000 });
// The popup blocker on (Playwright turns it off for Chromium by default): the login's popup opens
// only because the player's click on the canvas reached login() with its activation.
test.use({ launchOptions: { ...config.use?.launchOptions, ignoreDefaultArgs: ['--disable-popup-blocking'] } });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  if (!existsSync(path.join(examples, 'node_modules', 'itch-oauth-widget', 'dist', 'phaser.js'))) {
    throw new Error('examples/node_modules has no packed itch-oauth-widget with ./phaser: run npm run test:examples');
  }
  ({ BUTTONS } = (await import(pathToFileURL(path.join(example, 'game', 'layout.js')).href)) as { BUTTONS: typeof BUTTONS });
  // The example's `npm run build`: the game, with the plugin and Phaser from examples/node_modules.
  const built = spawnSync(process.execPath, [path.join(examples, 'node_modules', 'vite', 'bin', 'vite.js'), 'build'], {
    cwd: example,
    encoding: 'utf8',
    env: userEnvironment({ NO_COLOR: '1' }),
  });
  expect(built.status, built.stdout + built.stderr).toBe(0);

  itch = await startEmulator({ port: 0 });
  // Its `npm start`, on a free port (the game's origin, localhost, is on the same one).
  server = spawn(process.execPath, ['server.js'], {
    cwd: example,
    env: userEnvironment({
      PORT: String(await freePort()),
      ITCH_BASE_URL: itch.url,
      SESSION_SECRET: 'phaser-game-e2e-session-secret-0123456789',
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  origin = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`examples/phaser-game did not start in 30 s:\n${log}`)), 30_000);
    const read = (chunk: Buffer) => {
      log += chunk.toString();
      const ready = /listening on (http:\/\/\S+)/.exec(log);
      if (ready) {
        clearTimeout(timer);
        resolve(ready[1]!);
      }
    };
    server!.stdout!.on('data', read);
    server!.stderr!.on('data', read);
    server!.on('exit', (code) => reject(new Error(`examples/phaser-game exited (${code}):\n${log}`)));
  });
  itch.addRedirectUri(C.clients.demo.clientId, `${origin}/callback.html`);
});

test.afterAll(async () => {
  if (server?.exitCode === null) {
    const exited = new Promise((resolve) => server!.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  await itch?.close();
});

/** Where the game is served: GAME_ORIGIN, the example's default, localhost on the site's port. */
const gameOrigin = () => origin.replace('127.0.0.1', 'localhost');

/**
 * The game's page on the site (127.0.0.1), framing the game from GAME_ORIGIN (localhost), ready to
 * play; or, given `url`, the game opened there as a page of its own.
 */
async function openGame(page: Page, url?: string): Promise<{ game: FrameLocator | Page; click: (point: Point) => Promise<void> }> {
  await page.goto(url ?? `${origin}/`);
  const game = url === undefined ? page.frameLocator('iframe') : page;
  // The game's live region: what a screen reader hears of the canvas.
  await expect(game.locator('#status')).toHaveText('Log in with itch.io to play.');
  const canvas = (await game.locator('canvas').boundingBox())!;
  expect(canvas, 'the canvas is drawn at its game size (one game pixel, one CSS pixel)').toMatchObject({ width: 800, height: 450 });
  // A real mouse click on the canvas, where the game drew what it names.
  const click = (point: Point) => page.mouse.click(canvas.x + point.x, canvas.y + point.y);
  return { game, click };
}

/** Clicks the canvas's login button, approves as `user` in the popup, and returns the login's answer to the game. */
async function logIn(page: Page, context: BrowserContext, click: (point: Point) => Promise<void>, user: typeof owner) {
  // The popup's outcome, as the game collects it from the site (a POST from the game's origin).
  const collected = page.waitForResponse(
    async (response) =>
      response.url() === `${origin}/auth/itch` &&
      response.request().method() === 'POST' &&
      response.status() === 200 &&
      'gameToken' in ((await response.json().catch(() => ({}))) as object),
  );
  const opened = context.waitForEvent('page');
  await click(BUTTONS.login);
  const popup = await opened;
  await popup.getByLabel('Log in as').selectOption(String(user.id));
  await popup.getByRole('button', { name: 'Approve' }).click();
  return (await (await collected).json()) as { user: { id: number }; owns: Record<string, boolean>; gameToken: string };
}

test('an owner of the game logs in from the canvas, is greeted, and opens the vault with its stars from the site', async ({
  page,
  context,
}) => {
  const { game, click } = await openGame(page);
  // Control: the blocker is on. (page.evaluate runs with an activation: 6 s on, it has expired.)
  const blocked = await page.evaluate(() => new Promise((resolve) => setTimeout(() => resolve(window.open('about:blank') === null), 6000)));
  expect(blocked, 'a popup without an activation is blocked').toBe(true);
  const answer = await logIn(page, context, click, owner);
  expect(answer.user.id).toBe(owner.id);
  expect(answer.owns).toEqual({ [STARFALL_KEEP]: true });
  await expect(game.locator('#status')).toHaveText(`${hello(owner)} The vault is open to you.`);
  expect(await context.cookies(gameOrigin()), 'no cookie for the game').toEqual([]);

  const vault = page.waitForResponse(`${origin}/api/levels/vault`);
  await click(BUTTONS.vault);
  const response = await vault;
  expect(response.status()).toBe(200);
  expect(await response.request().headerValue('authorization')).toBe(`DPoP ${answer.gameToken}`);
  const level = (await response.json()) as { name: string; stars: Point[] };
  await expect(game.locator('#status')).toHaveText(`The vault: catch the ${level.stars.length} stars.`);
  // Played: a click on one of the stars the site sent.
  await click(level.stars[0]!);
  await expect(game.locator('#status')).toHaveText(`The vault: 1 of ${level.stars.length} stars caught.`);
  // The game never held the token: nothing of it is in the game's page (the plugin's session keeps it).
  const frame = page.frames().find((candidate) => candidate.url().startsWith(gameOrigin()))!;
  expect(await frame.evaluate(() => document.documentElement.outerHTML)).not.toContain(answer.gameToken);
});

test("the plugin's session keeps the login over a reload where the game may keep it, renewing its game token at once", async ({
  page,
  context,
}) => {
  // Framed, this Chromium (a Playwright context is like an incognito window) denies the game its
  // sessionStorage: the session then keeps the token in memory only, and a reload asks for a new
  // login. Opened as a page of its own (its storage allowed), the game keeps it.
  const { game, click } = await openGame(page, `${gameOrigin()}/game/`);
  const answer = await logIn(page, context, click, owner);
  await expect(game.locator('#status')).toHaveText(`${hello(owner)} The vault is open to you.`);
  const renewed = page.waitForResponse((response) => response.url() === `${origin}/api/renew` && response.request().method() === 'POST');
  await page.reload();
  const renewal = await renewed;
  expect(renewal.status(), 'the kept token, renewed after the reload').toBe(200);
  expect(await renewal.request().headerValue('authorization')).toBe(`DPoP ${answer.gameToken}`);
  const { gameToken } = (await renewal.json()) as { gameToken: string };
  await expect(game.locator('#status')).toHaveText(`${hello(owner)} The vault is open to you.`);
  // The vault opens with the renewed token, without a popup.
  const vault = page.waitForResponse(`${origin}/api/levels/vault`);
  await click(BUTTONS.vault);
  expect(await (await vault).request().headerValue('authorization')).toBe(`DPoP ${gameToken}`);
  await expect(game.locator('#status')).toHaveText(/^The vault: catch the \d+ stars\.$/);
  expect(context.pages(), 'no popup after the reload').toHaveLength(1);
});

test('a player who does not own the game is greeted, the vault stays locked, and the site refuses its data (403)', async ({
  page,
  context,
}) => {
  const { game, click } = await openGame(page);
  const answer = await logIn(page, context, click, newcomer);
  expect(answer.user.id).toBe(newcomer.id);
  expect(answer.owns).toEqual({ [STARFALL_KEEP]: false });
  await expect(game.locator('#status')).toHaveText(`${hello(newcomer)} The vault is for owners of the game.`);

  const asked: string[] = [];
  page.on('request', (request) => void (request.url().includes('/api/levels/') && asked.push(request.url())));
  await click(BUTTONS.vault);
  await expect(game.locator('#status')).toHaveText('The vault is locked. Buy the game on itch.io to open it.');
  // The meadow, free, still opens.
  await click(BUTTONS.meadow);
  await expect(game.locator('#status')).toHaveText('The meadow: catch the 3 stars.');
  expect(asked, 'the game did not ask for the vault').toEqual([]);

  // The site decides from the game token it signed: a copy of this player's is refused, and so is one whose
  // claims say otherwise (its signature no longer matches), and none at all.
  const vault = (authorization?: string) =>
    fetch(`${origin}/api/levels/vault`, { headers: authorization ? { Authorization: authorization } : {} });
  // (Read here, the token is a copy without the game's DPoP key: refused before ownership is asked.)
  const refused = await vault(`DPoP ${answer.gameToken}`);
  expect(refused.status).toBe(401);
  const [header, payload, signature] = answer.gameToken.split('.');
  const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as { owns?: unknown };
  expect(claims.owns).toEqual({ [STARFALL_KEEP]: false });
  const claimed = Buffer.from(JSON.stringify({ ...claims, owns: { [STARFALL_KEEP]: true } })).toString('base64url');
  expect((await vault(`Bearer ${header}.${claimed}.${signature}`)).status, 'a game token claiming ownership it was not given').toBe(401);
  expect((await vault()).status, 'no game token').toBe(401);
});
