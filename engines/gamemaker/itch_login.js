// The JavaScript half of itch_login for GameMaker's HTML5 export: the JavaScript file of an
// extension, whose functions GML calls by their external names (see engines/gamemaker/README.md).
// The page must load itch-oauth.iife.js and itch-oauth-bridge.iife.js first (index.html of the
// export, or the extension's files). The outcome arrives in the Async Social event: the runner's
// GMS_API.send_async_event_social(map) makes async_load of a plain object whose values are
// strings and numbers (GML reads them with async_load[? "key"]).
/* eslint-disable @typescript-eslint/no-unused-vars -- the functions are called by their names: GML's by the extension's external names, the *_settled, *_restored and *_fetched ones by the bridge */

/** Starts a login with the options JSON; returns its id. The Async Social event receives its outcome. */
function itch_login(options_json) {
  return ItchOAuth.bridge.login(String(options_json), 'itch_login_settled');
}

/**
 * Asks the page, without a click, for the login it kept across a reload: call it at the game's
 * start with the login's options ("renew" among them; the first of the two makes the page's game
 * session with its options). Returns the call's id; the Async Social event receives its answer.
 */
function itch_login_restore(options_json) {
  return ItchOAuth.bridge.restore(String(options_json), 'itch_login_restored');
}

/**
 * Calls the site's API (a full URL) through the page's game session, after a login with "renew"
 * in its options: the page adds the game token, which the game never holds. `body`, when not "",
 * is sent as application/json. Returns the call's id; the Async Social event receives its answer.
 */
function itch_login_fetch(url, method, body) {
  const init = { method: String(method || 'GET') };
  if (body) {
    init.headers = { 'Content-Type': 'application/json' };
    init.body = String(body);
  }
  return ItchOAuth.bridge.fetch(String(url), JSON.stringify(init), 'itch_login_fetched');
}

/** Cancels a login: its Async Social event says "aborted". Returns 1 when a login had that id. */
function itch_login_cancel(id) {
  return ItchOAuth.bridge.cancel(String(id)) ? 1 : 0;
}

/** The bridge's callback: one Async Social event with type "itch_login". */
function itch_login_settled(result_json) {
  const result = JSON.parse(result_json);
  const map = { type: 'itch_login', id: result.id, ok: result.ok ? 1 : 0 };
  if (result.ok) itch_login_player(map, result.response);
  else itch_login_failure(map, result);
  GMS_API.send_async_event_social(map);
}

/**
 * The bridge's callback for itch_login_restore: one Async Social event with type
 * "itch_login_restore", restored 1 with a login's fields, or 0: no login was kept or the site
 * refused it (with code, message and player_message when it failed: config_invalid without renew).
 */
function itch_login_restored(result_json) {
  const result = JSON.parse(result_json);
  const map = { type: 'itch_login_restore', id: result.id, restored: result.ok && result.response ? 1 : 0 };
  if (map.restored) itch_login_player(map, result.response);
  else if (!result.ok) itch_login_failure(map, result);
  GMS_API.send_async_event_social(map);
}

/** A login's fields in async_load: the whole answer as JSON (json_parse it in GML), and what most games read at once. */
function itch_login_player(map, answer) {
  const response = answer || {};
  map.response = JSON.stringify(answer === undefined ? null : answer);
  if (response.user) {
    map.user_id = response.user.id;
    map.username = String(response.user.username || '');
    map.display_name = String(response.user.display_name || response.user.username || '');
  }
  // owns: { "<game id>": true|false } as JSON; "{}" when the backend checks no ownership.
  map.owns = JSON.stringify(response.owns || {});
  if (typeof response.gameToken === 'string') map.game_token = response.gameToken;
}

/** A failure's fields in async_load. */
function itch_login_failure(map, result) {
  map.code = String(result.code);
  map.message = String(result.message);
  // The sentence to show the player, in the page's language (the bridge's playerMessage).
  map.player_message = String(result.playerMessage || '');
}

/** The bridge's callback for itch_login_fetch: one Async Social event with type "itch_login_fetch". */
function itch_login_fetched(result_json) {
  const result = JSON.parse(result_json);
  // status: the HTTP status, 0 when no answer came; body: the answer's text.
  const answer = result.ok ? result.response : { status: 0, body: '' };
  GMS_API.send_async_event_social({ type: 'itch_login_fetch', id: result.id, status: Number(answer.status), body: String(answer.body) });
}
