// The engines' JavaScript halves (engines/*) in Chromium, each under a stand-in that follows its
// engine's documented JavaScript interface, against the emulator and a token handler with
// sessions and an ownership check: the answer a game gets is { user, owns, gameToken }; with renew,
// { user, owns }, the game calls the site's API through its drop-in's fetch without the token, and
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

const ENGINES = ['godot', 'unity', 'gamemaker', 'construct', 'defold'] as const;
type Engine = (typeof ENGINES)[number];

/**
 * Each engine: the scripts its page loads, and a stand-in whose `startLogin()` does what the
 * engine-side code does, and which records in `outcomes` what that code ends up with, in a common
 * shape: `{ ok: true, user, owns, gameToken }` or `{ ok: false, code, message }`; and whose
 * `callApi(url, init)` calls the drop-in's fetch as the engine's code does, recording in `fetched`
 * `{ status, body }`; and whose `restoreLogin()` calls the drop-in's restore as the engine's code does
 * at start, recording in `restored` `{ user, owns }` or `null`. `shapes` keeps what the engine itself
 * was handed, to check its interface's rules.
 */
const STAND_INS: Record<Engine, { scripts: string[]; standIn: string }> = {
  godot: {
    scripts: ['/engines/godot/addons/itch_login/itch_login.js'],
    standIn: `
const JavaScriptBridge = {
  create_callback(callable) {
    const object = { referenced: true };
    object.js = (...args) => {
      if (!object.referenced) throw new Error('Godot: a callback whose JavaScriptObject was freed');
      callable(args);
    };
    return object;
  },
};
// itch_login.gd: the autoload keeps _on_result; _settled(args) emits logged_in or login_failed.
const autoload = { _on_result: null };
window.startLogin = () => {
  autoload._on_result ??= JavaScriptBridge.create_callback((args) => {
    shapes.push(args);
    const result = JSON.parse(String(args[0]));
    outcomes.push(result.ok
      ? { ok: true, user: result.response.user, owns: result.response.owns ?? {}, gameToken: result.response.gameToken }
      : { ok: false, code: result.code, message: result.message });
  });
  return ItchLoginGodot.login(JSON.stringify(OPTIONS), autoload._on_result.js);
};
// itch_login.gd's fetch(url, init, on_answer): _fetched(args) calls on_answer(status, body), 0 without an answer.
window.callApi = (url, init) => {
  autoload._on_fetched ??= JavaScriptBridge.create_callback((args) => {
    shapes.push(args);
    const result = JSON.parse(String(args[0]));
    const ok = result.ok && typeof result.response === 'object';
    fetched.push({ status: ok ? result.response.status : 0, body: ok ? String(result.response.body) : '' });
  });
  return ItchLoginGodot.fetch(url, JSON.stringify(init), autoload._on_fetched.js);
};
// itch_login.gd's restore(on_restored): _restored(args) calls on_restored(user, owns), or (null, {}).
window.restoreLogin = () => {
  autoload._on_restored ??= JavaScriptBridge.create_callback((args) => {
    shapes.push(args);
    const result = JSON.parse(String(args[0]));
    const kept = result.ok && typeof result.response === 'object' && result.response !== null;
    restored.push(kept ? { user: result.response.user, owns: result.response.owns ?? {} } : null);
  });
  return ItchLoginGodot.restore(JSON.stringify(OPTIONS), autoload._on_restored.js);
};
window.cancelLogin = (id) => ItchLoginGodot.cancel(id);
window.ready = true;`,
  },
  unity: {
    scripts: [],
    standIn: `
const HEAPU8 = new Uint8Array(1 << 16);
let heapTop = 8;
const _malloc = (size) => { const at = heapTop; heapTop += size; return at; };
const lengthBytesUTF8 = (text) => new TextEncoder().encode(text).length;
const stringToUTF8 = (text, at, max) => {
  const bytes = new TextEncoder().encode(text).subarray(0, max - 1);
  HEAPU8.set(bytes, at);
  HEAPU8[at + bytes.length] = 0;
};
const UTF8ToString = (at) => { let end = at; while (HEAPU8[end] !== 0) end++; return new TextDecoder().decode(HEAPU8.subarray(at, end)); };
// ItchLogin.cs, the MonoBehaviour on the GameObject "ItchLogin": callbacks by login id.
const waiting = new Map();
const fetching = new Map();
const gameObjects = {
  ItchLogin: {
    OnItchFetchAnswer(idStatusBody) {
      const [id, status] = idStatusBody.split('\\n', 2);
      const body = idStatusBody.slice(id.length + status.length + 2);
      fetching.get(id)?.(Number(status), body);
      fetching.delete(id);
    },
    OnItchLoginSuccess(idAndResponse) {
      const newline = idAndResponse.indexOf('\\n');
      const id = idAndResponse.slice(0, newline);
      waiting.get(id)?.[0](idAndResponse.slice(newline + 1));
      waiting.delete(id);
    },
    OnItchLoginError(failureJson) {
      const failure = JSON.parse(failureJson);
      waiting.get(failure.id)?.[1](failure.code, failure.message);
      waiting.delete(failure.id);
    },
  },
};
const SendMessage = (objectName, methodName, value, ...more) => {
  if (more.length > 0 || (typeof value !== 'string' && typeof value !== 'number'))
    throw new Error('SendMessage passes one string or number');
  shapes.push([objectName, methodName, value]);
  gameObjects[objectName][methodName](value);
};
const LibraryManager = { library: {} };
const mergeInto = (library, functions) => Object.assign(library, functions);
const cString = (text) => { const size = lengthBytesUTF8(text) + 1; const at = _malloc(size); stringToUTF8(text, at, size); return at; };
fetch('/engines/unity/Plugins/WebGL/ItchLogin.jslib').then((response) => response.text()).then((source) => {
  new Function('mergeInto', 'LibraryManager', source)(mergeInto, LibraryManager);
  const build = {};
  for (const [name, fn] of Object.entries(LibraryManager.library)) {
    if (typeof fn !== 'function') continue; // (name__sig: its signature, for Emscripten)
    build['_' + name] = new Function('UTF8ToString', 'lengthBytesUTF8', '_malloc', 'stringToUTF8', 'SendMessage', 'return ' + fn.toString())(
      UTF8ToString, lengthBytesUTF8, _malloc, stringToUTF8, SendMessage);
  }
  // ItchLogin.Login(onSuccess, onError), through [DllImport("__Internal")] ItchLogin_Login.
  window.startLogin = () => {
    const id = UTF8ToString(build._ItchLogin_Login(cString(JSON.stringify(OPTIONS)), cString('ItchLogin')));
    waiting.set(id, [
      (responseJson) => { const response = JSON.parse(responseJson); outcomes.push({ ok: true, user: response.user, owns: response.owns ?? {}, gameToken: response.gameToken }); },
      (code, message) => outcomes.push({ ok: false, code, message }),
    ]);
    return id;
  };
  // ItchLogin.Restore(onRestored), through ItchLogin_Restore: answered as a login, "null" for none kept.
  window.restoreLogin = () => {
    const id = UTF8ToString(build._ItchLogin_Restore(cString(JSON.stringify(OPTIONS)), cString('ItchLogin')));
    waiting.set(id, [
      (responseJson) => { const response = JSON.parse(responseJson); restored.push(response === null ? null : { user: response.user, owns: response.owns ?? {} }); },
      () => restored.push(null),
    ]);
    return id;
  };
  window.cancelLogin = (id) => build._ItchLogin_Cancel(cString(id)) === 1;
  // ItchLogin.Fetch(url, method, jsonBody, onAnswer), through ItchLogin_Fetch.
  window.callApi = (url, init) => {
    const id = UTF8ToString(build._ItchLogin_Fetch(cString(url), cString(init.method ?? 'GET'), cString(init.body ?? ''), cString('ItchLogin')));
    fetching.set(id, (status, body) => fetched.push({ status, body }));
    return id;
  };
  window.ready = true;
});`,
  },
  gamemaker: {
    scripts: ['/engines/gamemaker/itch_login.js'],
    standIn: `
// The runner's GMS_API; the Async Social event of itch_login_async_social.gml.
window.GMS_API = {
  send_async_event_social(map) {
    for (const value of Object.values(map))
      if (typeof value !== 'string' && typeof value !== 'number') throw new Error('async_load holds strings and numbers');
    shapes.push(map);
    if (map.type === 'itch_login_fetch') fetched.push({ status: map.status, body: map.body });
    if (map.type === 'itch_login_restore')
      restored.push(map.restored === 1 ? { user: { id: map.user_id, username: map.username, display_name: map.display_name }, owns: JSON.parse(map.owns) } : null);
    if (map.type !== 'itch_login') return;
    outcomes.push(map.ok === 1
      ? { ok: true, user: { id: map.user_id, username: map.username, display_name: map.display_name }, owns: JSON.parse(map.owns), gameToken: map.game_token }
      : { ok: false, code: map.code, message: map.message });
  },
};
window.startLogin = () => itch_login(JSON.stringify(OPTIONS));
window.cancelLogin = (id) => itch_login_cancel(id) === 1;
window.callApi = (url, init) => itch_login_fetch(url, init.method ?? 'GET', init.body ?? '');
window.restoreLogin = () => itch_login_restore(JSON.stringify(OPTIONS));
window.ready = true;`,
  },
  construct: {
    scripts: [],
    standIn: `
// Construct's runtime: callFunction(name, ...params) runs the event sheet's function of that name.
const runtime = {
  callFunction(name, ...params) {
    if (params.some((param) => !['string', 'number', 'boolean'].includes(typeof param))) throw new Error('Construct function parameters are numbers, strings or booleans');
    shapes.push([name, ...params]);
    if (name === 'ItchLoginSucceeded') {
      const [responseJson, userId, displayName, ownsJson] = params;
      const response = JSON.parse(responseJson);
      outcomes.push({ ok: true, user: { ...response.user, id: userId, display_name: displayName }, owns: JSON.parse(ownsJson), gameToken: response.gameToken });
    } else if (name === 'ItchLoginFailed') outcomes.push({ ok: false, code: params[0], message: params[1] });
  },
};
import('/engines/construct/itch-login.js').then((ItchLogin) => {
  window.startLogin = () => ItchLogin.login(runtime, OPTIONS);
  window.cancelLogin = (id) => ItchLogin.cancel(id);
  window.callApi = (url, init) => ItchLogin.fetch(url, init).then((answer) => fetched.push({ status: answer['status'], body: answer['body'] }));
  window.restoreLogin = () => ItchLogin.restore(OPTIONS).then((player) => restored.push(player === null ? null : { user: player['user'], owns: player['owns'] }));
  window.ready = true;
});`,
  },
  defold: {
    scripts: ['/engines/defold/itch_login.js'],
    standIn: `
// jstodef: an object reaches the Lua listeners as a table (JSON); html5.run evaluates its code.
window.JsToDef = {
  send(messageId, message) {
    const table = JSON.parse(JSON.stringify(message));
    shapes.push([messageId, table]);
    if (messageId === 'itch_login_fetch') fetched.push({ status: table.status, body: table.body });
    if (messageId === 'itch_login_restore') restored.push(table.restored ? { user: table.user, owns: table.owns } : null);
    if (messageId !== 'itch_login') return;
    outcomes.push(table.ok
      ? { ok: true, user: table.user, owns: table.owns, gameToken: table.game_token }
      : { ok: false, code: table.code, message: table.message });
  },
};
const html5 = { run: (code) => String((0, eval)(code)) };
// itch_login.lua: html5.run("ItchLoginDefold.login(" .. json.encode(options) .. ")")
window.startLogin = () => html5.run('ItchLoginDefold.login(' + JSON.stringify(OPTIONS) + ')');
window.cancelLogin = (id) => html5.run("ItchLoginDefold.cancel('" + id + "')") === 'true';
// itch_login.lua: html5.run("ItchLoginDefold.fetch(" .. json.encode({ url = url, init = init }) .. ")")
window.callApi = (url, init) => html5.run('ItchLoginDefold.fetch(' + JSON.stringify({ url, init }) + ')');
// itch_login.lua: html5.run("ItchLoginDefold.restore(" .. json.encode(options) .. ")")
window.restoreLogin = () => html5.run('ItchLoginDefold.restore(' + JSON.stringify(OPTIONS) + ')');
window.ready = true;`,
  },
};

