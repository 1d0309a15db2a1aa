// Where the game draws its buttons, in game pixels (the canvas is not scaled: one game pixel is
// one CSS pixel). The end-to-end test clicks the canvas at these points, as a player would.
export const WIDTH = 800;
export const HEIGHT = 450;

export const BUTTONS = {
  login: { x: 400, y: 250, width: 300, height: 56 },
  meadow: { x: 250, y: 300, width: 240, height: 56 },
  vault: { x: 550, y: 300, width: 240, height: 56 },
  buy: { x: 550, y: 380, width: 280, height: 44 },
  back: { x: 80, y: 420, width: 120, height: 40 },
};
