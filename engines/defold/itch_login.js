// The JavaScript half of itch_login for Defold's HTML5 build. The page must load
// itch-oauth.iife.js, itch-oauth-bridge.iife.js and this file (game.project: html5 > custom
// template, or engine_template.html), and the game depends on the jstodef extension
// (https://github.com/AGulev/jstodef), whose JsToDef.send(message_id, message) hands an object to
// the Lua listeners as a table. itch_login.lua calls ItchLoginDefold.login, .restore and .fetch
// through html5.run.
const ItchLoginDefold = {
  /** Starts a login with login()'s options (an object, or its JSON); returns its id. */
  login: function (options) {
    return ItchOAuth.bridge.login(typeof options === 'string' ? options : JSON.stringify(options), 'ItchLoginDefold.settled');
  },
  /**
   * Asks the page, without a click, for the login it kept across a reload (the login's options,
   * with `renew`: an object, or its JSON); returns the call's id. The answer arrives as an
   * "itch_login_restore" message.
   */
  restore: function (options) {
    return ItchOAuth.bridge.restore(typeof options === 'string' ? options : JSON.stringify(options), 'ItchLoginDefold.restored');
  },
  /**
   * The bridge's callback for `restore`: one "itch_login_restore" message, `restored` true with a
   * login's fields, or false (no login kept, the site refused it; `code`, `message` and
   * `player_message` when it failed).
   */
  restored: function (resultJson) {
    const result = JSON.parse(resultJson);
    const kept = result.ok ? result.response : null;
    const message = { id: result.id, restored: Boolean(kept) };
    if (kept) {
      message.response = JSON.stringify(kept);
      if (kept.user) message.user = kept.user;
      message.owns = kept.owns || {};
    } else if (!result.ok) {
      message.code = result.code;
      message.message = result.message;
      message.player_message = result.playerMessage || '';
    }
    JsToDef.send('itch_login_restore', message);
  },
  /**
   * Calls the site's API through the page's game session (after a login with `renew`): the page
   * adds the game token, which Lua never holds. `call` is `{ url, init }` (init: fetch()'s, an
   * object), or its JSON; returns the call's id. The answer arrives as an "itch_login_fetch" message.
   */
  fetch: function (call) {
    const { url, init } = typeof call === 'string' ? JSON.parse(call) : call;
    // (An empty Lua table may reach JSON as [].)
    const options = init && typeof init === 'object' && !Array.isArray(init) ? init : {};
    return ItchOAuth.bridge.fetch(String(url), JSON.stringify(options), 'ItchLoginDefold.fetched');
  },
  /** The bridge's callback for `fetch`: one "itch_login_fetch" message (status 0 when no answer came). */
  fetched: function (resultJson) {
    const result = JSON.parse(resultJson);
    const answer = result.ok ? result.response : { status: 0, body: '' };
    JsToDef.send('itch_login_fetch', { id: result.id, status: Number(answer.status), body: String(answer.body) });
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
