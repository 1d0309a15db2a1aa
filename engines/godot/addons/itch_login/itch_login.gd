extends Node
## Log in with itch.io from a Godot 4 web export (autoload "ItchLogin").
##
## Call [method login] in an input handler (a button's pressed signal, _input, _unhandled_input):
## the popup needs the player's click. The outcome arrives as [signal logged_in] or
## [signal login_failed]. The page must load itch-oauth.iife.js, itch-oauth-bridge.iife.js and
## addons/itch_login/itch_login.js (see engines/godot/README.md).

## The token endpoint accepted the login: [param user] is the itch.io user (a Dictionary with
## id, username, display_name, ...), [param owns] maps game ids (as strings) to whether the
## player owns that game (empty when the backend checks no ownership). The whole answer, with its
## game token, is in [member response].
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

## Your token endpoint's last answer (user, owns, gameToken with createSessions).
var response: Dictionary = {}
## The last failure in the player's words and the page's language, set before
## [signal login_failed]: show it rather than the code. Empty when the page has no words for it
## (outside a web export, or without itch_login.js).
var player_message := ""

# JavaScriptBridge calls GDScript back only while the JavaScriptObject that create_callback made
# is referenced from GDScript: a local variable would be freed when login() returns, and the
# result would never arrive. So it lives as long as this autoload.
var _on_result: JavaScriptObject = null


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
	var options := {"clientId": client_id, "redirectUri": redirect_uri, "backend": backend, "scope": scope, "mode": "popup"}
	if base_url != "":
		options["baseUrl"] = base_url
	return str(itch.login(JSON.stringify(options), _on_result))


## Cancels a login: its popup closes and [signal login_failed] says "aborted".
func cancel(id: String) -> void:
	var itch = _interface()
	if itch != null:
		itch.cancel(id)


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
