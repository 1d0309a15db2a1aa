/// Create event of the object that logs the player in: every instance with an Async - Social event
/// reads login_id (save_id) when any login (save) ends, so each starts with none.
login_id = "";
save_id = "";
