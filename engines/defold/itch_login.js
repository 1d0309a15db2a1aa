// The JavaScript half of itch_login for Defold's HTML5 build. The page must load
// itch-oauth.iife.js, itch-oauth-bridge.iife.js and this file (game.project: html5 > custom
// template, or engine_template.html), and the game depends on the jstodef extension
// (https://github.com/AGulev/jstodef), whose JsToDef.send(message_id, message) hands an object to
// the Lua listeners as a table. itch_login.lua calls ItchLoginDefold.login through html5.run.
const ItchLoginDefold = {
  /** Starts a login with login()'s options (an object, or its JSON); returns its id. */
  login: function (options) {
    return ItchOAuth.bridge.login(typeof options === 'string' ? options : JSON.stringify(options), 'ItchLoginDefold.settled');
  },
  /** Cancels a login: the listener receives "aborted". */
  cancel: function (id) {
    return ItchOAuth.bridge.cancel(String(id));
  },
  /** The bridge's callback: one "itch_login" message to the Lua listeners. */
  settled: function (resultJson) {
    const result = JSON.parse(resultJson);
    const message = { id: result.id, ok: result.ok };
    if (result.ok) {
      // The answer's JSON as a string as well: json.decode gives every field, whatever JsToDef converts.
      message.response = JSON.stringify(result.response === undefined ? null : result.response);
      const response = result.response || {};
      if (response.user) message.user = response.user;
      message.owns = response.owns || {};
      if (typeof response.gameToken === 'string') message.game_token = response.gameToken;
    } else {
      message.code = result.code;
      message.message = result.message;
      // The sentence to show the player, in the page's language (the bridge's playerMessage).
      message.player_message = result.playerMessage || '';
    }
    JsToDef.send('itch_login', message);
  },
};
window.ItchLoginDefold = ItchLoginDefold;
