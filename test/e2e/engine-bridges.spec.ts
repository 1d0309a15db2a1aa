// The engines' JavaScript halves (engines/*) in Chromium, each under a stand-in that follows its
// engine's documented JavaScript interface, against the emulator and a token handler with
// sessions and an ownership check: the answer a game gets is { user, owns } (a game token only to a
// login that proves its key, as the game session does); with renew, the game calls the site's API through its drop-in's fetch without the token, and
// after a reload its drop-in's restore finds the player without a click.
// - Godot 4: JavaScriptBridge.create_callback gives GDScript a JavaScriptObject whose function
//   calls the Callable with the JavaScript arguments as one Array, only while GDScript keeps it.
// - Unity WebGL: the .jslib goes through mergeInto(LibraryManager.library, …), and each function's
//   text is re-made in a scope with only Emscripten's helpers (UTF8ToString, lengthBytesUTF8,
//   _malloc, stringToUTF8 over a HEAPU8) and SendMessage, as Emscripten copies it into the build.
// - GameMaker HTML5: the extension's functions are globals; GMS_API.send_async_event_social(map)
//   raises the Async Social event, whose async_load holds strings and numbers.
// - Construct 3: the script module calls the event sheet through runtime.callFunction(name, …).
// - Defold: Lua calls html5.run(code), which evaluates it; JsToDef.send(id, object) hands the
//   object to the Lua listeners as a table (through JSON).
// What each engine does with the result afterwards (the GDScript, C#, GML and Lua) is mirrored in
// the stand-ins: the engines cannot run here.
//
// Playwright's Chromium runs with --disable-popup-blocking: these tests are about what the engine
// receives, not about activation (the engine matrix, test/engines, drives browsers with the popup
// blocker on). The game's own buttons are clicked, as a player would.
import { expect, test, type Page } from '@playwright/test';
import { DEFAULT_SEED_CREDENTIALS as C } from '../../src/emulator/index.js';
import { ENGINES, gamePage, type Engine } from './support/engine-stand-ins.js';
import { startEngineWorld, type EngineWorld } from './support/engine-world.js';
import { send } from './support/site.js';

async function startWorld(): Promise<EngineWorld> {
  let started: EngineWorld | undefined;
  const world = await startEngineWorld((url, _req, res) => {
    const engine = ENGINES.find((name) => url.pathname === `/${name}.html`);
    if (engine === undefined || started === undefined) return false;
    // ?session: the login's options carry renew, so the page keeps the game token in its game session.
    const options = url.searchParams.has('session') ? { ...started.options, renew: started.renew } : started.options;
    send(res, 200, 'text/html', gamePage(engine, options));
    return true;
  });
  started = world;
  return world;
}

// Each test waits on the emulator's page and a popup login on a machine that may be busy.
test.describe.configure({ timeout: 60_000 });

let world: EngineWorld;
test.beforeAll(async () => {
  world = await startWorld();
});
test.afterAll(async () => {
  await world?.close();
});

interface Outcome {
  ok: boolean;
  user?: { id: number; username?: string };
  owns?: Record<string, boolean>;
  gameToken?: string;
  code?: string;
  message?: string;
  playerMessage?: string;
}

async function openGame(page: Page, engine: Engine, query = ''): Promise<void> {
  await page.goto(`${world.game}/${engine}.html${query}`);
  await page.waitForFunction(() => (window as unknown as { ready?: boolean }).ready === true);
}

async function outcomes(page: Page): Promise<Outcome[]> {
  return page.evaluate(() => (window as unknown as { outcomes: Outcome[] }).outcomes);
}

/** What the engine's side received from its drop-in's restore: `{ user, owns }` or `null`, each. */
async function restored(page: Page): Promise<({ user: { id: number }; owns: Record<string, boolean> } | null)[]> {
  return page.evaluate(
    () => (window as unknown as { restored: ({ user: { id: number }; owns: Record<string, boolean> } | null)[] }).restored,
  );
}

async function approve(popup: Page, userId: number = C.users.gamer): Promise<void> {
  await expect(popup.getByRole('heading', { level: 1 })).toHaveText(/^Authorize /, { timeout: 15_000 });
  await popup.getByLabel('Log in as').selectOption(String(userId));
  await popup.getByRole('button', { name: 'Approve' }).click();
}

