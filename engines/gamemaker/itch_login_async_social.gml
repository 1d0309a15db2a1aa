/// Async - Social event of the object that logs the player in (GameMaker HTML5 export).
/// itch_login() and itch_login_cancel() are the extension's functions (itch_login.js); the login
/// starts in itch_login_left_pressed.gml.

if (async_load[? "type"] == "itch_login" && async_load[? "id"] == login_id) {
    if (async_load[? "ok"] == 1) {
        player_name = async_load[? "display_name"];
        owns = json_parse(async_load[? "owns"]);       // { "<game id>": true/false }
        game_token = async_load[? "game_token"];        // send it as Authorization: Bearer
        logged_in = true;
    } else {
        // "popup_closed", "popup_blocked", "not_owner", "aborted", "config_invalid", ...
        show_debug_message("itch.io login failed: " + async_load[? "code"] + ": " + async_load[? "message"]);
        logged_in = false;
    }
}
