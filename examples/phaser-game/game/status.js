// The game's status, drawn on the canvas and mirrored in the page's live region (#status,
// role="status"): a screen reader hears what the canvas shows, and tests read it as text.
const live = document.getElementById('status');

/** Shows `message` in `text` (a Phaser Text) and announces it. */
export function say(text, message) {
  text.setText(message);
  live.textContent = message;
}
