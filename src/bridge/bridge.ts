// The bridge: login() for game engines, whose JavaScript interfaces pass strings and call back by
// name (a Unity .jslib, Godot's JavaScriptBridge, GameMaker and Defold extensions, Construct
// scripts). Nothing here knows an engine: engines/<engine>/ adapts each one to it.
import type { ItchOAuthErrorCode } from '../core/errors.js';
import type { LoginOptions, LoginResult } from '../core/login.js';

/** The options a bridge login accepts: those of `login()` but `signal`, each a string. */
const OPTION_NAMES = ['clientId', 'redirectUri', 'scope', 'baseUrl', 'mode', 'backend', 'returnTo'];

/** What the bridge's callback receives, as JSON. */
export type BridgeResult =
  | { id: string; ok: true; response: unknown }
  | { id: string; ok: false; code: string; message: string; playerMessage?: string | undefined };

/** `ItchOAuth.bridge`: string in, string out, the outcome through a global function named by the game. */
export interface Bridge {
  /**
   * Logs in with itch.io: `login()` with strings in and out. Call it in the game's click or key
   * handler, or from its loop (see `login()` for what happens when the click's activation is gone).
   *
   * It returns at once with the login's id, and when the login settles it calls the global
   * function `callbackName` once, never before it has returned, with one JSON string (a
   * {@link BridgeResult}): `{"id":"1","ok":true,"response":<your token endpoint's JSON answer>}`
   * or `{"id":"1","ok":false,"code":"popup_closed","message":"…","playerMessage":"…"}` (`code` from
   * the error codes, `message` for the developer, `playerMessage` the sentence to show the player,
   * in the page's language).
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
  // (Not an object: null throws here, an array or a string has names login() does not take.)
  if (Object.entries(options).some(([name, value]) => !OPTION_NAMES.includes(name) || typeof value != 'string'))
    throw Error(`bad login() options: ${json}`);
  return options;
}

/**
 * The bridge over a `login()`: the script-tag file's `ItchOAuth.bridge` is made from
 * `ItchOAuth.login` and `ItchOAuth.playerMessage`; with the package, `createBridge(login, playerMessage)`.
 *
 * @param playerMessage gives a failure's `playerMessage` (without it, the JSON has none).
 */
export function createBridge(
  login: (options: LoginOptions) => Promise<LoginResult>,
  playerMessage?: (code: ItchOAuthErrorCode) => Promise<string>,
): Bridge {
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
          async ({ code = 'config_invalid', message }: { code?: ItchOAuthErrorCode; message: string }): Promise<BridgeResult> => ({
            id,
            ok: false,
            code,
            message,
            playerMessage: await playerMessage?.(code),
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
