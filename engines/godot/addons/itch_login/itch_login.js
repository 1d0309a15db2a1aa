// The JavaScript half of the Godot 4 addon: loaded by the web export's page after
// itch-oauth.iife.js and itch-oauth-bridge.iife.js (Project > Export > Web > Head Include).
// itch_login.gd calls ItchLoginGodot.login(optionsJson, callback),
// ItchLoginGodot.restore(optionsJson, callback) and ItchLoginGodot.fetch(url, initJson, callback)
// through JavaScriptBridge, each with a
// callback made by JavaScriptBridge.create_callback: a JavaScript function that calls into GDScript
// while the GDScript side keeps its JavaScriptObject referenced
// (https://docs.godotengine.org/en/stable/classes/class_javascriptbridge.html#class-javascriptbridge-method-create-callback).
// The callback receives one argument, the bridge's result JSON; GDScript sees it as args[0].
(function () {
  'use strict';
  const pending = {};
  window.ItchLoginGodot = {
    /** Starts a login; returns its id. `callback(resultJson)` is called once when it settles. */
    login: function (optionsJson, callback) {
      if (typeof callback !== 'function') throw new TypeError('ItchLoginGodot.login: the callback is not a function');
      const id = ItchOAuth.bridge.login(String(optionsJson), 'ItchLoginGodot.settled');
      pending[id] = callback;
      return id;
    },
    /**
     * Asks the page, without a click, for the login it kept (after a reload; the options carry
     * `renew`). Returns the call's id; `callback(resultJson)` is called once with
     * `{ id, ok: true, response: { user, owns } }`, `response` null when none was kept, or
     * `{ id, ok: false, code, message }`.
     */
    restore: function (optionsJson, callback) {
      if (typeof callback !== 'function') throw new TypeError('ItchLoginGodot.restore: the callback is not a function');
      const id = ItchOAuth.bridge.restore(String(optionsJson), 'ItchLoginGodot.settled');
      pending[id] = callback;
      return id;
    },
    /**
     * Calls the site's API through the page's game session (a login with `renew`): the bridge adds
     * the game token, which GDScript never holds. Returns the call's id; `callback(resultJson)` is
     * called once with `{ id, ok: true, response: { status, body } }` or `{ id, ok: false, code }`.
     */
    fetch: function (url, initJson, callback) {
      if (typeof callback !== 'function') throw new TypeError('ItchLoginGodot.fetch: the callback is not a function');
      const id = ItchOAuth.bridge.fetch(String(url), String(initJson), 'ItchLoginGodot.settled');
      pending[id] = callback;
      return id;
    },
    /** Cancels a login: its callback receives `aborted`. */
    cancel: function (id) {
      return ItchOAuth.bridge.cancel(String(id));
    },
    /** The bridge's callback: the result goes to the callback of its login, restore or fetch (the bridge calls it after they returned). */
    settled: function (resultJson) {
      const id = JSON.parse(resultJson).id;
      const callback = pending[id];
      delete pending[id];
      if (callback) callback(resultJson);
    },
  };
})();
