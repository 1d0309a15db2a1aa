/// Left Pressed event of a save button: keeps the player's progress on your site. The page adds the
/// game token (after a login with renew in its options); the game never holds it.
save_id = itch_login_fetch("https://mygame.example/api/progress", "PUT", json_stringify({ stars: stars }));
