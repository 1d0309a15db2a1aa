// The JavaScript half of itch_login for GameMaker's HTML5 export: the JavaScript file of an
// extension, whose functions GML calls by their external names (see engines/gamemaker/README.md).
// The page must load itch-oauth.iife.js and itch-oauth-bridge.iife.js first (index.html of the
// export, or the extension's files). The outcome arrives in the Async Social event: the runner's
// GMS_API.send_async_event_social(map) makes async_load of a plain object whose values are
// strings and numbers (GML reads them with async_load[? "key"]).
/* eslint-disable @typescript-eslint/no-unused-vars -- the functions are called by their names: GML's by the extension's external names, the last by the bridge */

/** Starts a login with the options JSON; returns its id. The Async Social event receives its outcome. */
function itch_login(options_json) {
  return ItchOAuth.bridge.login(String(options_json), 'itch_login_settled');
}

/** Cancels a login: its Async Social event says "aborted". Returns 1 when a login had that id. */
function itch_login_cancel(id) {
  return ItchOAuth.bridge.cancel(String(id)) ? 1 : 0;
}

/** The bridge's callback: one Async Social event with type "itch_login". */
function itch_login_settled(result_json) {
  const result = JSON.parse(result_json);
  const map = { type: 'itch_login', id: result.id, ok: result.ok ? 1 : 0 };
  if (result.ok) {
    const response = result.response || {};
    // The whole answer as JSON (json_parse it in GML), and what most games read at once.
    map.response = JSON.stringify(result.response === undefined ? null : result.response);
    if (response.user) {
      map.user_id = response.user.id;
      map.username = String(response.user.username || '');
      map.display_name = String(response.user.display_name || response.user.username || '');
    }
    // owns: { "<game id>": true|false } as JSON; "{}" when the backend checks no ownership.
    map.owns = JSON.stringify(response.owns || {});
    if (typeof response.gameToken === 'string') map.game_token = response.gameToken;
  } else {
    map.code = String(result.code);
    map.message = String(result.message);
    // The sentence to show the player, in the page's language (the bridge's playerMessage).
    map.player_message = String(result.playerMessage || '');
  }
  GMS_API.send_async_event_social(map);
}
