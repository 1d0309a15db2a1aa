@tool
extends EditorPlugin
# Enabling the plugin (Project Settings > Plugins) adds the ItchLogin autoload.


func _enter_tree() -> void:
	add_autoload_singleton("ItchLogin", "res://addons/itch_login/itch_login.gd")


func _exit_tree() -> void:
	remove_autoload_singleton("ItchLogin")
