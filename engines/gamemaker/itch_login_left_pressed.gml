/// Left Pressed event of the login button (a click: the popup needs the player's activation).
login_id = itch_login(json_stringify({ clientId: "YOUR_CLIENT_ID",
    redirectUri: "https://mygame.example/callback.html", backend: "https://mygame.example/auth/itch", mode: "popup" }));
