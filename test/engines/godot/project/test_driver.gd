extends Control
# The test's side of the scene (test/engines/godot.test.ts): points the ItchLogin autoload at the
# test's emulator and token endpoint (after the example button's _ready, which runs first, set
# its placeholders), starts a login of its own from DriverButton and cancels it on Escape, and
# prints every outcome as one "ITCH_TEST {json}" line, which reaches the page's console.

var _last_id := ""


func _ready() -> void:
	var config = JSON.parse_string(str(JavaScriptBridge.eval("JSON.stringify(window.godotTest)", true)))
	ItchLogin.client_id = config["clientId"]
	ItchLogin.redirect_uri = config["redirectUri"]
	ItchLogin.backend = config["backend"]
	ItchLogin.base_url = config["baseUrl"]
	ItchLogin.logged_in.connect(_on_logged_in)
	ItchLogin.login_failed.connect(_on_login_failed)
	$DriverButton.pressed.connect(_on_driver_pressed)
	_report({"event": "ready"})


func _on_driver_pressed() -> void:
	_last_id = ItchLogin.login()
	_report({"event": "started", "id": _last_id})


func _unhandled_input(event: InputEvent) -> void:
	if event is InputEventKey and event.pressed and event.keycode == KEY_ESCAPE:
		ItchLogin.cancel(_last_id)
		_report({"event": "cancelled", "id": _last_id})


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
