// The JavaScript half of Log in with itch.io for Construct 3: a script module (Scripts folder).
// The project loads itch-oauth.iife.js and itch-oauth-bridge.iife.js as classic scripts first (see
// engines/construct/README.md). The outcome calls the event sheet's functions through
// runtime.callFunction(name, ...params) (https://www.construct.net/en/make-games/manuals/construct-3/scripting/scripting-reference/iruntime),
// whose parameters are numbers, strings or booleans:
//   ItchLoginSucceeded(responseJson, userId, displayName, ownsJson)
//   ItchLoginFailed(code, message, playerMessage)   (playerMessage: the sentence to show the player)
// Import it in a script (e.g. importsForEvents.js: `import * as ItchLogin from './itch-login.js';`)
// and call ItchLogin.login(runtime, {...}) from an "On clicked"/"On touched" event's script action.
//
// Every name from outside this file is written as a string (obj["name"]): Construct's export with
// "Minify script: Advanced" renames every property written as obj.name, which would break the
// names the bridge, the runtime and the JSON use
// (https://www.construct.net/en/make-games/manuals/construct-3/scripting/guides/script-minification).

const pending = new Map();

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
};

/**
 * Starts a login; returns its id. `options` are login()'s, with their names in quotes:
 * "clientId", "redirectUri", "backend", "scope", "baseUrl", "mode". `functions` renames the event
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

/** Cancels a login: ItchLoginFailed receives "aborted". */
export function cancel(id) {
  return globalThis['ItchOAuth']['bridge']['cancel'](String(id));
}
