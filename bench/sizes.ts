// Bundle sizes, minified and gzip -9, each built the same way: a Vite library build of a small
// entry (bench/contenders/) from the package as npm installs it. Our script-tag files are
// measured as `npm run build` makes them. The builds also give the bench's pages their scripts.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

export const root = fileURLToPath(new URL('../', import.meta.url));
const contender = (name: string) => fileURLToPath(new URL(`./contenders/${name}`, import.meta.url));

export interface SizeRow {
  what: string;
  /** Minified bytes. */
  bytes: number;
  /**
   * `gzip -9` bytes (GNU gzip) of the content, fed on stdin: no file name in the header, as a
   * server sends it. scripts/check-size.mjs gzips the file, whose name adds its length + 1.
   */
  gzip: number;
  note: string;
}

export function gzipSize(code: string | Buffer): number {
  return execFileSync('gzip', ['-9', '-c'], { input: code }).length;
}

/** Builds one entry as an app's production build does, minified; `iife` for a classic script, `es` for what an app bundler emits. */
export async function bundle(entry: string, format: 'iife' | 'es', external: (RegExp | string)[] = []): Promise<string> {
  const result = await build({
    configFile: false,
    logLevel: 'silent',
    root,
    resolve: { alias: { 'itch-oauth-widget': `${root}dist/index.js` } },
    define: { 'process.env.NODE_ENV': '"production"' },
    build: {
      write: false,
      emptyOutDir: false,
      target: 'es2020',
      minify: true,
      modulePreload: false,
      // An app build, not lib mode: Vite leaves the whitespace of lib-mode ES output unminified.
      rollupOptions: { input: entry, external, output: { format, name: 'Bench', entryFileNames: 'out.js' } },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as { output: { type: string; code?: string; isEntry?: boolean }[] }[];
  // The entry chunk: what a page loads. (Our elements' other languages are chunks of their own,
  // imported when a page needs one; the bench's pages are in English.)
  const chunks = outputs.flatMap((o) => o.output).filter((o) => o.type === 'chunk' && o.isEntry);
  if (chunks.length !== 1) throw new Error(`${entry}: expected one entry chunk, got ${chunks.length}`);
  return chunks[0]!.code!;
}

/** The scripts the bench's pages serve under /assets/. */
export interface Assets {
  'floor.js': string;
  'hello-callback.js': string;
  'hello-app.js': string;
  /** The button in one ES module, for the late-import page. */
  'button.js': string;
}

export async function measureSizes(): Promise<{ rows: SizeRow[]; assets: Assets }> {
  const rows: SizeRow[] = [];
  const add = (what: string, code: string | Buffer, note: string) => {
    rows.push({ what, bytes: Buffer.byteLength(code), gzip: gzipSize(code), note });
  };
  for (const [file, note] of [
    ['itch-oauth-capture.iife.js', 'callback: state check, retries, pending view, clean document'],
    ['itch-oauth.iife.js', 'capture + button + callback element, languages loaded beside it'],
    ['itch-oauth-button.iife.js', "button + login(): a framed game's page"],
  ] as const) {
    add(`ours: dist/${file}`, readFileSync(`${root}dist/${file}`), note);
  }
  // The tree-shaken button with Lit, for an app without Lit of its own; and what the button adds to
  // an app that has Lit already (dist/ leaves Lit to the app, so both share one copy).
  const button = await bundle(contender('button.ts'), 'es');
  add('ours: button, tree-shaken ESM', button, '`import { ItchLoginButton }` + define, Lit bundled; served to the late-import page');
  const withoutLit = await bundle(contender('button.ts'), 'es', [/^lit($|\/)/, /^lit-(html|element)($|\/)/, /^@lit\//]);
  add('ours: button, tree-shaken ESM, app has Lit', withoutLit, 'the same, Lit left to the app: what the button adds to a Lit app');
  const helloApp = await bundle(contender('hello-app.js'), 'iife');
  const helloCallback = await bundle(contender('hello-callback.js'), 'iife');
  add('hellojs: login page (core + itch network + POST)', helloApp, 'hellojs/dist/hello.js, no network modules');
  add('hellojs: callback page (core alone)', helloCallback, 'stores the token in localStorage, goes back');
  add('oidc-client-ts: login page', await bundle(contender('oidc-login.ts'), 'iife'), 'code flow + PKCE only: no implicit flow');
  add('oidc-client-ts: callback page', await bundle(contender('oidc-callback.ts'), 'iife'), '');
  const floor = await bundle(contender('floor.js'), 'iife');
  add('floor: hand-written minimal callback', floor, 'read hash, POST token, no state check');
  return {
    rows,
    assets: { 'floor.js': floor, 'hello-callback.js': helloCallback, 'hello-app.js': helloApp, 'button.js': button },
  };
}
