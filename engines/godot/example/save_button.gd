extends Button
# A "Save" button that keeps the player's progress on your site, through the ItchLogin autoload:
# ItchLogin.fetch adds the game token (after a login with ItchLogin.renew set), which the game never
# holds. On your server, the API is sessions.route({ allow: ['game'] }, ...).

## Your site's API for the game's saves.
@export var api := "https://mygame.example/api/progress"
## What the game saves.
var stars := 3


func _ready() -> void:
	pressed.connect(_save)


func _save() -> void:
	var init := {"method": "PUT", "headers": {"Content-Type": "application/json"}, "body": JSON.stringify({"stars": stars})}
	ItchLogin.fetch(api, init, func(status, body): text = "Saved" if status == 204 else "Not saved (%d)" % status)
