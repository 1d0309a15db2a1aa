import Phaser from 'phaser';
import { addButton } from './button.js';
import { say } from './status.js';

/** A level: catch every star (click or tap it), then back to the title. */
export class LevelScene extends Phaser.Scene {
  constructor() {
    super('level');
  }

  /** @param {{ name: string, stars: { x: number, y: number }[] }} level */
  create(level) {
    this.add.text(400, 30, level.name, { fontFamily: 'system-ui, sans-serif', fontSize: '28px', color: '#ffffff' }).setOrigin(0.5);
    const status = this.add.text(400, 380, '', { fontFamily: 'system-ui, sans-serif', fontSize: '20px', color: '#ffffff' }).setOrigin(0.5);
    let caught = 0;
    const total = level.stars.length;
    for (const { x, y } of level.stars) {
      const star = this.add.star(x, y, 5, 12, 28, 0xffd54a).setInteractive({ useHandCursor: true });
      star.once('pointerdown', () => {
        star.destroy();
        caught += 1;
        say(status, caught === total ? `${level.name}: all ${total} stars caught!` : `${level.name}: ${caught} of ${total} stars caught.`);
      });
    }
    say(status, `${level.name}: catch the ${total} stars.`);
    addButton(this, 'back', 'Back', () => this.scene.start('title'), { color: 0x555a70 });
  }
}
