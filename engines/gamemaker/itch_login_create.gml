/// Create event of the object that logs the player in: every instance with an Async - Social event
/// reads login_id when any login ends, so each starts with none.
login_id = "";
login_message = ""; // after a failure, what to tell the player (draw it)
