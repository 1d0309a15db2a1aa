@tool
extends EditorPlugin
# Enabling the plugin (Project Settings > Plugins) adds the ItchLogin autoload; disabling it removes
# it. In _enable_plugin/_disable_plugin, not _enter_tree/_exit_tree, which run at every editor start
# and close and would rewrite project.godot each time
# (https://docs.godotengine.org/en/stable/classes/class_editorplugin.html#class-editorplugin-private-method-enable-plugin).


func _enable_plugin() -> void:
	add_autoload_singleton("ItchLogin", "res://addons/itch_login/itch_login.gd")


func _disable_plugin() -> void:
	remove_autoload_singleton("ItchLogin")