for (const engine of ENGINES) {
  test.describe(engine, () => {
    for (const button of ['Play', 'Play (from the game loop)']) {
      test(`${engine}: ${button === 'Play' ? 'a click' : 'a frame after a click'} logs in through the popup, and the game receives the user and owns, and no game token (one it carried would be bound to no key)`, async ({
        page,
        context,
      }) => {
        await openGame(page, engine);
        const opened = context.waitForEvent('page');
        await page.getByRole('button', { name: button, exact: true }).click();
        const popup = await opened;
        await approve(popup);
        await expect.poll(() => outcomes(page), { timeout: 15_000 }).toHaveLength(1);
        const [outcome] = await outcomes(page);
        expect(outcome).toMatchObject({ ok: true, user: { id: C.users.gamer }, owns: { [C.games.starfallKeep]: true } });
        expect(outcome!.gameToken, 'a login without a DPoP proof gets no game token').toBeUndefined();
        await expect.poll(() => popup.isClosed()).toBe(true);
      });
    }

    test(`${engine}: with renew the page keeps the game token, and the game calls the site's API through the drop-in's fetch`, async ({
      page,
      context,
    }) => {
      await openGame(page, engine, '?session');
      const opened = context.waitForEvent('page');
      await page.getByRole('button', { name: 'Play', exact: true }).click();
      await approve(await opened);
      await expect.poll(() => outcomes(page), { timeout: 15_000 }).toHaveLength(1);
      const [outcome] = await outcomes(page);
      expect(outcome).toMatchObject({ ok: true, user: { id: C.users.gamer }, owns: { [C.games.starfallKeep]: true } });
      expect(outcome!.gameToken, 'the game session keeps the game token').toBeUndefined();

      const before = world.apiCalls.length;
      const callApi = (init: { method: string; headers?: Record<string, string>; body?: string }) =>
        page.evaluate(({ url, init }) => (window as unknown as { callApi(url: string, init: object): unknown }).callApi(url, init), {
          url: world.api,
          init,
        });
      const fetched = () => page.evaluate(() => (window as unknown as { fetched: { status: number; body: string }[] }).fetched);
      await callApi({ method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ stars: 5 }) });
      await expect.poll(fetched, { timeout: 15_000 }).toEqual([{ status: 204, body: '' }]);
      await callApi({ method: 'GET' });
      await expect.poll(fetched, { timeout: 15_000 }).toHaveLength(2);
      const [, read] = await fetched();
      expect(read!.status).toBe(200);
      expect(JSON.parse(read!.body)).toEqual({ user: C.users.gamer, progress: { stars: 5 } });

      // The site received the game token on both calls; the engine's side was never handed it.
      const calls = world.apiCalls.slice(before);
      expect(calls.map((call) => call.method)).toEqual(['PUT', 'GET']);
      const token = calls[0]!.authorization?.replace(/^DPoP /, '') ?? '';
      expect(token).toMatch(/^ey[\w-]+\.[\w-]+\.[\w-]+$/);
      expect(calls[1]!.authorization).toBe(`DPoP ${token}`);
      const handed = await page.evaluate(() =>
        JSON.stringify([(window as unknown as { shapes: unknown }).shapes, (window as unknown as { outcomes: unknown }).outcomes]),
      );
      expect(handed).not.toContain(token);
    });

    test(`${engine}: with renew, the drop-in's restore answers null on a page that kept no login, and after a login and a reload the player, without a popup`, async ({
      page,
      context,
    }) => {
      await openGame(page, engine, '?session');
      await page.evaluate(() => (window as unknown as { restoreLogin(): unknown }).restoreLogin());
      await expect.poll(() => restored(page), { timeout: 15_000 }).toEqual([null]);

      const opened = context.waitForEvent('page');
      await page.getByRole('button', { name: 'Play', exact: true }).click();
      await approve(await opened);
      await expect.poll(() => outcomes(page), { timeout: 15_000 }).toHaveLength(1);
      expect((await outcomes(page))[0]).toMatchObject({ ok: true });
      await expect.poll(() => context.pages().length).toBe(1);

      let popups = 0;
      context.on('page', () => popups++);
      await page.reload();
      await page.waitForFunction(() => (window as unknown as { ready?: boolean }).ready === true);
      await page.evaluate(() => (window as unknown as { restoreLogin(): unknown }).restoreLogin());
      await expect.poll(() => restored(page), { timeout: 15_000 }).toHaveLength(1);
      const [player] = await restored(page);
      expect(player).toMatchObject({ user: { id: C.users.gamer, username: expect.any(String) }, owns: { [C.games.starfallKeep]: true } });
      expect(popups, 'no popup, no click').toBe(0);

      // The restored login calls the site's API, with the game token the engine's side never saw.
      const before = world.apiCalls.length;
      await page.evaluate(
        (url) => (window as unknown as { callApi(url: string, init: object): unknown }).callApi(url, { method: 'GET' }),
        world.api,
      );
      await expect
        .poll(() => page.evaluate(() => (window as unknown as { fetched: unknown[] }).fetched), { timeout: 15_000 })
        .toHaveLength(1);
      const [read] = await page.evaluate(() => (window as unknown as { fetched: { status: number; body: string }[] }).fetched);
      expect(read!.status).toBe(200);
      expect(JSON.parse(read!.body)).toMatchObject({ user: C.users.gamer });
      const token = world.apiCalls[before]!.authorization?.replace(/^DPoP /, '') ?? '';
      expect(token).toMatch(/^ey[\w-]+\.[\w-]+\.[\w-]+$/);
      const handed = await page.evaluate(() =>
        JSON.stringify([(window as unknown as { shapes: unknown }).shapes, (window as unknown as { restored: unknown }).restored]),
      );
      expect(handed).not.toContain(token);
    });

    test(`${engine}: a closed popup arrives as popup_closed in the engine's error shape, with the player's words`, async ({
      page,
      context,
    }) => {
      await openGame(page, engine);
      const opened = context.waitForEvent('page');
      await page.getByRole('button', { name: 'Play', exact: true }).click();
      const popup = await opened;
      await expect(popup.getByRole('heading', { level: 1 })).toHaveText(/^Authorize /, { timeout: 15_000 });
      await popup.close();
      await expect.poll(() => outcomes(page), { timeout: 15_000 }).toHaveLength(1);
      const [outcome] = await outcomes(page);
      expect(outcome).toMatchObject({
        ok: false,
        code: 'popup_closed',
        playerMessage: 'The itch.io window was closed before the login finished.',
      });
      expect(outcome!.message).toBeTruthy();
    });
  });
}

