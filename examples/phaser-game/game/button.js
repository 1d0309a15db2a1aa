import { BUTTONS } from './layout.js';

/**
 * A button drawn in Phaser at `BUTTONS[name]`, calling `onPress` on `pointerup`. Phaser runs its
 * input events inside the browser's own event (it has no input queue), so a login started here
 * still has the player's activation and may open the itch.io popup: `pointerup` comes from
 * `mouseup` after the `mousedown` that gave it, or from `touchend` (a `touchstart` gives none).
 */
export function addButton(scene, name, label, onPress, { color = 0xfa5c5c } = {}) {
  const { x, y, width, height } = BUTTONS[name];
  const shape = scene.add.rectangle(x, y, width, height, color).setStrokeStyle(2, 0xffffff);
  const text = scene.add.text(x, y, label, { fontFamily: 'system-ui, sans-serif', fontSize: '20px', color: '#ffffff' }).setOrigin(0.5);
  shape.setInteractive({ useHandCursor: true }).on('pointerup', onPress);
  return scene.add.container(0, 0, [shape, text]);
}
