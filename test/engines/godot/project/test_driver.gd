extends Control
# The test's side of the scene (test/engines/godot.test.ts): points the ItchLogin autoload at the
# test's emulator and token endpoint (after the example button's _ready, which runs first, set
# its placeholders), starts a login of its own from DriverButton and cancels it on Escape, reads
# the site's API on L (after the example's SaveButton saved), asks ItchLogin.restore at start as the
# example button does, reports each change of the example button's text, and prints every outcome
# as one "ITCH_TEST {json}" line, which reaches the page's console.

var _last_id := ""
var _api := ""
var _button_text := ""


func _ready() -> void:
	var config = JSON.parse_string(str(JavaScriptBridge.eval("JSON.stringify(window.godotTest)", true)))
	ItchLogin.client_id = config["clientId"]
	ItchLogin.redirect_uri = config["redirectUri"]
	ItchLogin.backend = config["backend"]
	ItchLogin.base_url = config["baseUrl"]
	ItchLogin.renew = config["renew"]
	$SaveButton.api = config["api"]
	_api = config["api"]
	ItchLogin.logged_in.connect(_on_logged_in)
	ItchLogin.login_failed.connect(_on_login_failed)
	$DriverButton.pressed.connect(_on_driver_pressed)
	_button_text = $LoginButton.text
	# (Deferred as the example button's is, after it: both ask the one game session of the page.)
	ItchLogin.restore.call_deferred(_on_restored)
	_report({"event": "ready"})


func _process(_delta: float) -> void:
	if $LoginButton.text != _button_text:
		_button_text = $LoginButton.text
		_report({"event": "button_text", "button_text": _button_text})


func _on_driver_pressed() -> void:
	_last_id = ItchLogin.login()
	_report({"event": "started", "id": _last_id})


func _unhandled_input(event: InputEvent) -> void:
	if event is InputEventKey and event.pressed and event.keycode == KEY_ESCAPE:
		ItchLogin.cancel(_last_id)
		_report({"event": "cancelled", "id": _last_id})
	# L: reads the API (what the example's SaveButton saved), through ItchLogin.fetch too.
	if event is InputEventKey and event.pressed and event.keycode == KEY_L:
		ItchLogin.fetch(_api, {}, _on_read)


func _on_logged_in(user: Dictionary, owns: Dictionary) -> void:
	_report({
		"event": "logged_in",
		"user": user,
		"owns": owns,
		"user_id_type": type_string(typeof(user.get("id"))),
		"user_id": int(user.get("id", 0)),
		"has_game_token": str(ItchLogin.response.get("gameToken", "")) != "",
		"button_text": $LoginButton.text,
	})


func _on_restored(user, owns: Dictionary) -> void:
	_report({
		"event": "restored",
		"user": user,
		"owns": owns,
		"user_id_type": type_string(typeof(user.get("id"))) if user != null else "",
		"user_id": int(user.get("id", 0)) if user != null else 0,
		"has_game_token": str(ItchLogin.response.get("gameToken", "")) != "",
	})


func _on_read(status: int, body: String) -> void:
	_report({"event": "fetched", "status": status, "body": body, "button_text": $SaveButton.text})


func _on_login_failed(code: String, message: String) -> void:
	_report({
		"event": "login_failed",
		"code": code,
		"message": message,
		"player_message": ItchLogin.player_message,
		"button_text": $LoginButton.text,
	})


func _report(data: Dictionary) -> void:
	print("ITCH_TEST " + JSON.stringify(data))
