extends Button
# A "Log in with itch.io" button for the ItchLogin autoload (addons/itch_login). At start it asks
# whether the player is still signed in (a login kept across a reload): then it greets them without
# a click; else it stays, and a click logs in.


func _ready() -> void:
	ItchLogin.client_id = "YOUR_CLIENT_ID"
	ItchLogin.redirect_uri = "https://mygame.example/callback.html"
	ItchLogin.backend = "https://mygame.example/auth/itch"
	ItchLogin.renew = "https://mygame.example/api/renew"  # the page keeps the game token; ItchLogin.fetch uses it
	ItchLogin.logged_in.connect(_greet)
	ItchLogin.login_failed.connect(func(code, message): text = ItchLogin.player_message if ItchLogin.player_message != "" else "Login failed: %s" % code)
	pressed.connect(ItchLogin.login)  # a click: the popup needs the player's activation
	# Deferred: after every node's _ready, so that all of ItchLogin's members are set.
	ItchLogin.restore.call_deferred(_on_restored)


func _on_restored(user, owns: Dictionary) -> void:
	if user != null:  # null: no login kept; the button stays
		_greet(user, owns)


func _greet(user: Dictionary, owns: Dictionary) -> void:
	text = "Hello %s (owns: %s)" % [user.get("display_name", ""), owns]
