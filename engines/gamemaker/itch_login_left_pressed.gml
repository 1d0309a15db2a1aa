/// Left Pressed event of the login button (a click: the popup needs the player's activation),
/// with the options of the Create event (itch_login_create.gml).
login_id = itch_login(itch_options);