test.describe('bridge', () => {
  test('a cancelled login closes its popup and ends in aborted', async ({ page, context }) => {
    await openGame(page, 'godot');
    const opened = context.waitForEvent('page');
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    const popup = await opened;
    const id = await page.evaluate(() => (window as unknown as { ids: string[] }).ids[0]!);
    expect(await page.evaluate((id) => (window as unknown as { cancelLogin(id: string): boolean }).cancelLogin(id), id)).toBe(true);
    await expect.poll(() => outcomes(page)).toHaveLength(1);
    expect((await outcomes(page))[0]).toMatchObject({ ok: false, code: 'aborted' });
    await expect.poll(() => popup.isClosed()).toBe(true);
    expect(
      await page.evaluate((id) => (window as unknown as BridgeWindow).ItchOAuth.bridge.cancel(id), id),
      'a settled login cancels nothing',
    ).toBe(false);
  });

  test('options that are not a JSON object of known strings end in config_invalid through the callback, after login returned', async ({
    page,
  }) => {
    await openGame(page, 'godot');
    const results = await page.evaluate(async () => {
      const seen: string[] = [];
      const order: string[] = [];
      (window as unknown as { onBridge(json: string): void }).onBridge = (json) => {
        order.push('callback');
        seen.push(json);
      };
      const bad = ['{', '[]', 'null', '"x"', '{"clientId":7}', '{"client_id":"a"}', '{"clientId":"a","signal":"x"}'];
      for (const options of bad) {
        (window as unknown as BridgeWindow).ItchOAuth.bridge.login(options, 'onBridge');
        order.push('returned');
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
      return { seen: seen.map((json) => JSON.parse(json)), order };
    });
    expect(results.order.slice(0, 7), 'the callback never runs inside login()').toEqual(Array(7).fill('returned'));
    expect(results.seen).toHaveLength(7);
    // Beside the developer's message, the player's sentence for the code, in the page's language.
    for (const result of results.seen)
      expect(result).toMatchObject({
        ok: false,
        code: 'config_invalid',
        playerMessage: 'Logging in with itch.io is not set up correctly on this site.',
      });
    // (In any order: `[]` is an empty set of options, refused by login() itself, a moment later.)
    expect(results.seen.map((result) => result.message).join('\n')).toContain('{"client_id":"a"}');
  });

  test('a callback name that names no function, or reaches the Function constructor, throws at once, and no login starts', async ({
    page,
    context,
  }) => {
    await openGame(page, 'godot');
    let popups = 0;
    context.on('page', () => popups++);
    const errors = await page.evaluate(() =>
      [
        'nowhere',
        'ItchOAuth',
        'ItchOAuth.nothing.deeper',
        '',
        // Functions all, but a name would make code of the result with them.
        'Function',
        'ItchOAuth.login.constructor',
        'ItchOAuth.login.__proto__.constructor',
        'ItchOAuth["login"]',
      ].map((name) => {
        try {
          (window as unknown as BridgeWindow).ItchOAuth.bridge.login('{}', name);
          return 'no error';
        } catch (error) {
          return `${(error as Error).name}: ${(error as Error).message}`;
        }
      }),
    );
    for (const error of errors) expect(error).toMatch(/^TypeError: ItchOAuth\.bridge: .* is not a global function$/);
    await page.waitForTimeout(300);
    expect(popups).toBe(0);
  });
});

/** The bridge, in the page (for the tests that call it directly). */
interface BridgeWindow {
  ItchOAuth: { bridge: { login(options: string, callback: string): string; cancel(id: string): boolean } };
}