function gamePage(engine: Engine, options: object): string {
  const { scripts, standIn } = STAND_INS[engine];
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${engine} game</title>
<script src="/dist/itch-oauth-button.iife.js"></script>
<script src="/dist/itch-oauth-bridge.iife.js"></script>
${scripts.map((src) => `<script src="${src}"></script>`).join('\n')}
<script>
const OPTIONS = ${JSON.stringify(options)};
const outcomes = [];
const fetched = [];
const restored = [];
const shapes = [];
window.outcomes = outcomes;
window.fetched = fetched;
window.restored = restored;
window.shapes = shapes;
window.ids = [];
${standIn}
</script></head><body>
<h1>${engine} game</h1>
<button id="play">Play</button><button id="loop">Play (from the game loop)</button>
<script>
// A click handler, as an engine's input event calls it.
document.getElementById('play').onclick = () => ids.push(startLogin());
// The game loop: the click sets a flag, the next frame calls the engine's login.
let wanted = false;
document.getElementById('loop').onclick = () => { wanted = true; };
(function frame() {
  if (wanted) { wanted = false; ids.push(startLogin()); }
  requestAnimationFrame(frame);
})();
</script></body></html>`;
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
      test(`${engine}: ${button === 'Play' ? 'a click' : 'a frame after a click'} logs in through the popup, and the game receives the user, owns and its game token`, async ({
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
        expect(outcome!.gameToken, 'a framed game gets a game token (a JWT), never a cookie').toMatch(/^ey[\w-]+\.[\w-]+\.[\w-]+$/);
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
      const token = calls[0]!.authorization?.replace(/^Bearer /, '') ?? '';
      expect(token).toMatch(/^ey[\w-]+\.[\w-]+\.[\w-]+$/);
      expect(calls[1]!.authorization).toBe(`Bearer ${token}`);
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
      const token = world.apiCalls[before]!.authorization?.replace(/^Bearer /, '') ?? '';
      expect(token).toMatch(/^ey[\w-]+\.[\w-]+\.[\w-]+$/);
      const handed = await page.evaluate(() =>
        JSON.stringify([(window as unknown as { shapes: unknown }).shapes, (window as unknown as { restored: unknown }).restored]),
      );
      expect(handed).not.toContain(token);
    });

    test(`${engine}: a closed popup arrives as popup_closed in the engine's error shape`, async ({ page, context }) => {
      await openGame(page, engine);
      const opened = context.waitForEvent('page');
      await page.getByRole('button', { name: 'Play', exact: true }).click();
      const popup = await opened;
      await expect(popup.getByRole('heading', { level: 1 })).toHaveText(/^Authorize /, { timeout: 15_000 });
      await popup.close();
      await expect.poll(() => outcomes(page), { timeout: 15_000 }).toHaveLength(1);
      const [outcome] = await outcomes(page);
      expect(outcome).toMatchObject({ ok: false, code: 'popup_closed' });
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
