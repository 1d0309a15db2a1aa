extends Node
## Log in with itch.io from a Godot 4 web export (autoload "ItchLogin").
##
## Call [method login] in an input handler (a button's pressed signal, _input, _unhandled_input):
## the popup needs the player's click. The outcome arrives as [signal logged_in] or
## [signal login_failed]. With [member renew] set, the page keeps the game token and
## [method fetch] calls your site's API with it: the game never holds it; and at the game's start
## [method restore] finds a login kept across a reload, without a click. The page must load
## itch-oauth.iife.js, itch-oauth-bridge.iife.js and addons/itch_login/itch_login.js (see
## engines/godot/README.md).

## The token endpoint accepted the login: [param user] is the itch.io user (a Dictionary with
## id, username, display_name, ...), [param owns] maps game ids (as strings) to whether the
## player owns that game (empty when the backend checks no ownership). The whole answer is in
## [member response] (with its game token when [member renew] is empty).
signal logged_in(user: Dictionary, owns: Dictionary)
## The login failed: [param code] is one of the package's error codes (popup_closed, popup_blocked,
## not_owner, aborted, config_invalid, service_unavailable, cookies_blocked, ...), [param message]
## says why in English, for you; [member player_message] says it to the player.
signal login_failed(code: String, message: String)

## Client ID of your itch.io OAuth application.
@export var client_id := ""
## The redirect URI registered for it: your callback page, with the capture.
@export var redirect_uri := ""
## Your token endpoint (createTokenHandler), e.g. https://mygame.example/auth/itch.
@export var backend := ""
## Space-separated itch.io scopes.
@export var scope := "profile:me"
## Where itch.io lives (the emulator's address in tests). Empty: https://itch.io.
@export var base_url := ""
## Your site's renewal URL (sessions.renew), e.g. https://mygame.example/api/renew: the login is
## then kept in the page, which renews the game token and adds it in [method fetch]. Empty: the
## answer carries the game token.
@export var renew := ""

## Your token endpoint's last answer (user, owns; gameToken with createSessions, without [member renew]),
## or the login [method restore] found (user, owns).
var response: Dictionary = {}
## The last failure in the player's words and the page's language, set before
## [signal login_failed]: show it rather than the code. Empty when the page has no words for it
## (outside a web export, or without itch_login.js).
var player_message := ""

# JavaScriptBridge calls GDScript back only while the JavaScriptObject that create_callback made
# is referenced from GDScript: a local variable would be freed when login() returns, and the
# result would never arrive. So it lives as long as this autoload.
var _on_result: JavaScriptObject = null
var _on_fetched: JavaScriptObject = null
var _on_restored: JavaScriptObject = null
# The callers of the fetches and restores under way, by the call's id.
var _fetches := {}
var _restores := {}


## Starts a login; returns its id (for [method cancel]), or "" when this is not a web export.
func login() -> String:
	player_message = ""
	if not OS.has_feature("web"):
		login_failed.emit("config_invalid", "ItchLogin works in a web export only")
		return ""
	var itch = _interface()
	if itch == null:
		login_failed.emit("config_invalid", "ItchLoginGodot is missing: load itch_login.js in the export's Head Include")
		return ""
	if _on_result == null:
		_on_result = JavaScriptBridge.create_callback(_settled)
	return str(itch.login(_options_json(), _on_result))


## Asks the page, without a click, whether the player is still signed in: after a reload, the
## login kept with [member renew] (in the frame's sessionStorage) is taken back and renewed with
## your site. Call it at the game's start, once the members are set (the first restore or login
## makes the page's game session with them). [param on_restored] is called once with the user (a
## Dictionary, as [signal logged_in] gives it) and owns, or with null and {} when no login was
## kept or the site refused it: show your login button. Null too when it could not be asked: outside
## a web export or without itch_login.js (the login says why), or a failure of the page's, which
## is pushed as a warning (config_invalid without [member renew]). Returns the call's id, or ""
## when it could not start (then [param on_restored] has been called with null).
func restore(on_restored: Callable) -> String:
	var itch = _interface()
	if itch == null:
		on_restored.call(null, {})
		return ""
	if _on_restored == null:
		_on_restored = JavaScriptBridge.create_callback(_restored)
	var id := str(itch.restore(_options_json(), _on_restored))
	_restores[id] = on_restored
	return id


