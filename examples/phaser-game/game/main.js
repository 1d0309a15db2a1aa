import Phaser from 'phaser';
import { ItchLoginPlugin } from 'itch-oauth-widget/phaser';
import { HEIGHT, WIDTH } from './layout.js';
import { LevelScene } from './level-scene.js';
import { TitleScene } from './title-scene.js';

// Where the site is, and its itch.io application: config.json beside this page (the example's
// server writes it; in an upload to itch.io, a file of the upload).
const config = await (await fetch('./config.json')).json();

const game = new Phaser.Game({
  type: Phaser.AUTO, // WebGL, or the Canvas renderer where there is none (a browser without a GPU)
  parent: 'game',
  width: WIDTH,
  height: HEIGHT,
  backgroundColor: '#151726',
  scale: { mode: Phaser.Scale.NONE },
  plugins: {
    global: [
      {
        key: 'ItchLogin',
        plugin: ItchLoginPlugin,
        start: true,
        // What every login shares: the itch.io application, and the site's token handler. With
        // `renew`, the plugin keeps the login (plugin.session): the game token stays in it.
        data: {
          clientId: config.clientId,
          baseUrl: config.itchBaseUrl, // the emulator here; https://itch.io for the real one
          scope: config.scope,
          redirectUri: `${config.site}/callback.html`,
          backend: `${config.site}/auth/itch`,
          renew: `${config.site}/api/renew`, // sessions.renew: a fresh game token before this one expires
        },
      },
    ],
  },
  scene: [TitleScene, LevelScene],
});
game.registry.set('config', config);
