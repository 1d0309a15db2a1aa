/// Async - Social event of the object that logs the player in (GameMaker HTML5 export).
/// itch_login() and itch_login_cancel() are the extension's functions (itch_login.js); the login
/// starts in itch_login_left_pressed.gml.

/// login_id is set in the Create event (itch_login_create.gml).

if (async_load[? "type"] == "itch_login" && async_load[? "id"] == login_id) {
    if (async_load[? "ok"] == 1) {
        // A field the answer lacks reads as undefined (a game token comes with createSessions only).
        var name = async_load[? "display_name"];
        player_name = is_undefined(name) ? "" : name;
        owns = json_parse(async_load[? "owns"]);       // { "<game id>": true/false }
        var token = async_load[? "game_token"];
        game_token = is_undefined(token) ? "" : token; // send it as Authorization: Bearer
        logged_in = true;
    } else {
        // code: "popup_closed", "popup_blocked", "not_owner", "service_unavailable", "cookies_blocked", ...
        // message says why, for you; player_message says it to the player, in the page's language.
        login_message = async_load[? "player_message"];
        show_debug_message("itch.io login failed: " + async_load[? "code"] + ": " + async_load[? "message"]);
        logged_in = false;
    }
}