## Calls your site's API (a full URL, e.g. https://mygame.example/api/progress) after a login with
## [member renew]: the page adds the game token for your token endpoint's origin only, and renews
## it when needed; the game never holds it. [param init] is fetch()'s: "method", "headers" (a
## Dictionary), "body" (a String). [param on_answer] is called once with the HTTP status and the
## answer's text; status 0 when no answer came (as HTTPRequest's response_code). Returns the
## call's id, or "" when it could not start (then [param on_answer] has been called with 0).
func fetch(url: String, init: Dictionary = {}, on_answer: Callable = Callable()) -> String:
	var itch = _interface()
	if itch == null:
		if on_answer.is_valid():
			on_answer.call(0, "")
		return ""
	if _on_fetched == null:
		_on_fetched = JavaScriptBridge.create_callback(_fetched)
	var id := str(itch.fetch(url, JSON.stringify(init), _on_fetched))
	_fetches[id] = on_answer
	return id


## Cancels a login: its popup closes and [signal login_failed] says "aborted".
func cancel(id: String) -> void:
	var itch = _interface()
	if itch != null:
		itch.cancel(id)


# login()'s options, from the members, as the bridge takes them.
func _options_json() -> String:
	var options := {"clientId": client_id, "redirectUri": redirect_uri, "backend": backend, "scope": scope, "mode": "popup"}
	if base_url != "":
		options["baseUrl"] = base_url
	if renew != "":
		options["renew"] = renew
	return JSON.stringify(options)


# The page's ItchLoginGodot (itch_login.js), or null when the page lacks it. Untyped: a
# JavaScriptObject finds its JavaScript methods when they are called. get_interface() logs an engine
# error for a name the page does not have, so JavaScript is asked first.
func _interface():
	if not OS.has_feature("web") or JavaScriptBridge.eval("typeof window.ItchLoginGodot", true) != "object":
		return null
	return JavaScriptBridge.get_interface("ItchLoginGodot")


func _settled(args: Array) -> void:
	var result = JSON.parse_string(str(args[0]))
	if typeof(result) != TYPE_DICTIONARY:
		login_failed.emit("invalid_response", "the bridge's result is not JSON")
	elif result.get("ok", false):
		response = result.get("response", {}) if typeof(result.get("response")) == TYPE_DICTIONARY else {}
		logged_in.emit(response.get("user", {}), response.get("owns", {}))
	else:
		player_message = str(result.get("playerMessage", ""))
		login_failed.emit(str(result.get("code", "")), str(result.get("message", "")))


func _fetched(args: Array) -> void:
	var result = JSON.parse_string(str(args[0]))
	if typeof(result) != TYPE_DICTIONARY:
		return
	var id := str(result.get("id", ""))
	var on_answer: Callable = _fetches.get(id, Callable())
	_fetches.erase(id)
	var answer = result.get("response")
	var ok: bool = result.get("ok", false) and typeof(answer) == TYPE_DICTIONARY
	if on_answer.is_valid():
		on_answer.call(int(answer.get("status", 0)) if ok else 0, str(answer.get("body", "")) if ok else "")


func _restored(args: Array) -> void:
	var result = JSON.parse_string(str(args[0]))
	if typeof(result) != TYPE_DICTIONARY:
		return
	var id := str(result.get("id", ""))
	var on_restored: Callable = _restores.get(id, Callable())
	_restores.erase(id)
	if not result.get("ok", false):
		push_warning("ItchLogin.restore: %s: %s" % [result.get("code", ""), result.get("message", "")])
	var found = result.get("response")
	var kept: bool = result.get("ok", false) and typeof(found) == TYPE_DICTIONARY
	if kept:
		response = found
	if on_restored.is_valid():
		on_restored.call(found.get("user", {}) if kept else null, found.get("owns", {}) if kept else {})
