/// Async - Social event of the object that logs the player in (GameMaker HTML5 export).
/// itch_login(), itch_login_restore(), itch_login_fetch() and itch_login_cancel() are the
/// extension's functions (itch_login.js); the restore starts in the Create event, the login in
/// itch_login_left_pressed.gml, the save in itch_login_save_pressed.gml.

/// login_id, save_id and restore_id are set in the Create event (itch_login_create.gml).

if (async_load[? "type"] == "itch_login" && async_load[? "id"] == login_id) {
    if (async_load[? "ok"] == 1) {
        // A field the answer lacks reads as undefined.
        var name = async_load[? "display_name"];
        player_name = is_undefined(name) ? "" : name;
        owns = json_parse(async_load[? "owns"]);       // { "<game id>": true/false }
        logged_in = true; // with renew, the page keeps the game token: itch_login_fetch sends it
    } else {
        // code: "popup_closed", "popup_blocked", "not_owner", "service_unavailable", "cookies_blocked", ...
        // message says why, for you; player_message says it to the player, in the page's language.
        login_message = async_load[? "player_message"];
        show_debug_message("itch.io login failed: " + async_load[? "code"] + ": " + async_load[? "message"]);
        logged_in = false;
    }
}

if (async_load[? "type"] == "itch_login_restore" && async_load[? "id"] == restore_id) {
    // restored 1: the player is still signed in (a login's fields); 0: no login kept, or the site
    // refused it ("code" says what failed, if anything did): the login button stays for the click.
    if (async_load[? "restored"] == 1) {
        var kept_name = async_load[? "display_name"];
        player_name = is_undefined(kept_name) ? "" : kept_name;
        owns = json_parse(async_load[? "owns"]);
        logged_in = true;
    }
}

if (async_load[? "type"] == "itch_login_fetch" && async_load[? "id"] == save_id) {
    // status: the HTTP status, 0 when no answer came; body: the answer's text (json_parse it).
    saved = async_load[? "status"] == 204;
}
