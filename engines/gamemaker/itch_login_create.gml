/// Create event of the object that logs the player in: every instance with an Async - Social event
/// reads login_id, save_id and restore_id when any login, save or restore ends, so each is set from the start.
login_id = "";
save_id = "";
login_message = ""; // after a failure, what to tell the player (draw it)
/// The login's options, for the restore below and the click (itch_login_left_pressed.gml). With
/// renew (your sessions.renew URL) the page keeps the game token: itch_login_fetch sends it, and
/// the login outlasts a reload.
itch_options = json_stringify({ clientId: "YOUR_CLIENT_ID",
    redirectUri: "https://mygame.example/callback.html", backend: "https://mygame.example/auth/itch",
    renew: "https://mygame.example/api/renew", mode: "popup" });
/// At start, without a click: is the player still signed in? The Async - Social event answers.
restore_id = itch_login_restore(itch_options);
