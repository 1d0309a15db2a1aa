// Three builds (see package.json "build"):
//   vite build                    → the npm ESM build in dist/ (lit, zod, hono, open external)
//   vite build --mode script-tag  → dist/itch-oauth.iife.js, everything browser-side, self-contained
//   vite build --mode capture     → dist/itch-oauth-capture.iife.js, the capture alone
// (then scripts/build-locales.ts writes dist/locales/<locale>.js, the script-tag file's other languages)
import { fileURLToPath } from 'node:url';
import { defineConfig, type UserConfig } from 'vite';

const iife = (entry: string, fileName: string): UserConfig => ({
  build: {
    emptyOutDir: false,
    target: 'es2020',
    minify: true,
    lib: { entry, formats: ['iife'], name: 'ItchOAuth', fileName: () => fileName },
  },
  define: { 'process.env.NODE_ENV': '"production"' },
});

export default defineConfig(({ mode }): UserConfig => {
  if (mode === 'script-tag') {
    // English alone inline: another language is loaded from dist/locales/ beside the file, not
    // split into chunks (an iife has none) nor inlined.
    const config = iife('src/script-tag.ts', 'itch-oauth.iife.js');
    config.resolve = {
      alias: [{ find: /^\.\/load-locale\.js$/, replacement: fileURLToPath(new URL('src/i18n/load-locale-script.ts', import.meta.url)) }],
    };
    return config;
  }
  if (mode === 'capture') return iife('src/capture/script-tag.ts', 'itch-oauth-capture.iife.js');
  return {
    build: {
      target: 'es2022',
      minify: false,
      sourcemap: true,
      lib: {
        entry: {
          index: 'src/index.ts',
          define: 'src/define.ts',
          capture: 'src/capture/index.ts',
          server: 'src/server/index.ts',
          emulator: 'src/emulator/index.ts',
          cli: 'src/cli.ts',
          vite: 'src/vite/index.ts',
          desktop: 'src/desktop/index.ts',
        },
        formats: ['es'],
      },
      rollupOptions: {
        external: [
          /^lit($|\/)/,
          /^@lit\//,
          /^zod($|\/)/,
          /^hono($|\/)/,
          /^@hono\//,
          /^unstorage($|\/)/,
          /^lru-cache$/,
          /^node:/,
          /^vite$/,
          /^open$/,
        ],
      },
    },
  };
});
