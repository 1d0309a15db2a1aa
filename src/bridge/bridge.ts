// The bridge: login() for game engines, whose JavaScript interfaces pass strings and call back by
// name (a Unity .jslib, Godot's JavaScriptBridge, GameMaker and Defold extensions, Construct
// scripts). Nothing here knows an engine: engines/<engine>/ adapts each one to it.
import type { LoginOptions, LoginResult } from '../core/login.js';

/** The options a bridge login accepts: those of `login()` but `signal`, each a string. */
const OPTION_NAMES = ['clientId', 'redirectUri', 'scope', 'baseUrl', 'mode', 'backend', 'returnTo'];

/**
 * What the bridge's callback receives, as JSON.
 * @group Game engines
 */
export type BridgeResult = { id: string; ok: true; response: unknown } | { id: string; ok: false; code: string; message: string };

/**
 * `ItchOAuth.bridge`: string in, string out, the outcome through a global function named by the game.
 * @group Game engines
 */
export interface Bridge {
  /**
   * Logs in with itch.io: `login()` with strings in and out. Call it in the game's click or key
   * handler, or from its loop (see `login()` for what happens when the click's activation is gone).
   *
   * It returns at once with the login's id, and when the login settles it calls the global
   * function `callbackName` once, never before it has returned, with one JSON string (a
   * {@link BridgeResult}): `{"id":"1","ok":true,"response":<your token endpoint's JSON answer>}`
   * or `{"id":"1","ok":false,"code":"popup_closed","message":"…"}` (`code` from the error codes).
   * Options that are not JSON, not an object, or have a name `login()` does not take or a value
   * that is not a string end the same way, with `config_invalid`: nothing is thrown into the
   * engine's frame for them.
   *
   * @param optionsJson `login()`'s options as a JSON object: `clientId`, `redirectUri`, `scope`,
   *   `baseUrl`, `mode`, `backend`, `returnTo`.
   * @param callbackName the name of a global function; dots reach into objects (`MyGame.onLogin`).
   * @returns the login's id, for `cancel`.
   * @throws TypeError when `callbackName` names no function: no login starts.
   * @example
   * window.onItchLogin = (json) => game.receive(JSON.parse(json));
   * const id = ItchOAuth.bridge.login('{"clientId":"…","redirectUri":"…","backend":"…"}', 'onItchLogin');
   */
  login(optionsJson: string, callbackName: string): string;
  /**
   * Cancels a login of the bridge: its popup closes and its callback receives `aborted`.
   *
   * @param id what `login` returned.
   * @returns whether a login under way had that id.
   */
  cancel(id: string): boolean;
}

/**
 * The function at `name` from the global object (`onLogin`, or a dotted path such as
 * `MyGame.onLogin`), through own properties only: a name reaches the game's functions, not the
 * prototypes' machinery (`onLogin.constructor` is `Function`, which would make code of a result; the `Function` of any
 * window is refused too, as the one function that is its own constructor).
 */
function callbackAt(name: string): (resultJson: string) => unknown {
  const found = String(name)
    .split('.')
    .reduce<unknown>(
      (object, key) => (Object(object) === object && Object.hasOwn(object as object, key) ? (object as Record<string, unknown>)[key] : 0),
      globalThis,
    );
  if (typeof found != 'function' || found.constructor == found) throw TypeError(`ItchOAuth.bridge: ${name} is not a global function`);
  return found as (resultJson: string) => unknown;
}

/** The options from JSON, strictly: an object of known names with string values. */
function optionsOf(json: string): LoginOptions {
  const options = JSON.parse(json);
  if (Object(options) !== options || Array.isArray(options)) throw Error(`options must be a JSON object, got ${json}`);
  for (const name in options) {
    if (!OPTION_NAMES.includes(name) || typeof options[name] != 'string') throw Error(`bad option ${name} in ${json}`);
  }
  return options;
}

/**
 * The bridge over a `login()`: the script-tag file's `ItchOAuth.bridge` is made from
 * `ItchOAuth.login`, the package's `bridge` from its `login`.
 *
 * @example
 * import { createBridge, login } from 'itch-oauth-widget';
 * const bridge = createBridge(login);
 * // From the engine: the options as JSON, the name of a global function that receives the outcome as JSON.
 * bridge.login(JSON.stringify({ clientId, redirectUri, backend: '/auth/itch' }), 'onItchLogin');
 * @group Game engines
 */
export function createBridge(login: (options: LoginOptions) => Promise<LoginResult>): Bridge {
  const running = new Map<string, AbortController>();
  let lastId = 0;
  return {
    login(optionsJson, callbackName) {
      const callback = callbackAt(callbackName);
      const id = String(++lastId);
      const abort = new AbortController();
      running.set(id, abort);
      Promise.resolve()
        .then(() => login({ ...optionsOf(optionsJson), signal: abort.signal }))
        .then(
          ({ response }): BridgeResult => ({ id, ok: true, response }),
          // login() rejects with an ItchOAuthError; anything else here is the options' JSON.
          (error: { code?: string; message: string }): BridgeResult => ({
            id,
            ok: false,
            code: error.code ?? 'config_invalid',
            message: error.message,
          }),
        )
        .then((result) => {
          running.delete(id);
          callback(JSON.stringify(result));
        });
      return id;
    },
    cancel(id) {
      const abort = running.get(String(id));
      abort?.abort();
      return abort !== undefined;
    },
  };
}
