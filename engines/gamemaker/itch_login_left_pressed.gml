/// Left Pressed event of the login button (a click: the popup needs the player's activation).
/// With renew (your sessions.renew URL) the page keeps the game token: itch_login_fetch sends it.
login_id = itch_login(json_stringify({ clientId: "YOUR_CLIENT_ID",
    redirectUri: "https://mygame.example/callback.html", backend: "https://mygame.example/auth/itch",
    renew: "https://mygame.example/api/renew", mode: "popup" }));
