extends Button
# A "Log in with itch.io" button for the ItchLogin autoload (addons/itch_login).


func _ready() -> void:
	ItchLogin.client_id = "YOUR_CLIENT_ID"
	ItchLogin.redirect_uri = "https://mygame.example/callback.html"
	ItchLogin.backend = "https://mygame.example/auth/itch"
	ItchLogin.logged_in.connect(func(user, owns): text = "Hello %s (owns: %s)" % [user.get("display_name", ""), owns])
	ItchLogin.login_failed.connect(func(code, message): text = ItchLogin.player_message if ItchLogin.player_message != "" else "Login failed: %s" % code)
	pressed.connect(ItchLogin.login)  # a click: the popup needs the player's activation
