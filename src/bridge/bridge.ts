// The bridge: login() for game engines, whose JavaScript interfaces pass strings and call back by
// name (a Unity .jslib, Godot's JavaScriptBridge, GameMaker and Defold extensions, Construct
// scripts). Nothing here knows an engine: engines/<engine>/ adapts each one to it.
import type { ItchOAuthErrorCode } from '../core/errors.js';
import type { GameSession, GameSessionOptions } from '../core/game-session.js';
import type { LoginOptions, LoginResult } from '../core/login.js';

/** The options a bridge login accepts: those of `login()` but `signal`, and `gameSession()`'s `renew` and `logout`, each a string. */
const OPTION_NAMES = ['clientId', 'redirectUri', 'scope', 'baseUrl', 'mode', 'backend', 'returnTo', 'renew', 'logout'];

/**
 * What the bridge's callback receives, as JSON.
 * @group Game engines
 */
export type BridgeResult =
  | { id: string; ok: true; response: unknown }
  | { id: string; ok: false; code: string; message: string; playerMessage?: string | undefined };

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
   * or `{"id":"1","ok":false,"code":"popup_closed","message":"…","playerMessage":"…"}` (`code` from
   * the error codes, `message` for the developer, `playerMessage` the sentence to show the player,
   * in the page's language).
   * Options that are not JSON, not an object, or have a name `login()` does not take or a value
   * that is not a string end the same way, with `config_invalid`: nothing is thrown into the
   * engine's frame for them.
   *
   * With `renew` (the site's `sessions.renew` URL) among the options, the login goes through the
   * page's one `gameSession()`: the game token stays in JavaScript, `response` is
   * `{ user, owns? }`, and {@link Bridge.fetch} sends the game's API calls with it.
   *
   * @param optionsJson `login()`'s options as a JSON object: `clientId`, `redirectUri`, `scope`,
   *   `baseUrl`, `mode`, `backend`, `returnTo`; and `renew`, `logout` for a game session.
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
  /**
   * After a reload: the game session of these options (with `renew`) takes the token this frame
   * kept (`gameSession().restore()`), or answers the player of a login this page made already. The
   * callback receives `response` `{ user, owns? }`, or `null` when no login was kept; `code`
   * `config_invalid` without `renew`. The page has one game session, made by the first `login`
   * with `renew` or `restore`, with that call's options: give both the same.
   */
  restore(optionsJson: string, callbackName: string): string;
  /**
   * `fetch()` through the game session: the game token is added for the site's origin only, and
   * renewed as needed; the engine never holds it. The callback receives `response`
   * `{ status, body }` (the body as text), or `ok: false` with `network_error`.
   *
   * @param url the address, e.g. `https://your.site/api/progress`.
   * @param initJson `fetch()`'s init as a JSON object (`method`, `headers`, `body` as a string), or `""`.
   * @example
   * ItchOAuth.bridge.fetch('https://your.site/api/progress', '{"method":"PUT","body":"{\\"stars\\":3}"}', 'onSaved');
   */
  fetch(url: string, initJson: string, callbackName: string): string;
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
function optionsOf(json: string): LoginOptions & { renew?: string } {
  const options = JSON.parse(json);
  // (Not an object: null throws here, an array or a string has names login() does not take.)
  if (Object.entries(options).some(([name, value]) => !OPTION_NAMES.includes(name) || typeof value != 'string'))
    throw Error(`bad login() options: ${json}`);
  return options;
}

/**
 * The bridge over a `login()` (and a `gameSession()`, for `renew`, `restore` and `fetch`): the
 * script-tag file's `ItchOAuth.bridge` is made from `ItchOAuth.login` and `ItchOAuth.gameSession`,
 * the package's `bridge` from its `login` and `gameSession`.
 *
 * @param playerMessage gives a failure's `playerMessage`, the player's words for its code (without
 *   it, the JSON has none): `ItchOAuth.playerMessage` in the script-tag files.
 * @example
 * import { createBridge, gameSession, login, playerMessage } from 'itch-oauth-widget';
 * const bridge = createBridge(login, gameSession, playerMessage);
 * // From the engine: the options as JSON, the name of a global function that receives the outcome as JSON.
 * bridge.login(JSON.stringify({ clientId, redirectUri, backend: '/auth/itch' }), 'onItchLogin');
 * @group Game engines
 */
export function createBridge(
  login: (options: LoginOptions) => Promise<LoginResult>,
  gameSession?: (options: GameSessionOptions) => GameSession,
  playerMessage?: (code: ItchOAuthErrorCode) => Promise<string>,
): Bridge {
  const running = new Map<string, AbortController>();
  let lastId = 0;
  let session: GameSession | undefined;
  // The page's one game session, made by the first login with renew or restore, with that call's
  // options: a game gives both the same. Without renew, a session made here would renew at a URL of
  // nothing, and stay the page's one.
  const sessionOf = (options: LoginOptions & { renew?: string }) => {
    if (!options.renew) throw Error('restore() needs renew');
    return (session ??= gameSession!(options as GameSessionOptions));
  };
  /** Runs `work` and calls back with its outcome, as JSON; `code` for a failure that has none (a TypeError). */
  const run = (callbackName: string, work: (signal: AbortSignal) => unknown, code = 'config_invalid') => {
    const callback = callbackAt(callbackName);
    const id = String(++lastId);
    const abort = new AbortController();
    running.set(id, abort);
    // Started at once, still in the engine's click or key handler.
    (async () => work(abort.signal))()
      .then(
        (response): BridgeResult => ({ id, ok: true, response }),
        // login() rejects with an ItchOAuthError; anything else here is the options' JSON or fetch()'s TypeError.
        async (error: { code?: string; message: string }): Promise<BridgeResult> => {
          const failed = (error.code ?? code) as ItchOAuthErrorCode;
          return { id, ok: false, code: failed, message: error.message, playerMessage: await playerMessage?.(failed) };
        },
      )
      .then((result) => {
        running.delete(id);
        callback(JSON.stringify(result));
      });
    return id;
  };
  return {
    login: (optionsJson, callbackName) =>
      run(callbackName, (signal) => {
        const options = optionsOf(optionsJson);
        return options.renew ? sessionOf(options).login({ signal }) : login({ ...options, signal }).then(({ response }) => response);
      }),
    restore: (optionsJson, callbackName) =>
      run(callbackName, async () => {
        const found = sessionOf(optionsOf(optionsJson));
        // (Signed in by a login of this page: so in a frame that may not keep the token, too.)
        return found.signedIn || (await found.restore()) ? { user: found.user, owns: found.owns } : null;
      }),
    fetch: (url, initJson, callbackName) =>
      run(
        callbackName,
        async () => {
          const answer = await (session ?? globalThis).fetch(url, initJson ? JSON.parse(initJson) : undefined);
          return { status: answer.status, body: await answer.text() };
        },
        'network_error',
      ),
    cancel(id) {
      const abort = running.get(String(id));
      abort?.abort();
      return abort !== undefined;
    },
  };
}
