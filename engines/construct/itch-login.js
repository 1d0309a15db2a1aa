// The JavaScript half of Log in with itch.io for Construct 3: a script module (Scripts folder).
// The project loads itch-oauth.iife.js and itch-oauth-bridge.iife.js as classic scripts first (see
// engines/construct/README.md). The outcome calls the event sheet's functions through
// runtime.callFunction(name, ...params) (https://www.construct.net/en/make-games/manuals/construct-3/scripting/scripting-reference/iruntime),
// whose parameters are numbers, strings or booleans:
//   ItchLoginSucceeded(responseJson, userId, displayName, ownsJson)
//   ItchLoginFailed(code, message, playerMessage)   (playerMessage: the sentence to show the player)
// With "renew" among the login's options, the page keeps the game token and ItchLogin.fetch(url,
// init) calls your site's API with it (a promise of { "status", "body" }): the game never holds it;
// and at start ItchLogin.restore(options) finds a login kept across a reload, without a click (a
// promise of { "user", "owns" } or null).
// Import it in a script (e.g. importsForEvents.js: `import * as ItchLogin from './itch-login.js';`)
// and call ItchLogin.login(runtime, {...}) from an "On clicked"/"On touched" event's script action.
//
// Every name from outside this file is written as a string (obj["name"]): Construct's export with
// "Minify script: Advanced" renames every property written as obj.name, which would break the
// names the bridge, the runtime and the JSON use
// (https://www.construct.net/en/make-games/manuals/construct-3/scripting/guides/script-minification).

const pending = new Map();
/** The fetches and restores under way: their promises' resolve functions, by the call's id. */
const fetches = new Map();
const restores = new Map();

/** Calls an event sheet's function; one missing or failing logs why, instead of vanishing. */
function callEventFunction(runtime, name, ...params) {
  const fail = (error) => console.error(`ItchLogin: the event sheet function "${name}" is missing or failed`, error);
  try {
    const returned = runtime['callFunction'](name, ...params);
    // (An async function, or a runtime that answers with a promise: its rejection is logged too.)
    if (returned != null && typeof returned['then'] === 'function') returned['then'](undefined, fail);
  } catch (error) {
    fail(error);
  }
}

/** The bridge's callback: the outcome goes to the event sheet of the login's runtime. */
globalThis['ItchLoginConstruct'] = {
  ['settled'](resultJson) {
    const result = JSON.parse(resultJson);
    const login = pending.get(result['id']);
    pending.delete(result['id']);
    if (login === undefined) return;
    const { runtime, succeeded, failed } = login;
    if (!result['ok']) {
      // (A function that declares two parameters ignores the third.)
      callEventFunction(runtime, failed, String(result['code']), String(result['message']), String(result['playerMessage'] ?? ''));
      return;
    }
    const response = result['response'] ?? {};
    const user = response['user'] ?? {};
    callEventFunction(
      runtime,
      succeeded,
      JSON.stringify(result['response'] ?? null),
      Number(user['id'] ?? 0),
      String(user['display_name'] || user['username'] || ''),
      JSON.stringify(response['owns'] ?? {}),
    );
  },
  /** The bridge's callback for `restore`: its promise resolves with the kept login, or null (a failure logged). */
  ['restored'](resultJson) {
    const result = JSON.parse(resultJson);
    const resolve = restores.get(result['id']);
    restores.delete(result['id']);
    if (!result['ok']) console.warn(`ItchLogin.restore: ${result['code']}: ${result['message']}`);
    const kept = result['ok'] ? result['response'] : null;
    resolve?.(kept ? { ['user']: kept['user'], ['owns']: kept['owns'] ?? {} } : null);
  },
  /** The bridge's callback for `fetch`: its promise resolves with the status (0: no answer) and the body. */
  ['fetched'](resultJson) {
    const result = JSON.parse(resultJson);
    const resolve = fetches.get(result['id']);
    fetches.delete(result['id']);
    const answer = result['ok'] ? result['response'] : { ['status']: 0, ['body']: '' };
    resolve?.({ ['status']: Number(answer['status']), ['body']: String(answer['body']) });
  },
};

/**
 * Starts a login; returns its id. `options` are login()'s, with their names in quotes:
 * "clientId", "redirectUri", "backend", "scope", "baseUrl", "mode", and "renew" (your
 * sessions.renew URL: the page then keeps the game token for `fetch`). `functions` renames the event
 * sheet's functions: { "succeeded": …, "failed": … }.
 */
export function login(runtime, options, functions = {}) {
  const id = globalThis['ItchOAuth']['bridge']['login'](JSON.stringify(options), 'ItchLoginConstruct.settled');
  pending.set(id, {
    runtime,
    succeeded: functions['succeeded'] ?? 'ItchLoginSucceeded',
    failed: functions['failed'] ?? 'ItchLoginFailed',
  });
  return id;
}

/**
 * Asks the page, without a click, whether the player is still signed in: after a reload, the
 * login kept with "renew" (in the frame's sessionStorage) is taken back and renewed with your
 * site. Call it at the game's start with the login's options (the first of the two makes the
 * page's game session with its options). Resolves with { "user", "owns" } (as a login's answer:
 * "owns" is {} without an ownership check), or null: no login was kept, the site refused it, or
 * it failed (logged: config_invalid without "renew"). Never rejects.
 */
export function restore(options) {
  return new Promise((resolve) => {
    const id = globalThis['ItchOAuth']['bridge']['restore'](JSON.stringify(options), 'ItchLoginConstruct.restored');
    restores.set(id, resolve);
  });
}

/**
 * Calls your site's API (a full URL) after a login with "renew" in its options: the page adds the
 * game token, which the game never holds. `init` is fetch()'s, with its names in quotes: "method",
 * "headers", "body" (a string). Resolves with { "status", "body" }: the HTTP status (0 when no
 * answer came) and the answer's text; never rejects.
 */
export function fetch(url, init = {}) {
  return new Promise((resolve) => {
    const id = globalThis['ItchOAuth']['bridge']['fetch'](String(url), JSON.stringify(init), 'ItchLoginConstruct.fetched');
    fetches.set(id, resolve);
  });
}

/** Cancels a login: ItchLoginFailed receives "aborted". */
export function cancel(id) {
  return globalThis['ItchOAuth']['bridge']['cancel'](String(id));
}
