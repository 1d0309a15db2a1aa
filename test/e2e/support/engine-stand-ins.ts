// The engines' JavaScript halves (engines/*) on a game page, each under a stand-in that follows its
// engine's documented JavaScript interface and mirrors what the engine-side code (GDScript, C#,
// GML, the event sheet, Lua) does with the outcome: for engine-bridges.spec.ts (Chromium) and the
// engine matrix (test/engines/scenarios-outages.ts: Chromium, Firefox, WebKit). See
// engine-bridges.spec.ts for each engine's interface.

export const ENGINES = ['godot', 'unity', 'gamemaker', 'construct', 'defold'] as const;
export type Engine = (typeof ENGINES)[number];

/**
 * Each engine: the scripts its page loads, and a stand-in whose `startLogin()` does what the
 * engine-side code does, and which records in `outcomes` what that code ends up with, in a common
 * shape: `{ ok: true, user, owns, gameToken }` or `{ ok: false, code, message, playerMessage }` (the
 * player's words, where the engine's side finds them); and whose `callApi(url, init)` calls the
 * drop-in's fetch as the engine's code does, recording in `fetched` `{ status, body }`; and whose
 * `restoreLogin()` calls the drop-in's restore as the engine's code does at start, recording in
 * `restored` `{ user, owns }` or `null`. `shapes` keeps what the engine itself was handed, to check
 * its interface's rules.
 */
export const STAND_INS: Record<Engine, { scripts: string[]; standIn: string }> = {
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
// itch_login.gd: the autoload keeps _on_result; _settled(args) sets player_message and emits
// logged_in or login_failed.
const autoload = { _on_result: null };
window.startLogin = () => {
  autoload._on_result ??= JavaScriptBridge.create_callback((args) => {
    shapes.push(args);
    const result = JSON.parse(String(args[0]));
    outcomes.push(result.ok
      ? { ok: true, user: result.response.user, owns: result.response.owns ?? {}, gameToken: result.response.gameToken }
      : { ok: false, code: result.code, message: result.message, playerMessage: result.playerMessage ?? '' });
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
      waiting.get(failure.id)?.[1](failure.code, failure.message, failure.playerMessage ?? '');
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
      (code, message, playerMessage) => outcomes.push({ ok: false, code, message, playerMessage }),
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
      : { ok: false, code: map.code, message: map.message, playerMessage: map.player_message });
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
    } else if (name === 'ItchLoginFailed') outcomes.push({ ok: false, code: params[0], message: params[1], playerMessage: params[2] });
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
      : { ok: false, code: table.code, message: table.message, playerMessage: table.player_message });
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

export function gamePage(engine: Engine, options: object): string {
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
