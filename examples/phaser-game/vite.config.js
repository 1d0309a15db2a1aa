// Builds the game (game/) into dist/: the folder you would zip and upload to itch.io as an HTML5
// game. Relative addresses (`base: './'`), because itch.io serves each upload under its own path.
import { defineConfig } from 'vite';

export default defineConfig({
  root: 'game',
  base: './',
  build: { outDir: '../dist', emptyOutDir: true, chunkSizeWarningLimit: 2000 },
});
