// The JavaScript half of Log in with itch.io for Construct 3: a script module (Scripts folder).
// The project loads itch-oauth.iife.js and itch-oauth-bridge.iife.js as classic scripts first (see
// engines/construct/README.md). The outcome calls the event sheet's functions through
// runtime.callFunction(name, ...params) (https://www.construct.net/en/make-games/manuals/construct-3/scripting/scripting-reference/iruntime),
// whose parameters are numbers, strings or booleans:
//   ItchLoginSucceeded(responseJson, userId, displayName, ownsJson)
//   ItchLoginFailed(code, message)
// Import it in a script (e.g. importsForEvents.js: `import * as ItchLogin from './itch-login.js';`)
// and call ItchLogin.login(runtime, {...}) from an "On clicked"/"On touched" event's script action.

const pending = new Map();

/** The bridge's callback: the outcome goes to the event sheet of the login's runtime. */
globalThis.ItchLoginConstruct = {
  settled(resultJson) {
    const result = JSON.parse(resultJson);
    const login = pending.get(result.id);
    pending.delete(result.id);
    if (login === undefined) return;
    const { runtime, functions } = login;
    if (!result.ok) {
      runtime.callFunction(functions.failed, String(result.code), String(result.message));
      return;
    }
    const response = result.response ?? {};
    const user = response.user ?? {};
    runtime.callFunction(
      functions.succeeded,
      JSON.stringify(result.response ?? null),
      Number(user.id ?? 0),
      String(user.display_name || user.username || ''),
      JSON.stringify(response.owns ?? {}),
    );
  },
};

/**
 * Starts a login; returns its id. `options` are login()'s: clientId, redirectUri, backend, scope,
 * baseUrl, mode. `functions` renames the event sheet's functions.
 */
export function login(runtime, options, functions = {}) {
  const id = globalThis.ItchOAuth.bridge.login(JSON.stringify(options), 'ItchLoginConstruct.settled');
  pending.set(id, {
    runtime,
    functions: { succeeded: functions.succeeded ?? 'ItchLoginSucceeded', failed: functions.failed ?? 'ItchLoginFailed' },
  });
  return id;
}

/** Cancels a login: ItchLoginFailed receives "aborted". */
export function cancel(id) {
  return globalThis.ItchOAuth.bridge.cancel(String(id));
}
