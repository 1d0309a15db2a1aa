// What a browser app imports from the package never loads the server's libraries: the browser
// entries share a few modules with the server (error codes, scopes, the authorize URL), and a
// chunk that held those beside the server's schemas would make every SPA and Phaser game that
// imports the button also load zod. Walks the relative imports of each built browser entry in
// dist/ (`npm run build` first; CI builds it at `npm ci`).
import { build } from 'esbuild';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';

const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
const browserEntries = ['index.js', 'protocol.js', 'define.js', 'capture.js', 'phaser.js'];
const serverOnly = /^(zod|hono|unstorage|jose|node:)/;

/**
 * Every bare import that `entry` reaches through the relative ones, with the file it is in; and
 * the files of dist/ it read on the way.
 */
function walk(entry: string): { found: Map<string, string>; seen: Set<string> } {
  const found = new Map<string, string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(path.join(dist, file), 'utf8');
    for (const [, specifier = ''] of code.matchAll(/(?:from|import)\s*\(?\s*"([^"]+)"/g)) {
      if (specifier.startsWith('./')) visit(specifier.slice(2));
      else found.set(specifier, file);
    }
  };
  visit(entry);
  return { found, seen };
}

const bareImportsOf = (entry: string) => walk(entry).found;

/** A module that imports `.` and `./define` and prints what they left on the global object. */
const importBoth = (from: string) => `
  const names = ['HTMLElement', 'document', 'customElements'];
  const before = names.filter((name) => name in globalThis);
  const index = await import(${JSON.stringify(`${from}index.js`)});
  await import(${JSON.stringify(`${from}define.js`)});
  console.log(JSON.stringify({
    classes: [typeof index.ItchLoginButton, typeof index.ItchOAuthCallback],
    before,
    after: names.filter((name) => name in globalThis),
  }));
`;
/** What a DOM-less runtime that ran `importBoth` prints. */
const nothingLeft = { classes: ['function', 'function'], before: [], after: [] };

/** Runs an ES module file in Node, with `conditions` added to the ones it resolves packages with. */
function runModule(file: string, conditions: string[] = []): unknown {
  const out = execFileSync(process.execPath, [...conditions.map((name) => `--conditions=${name}`), file], { encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').pop()!);
}

/** Bundles `dir`/entry.mjs into `dir`/worker.mjs as wrangler bundles for workerd (see scripts/worker-bundle.mjs). */
async function bundleAsWrangler(dir: string): Promise<void> {
  await build({
    entryPoints: [path.join(dir, 'entry.mjs')],
    outfile: path.join(dir, 'worker.mjs'),
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    nodePaths: [fileURLToPath(new URL('../../node_modules/', import.meta.url))],
    logLevel: 'silent',
  });
}
describe('the browser entries of dist/', () => {
  // A server that renders an app's pages (Next.js, Nuxt, SvelteKit, Astro) imports the modules its
  // pages import: there is no DOM there, and importing the package must not throw.
  for (const entry of ['index.js', 'protocol.js', 'define.js', 'capture.js']) {
    it(`${entry} imports without a DOM, as a server that renders the page imports it`, async () => {
      assert.equal(typeof (globalThis as { HTMLElement?: unknown }).HTMLElement, 'undefined');
      const module = (await import(path.join(dist, entry))) as Record<string, unknown>;
      if (entry === 'index.js') {
        assert.equal(typeof module['ItchLoginButton'], 'function');
        assert.equal(typeof module['ItchOAuthCallback'], 'function');
      }
    });
  }

  // Node resolves Lit with its `node` condition, whose DOM shim leaves a global customElements.
  it('. and ./define leave no DOM global behind in Node, and register nothing', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'itch-imports-'));
    try {
      writeFileSync(path.join(dir, 'node.mjs'), importBoth(pathToFileURL(dist).href));
      assert.deepEqual(runModule(path.join(dir, 'node.mjs')), nothingLeft);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // A server build that renders with the `browser` condition (SSR of a framework that asks for
  // it) gets Lit's browser build, which needs a DOM as it loads.
  it('. and ./define import in Node resolving with the browser condition, leaving nothing behind', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'itch-imports-'));
    try {
      writeFileSync(path.join(dir, 'browser.mjs'), importBoth(pathToFileURL(dist).href));
      assert.deepEqual(runModule(path.join(dir, 'browser.mjs'), ['browser']), nothingLeft);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // workerd (Cloudflare Workers) runs what wrangler bundled with esbuild and the `workerd`,
  // `worker` and `browser` conditions (see scripts/worker-bundle.mjs): Lit's browser build, no DOM.
  it('. and ./define bundled as wrangler bundles for workerd import without a DOM, leaving nothing behind', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'itch-imports-'));
    try {
      writeFileSync(path.join(dir, 'entry.mjs'), importBoth(dist));
      await bundleAsWrangler(dir);
      const bundle = readFileSync(path.join(dir, 'worker.mjs'), 'utf8');
      assert.match(bundle, /createTreeWalker/, "the bundle holds Lit's browser build");
      assert.doesNotMatch(bundle, /ssr-dom-shim/, "the bundle holds no DOM shim (Lit's node build)");
      assert.deepEqual(runModule(path.join(dir, 'worker.mjs')), nothingLeft);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // A Worker (or a game server's bundle) that asks the main entry for words only carries no Lit
  // and no stand-ins for the DOM: the words are in a chunk apart from the elements' (see
  // vite.config.ts), which the bundler then leaves out as the package's "sideEffects" allow.
  it('. bundled as wrangler bundles for workerd, for playerMessage alone, holds no Lit and no no-DOM shim, and answers', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'itch-imports-'));
    try {
      writeFileSync(
        path.join(dir, 'entry.mjs'),
        `import { playerMessage } from ${JSON.stringify(`${dist}index.js`)};\nconsole.log(JSON.stringify(await playerMessage('popup_closed')));`,
      );
      await bundleAsWrangler(dir);
      const bundle = readFileSync(path.join(dir, 'worker.mjs'), 'utf8');
      assert.doesNotMatch(bundle, /lit-html|litElementVersions|LitElement/, 'Lit is in the bundle');
      assert.doesNotMatch(bundle, /createTreeWalker|removeNoDomShim/, 'the no-DOM shim is in the bundle');
      assert.equal(runModule(path.join(dir, 'worker.mjs')), 'The itch.io window was closed before the login finished.');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  for (const entry of browserEntries) {
    it(`${entry} reaches no server library`, () => {
      const { found: imports, seen } = walk(entry);
      // (The elements import no library at all: what the walk follows is the entry's chunks.)
      assert.ok(seen.size > 1, `${entry}: no chunk found, so the walk saw nothing`);
      const offending = [...imports].filter(([specifier]) => serverOnly.test(specifier));
      assert.deepEqual(offending, [], `${entry} reaches server libraries: ${JSON.stringify(offending)}`);
    });
  }
  // The capture runs first in <head> of the callback page, before any other script: it never
  // waits for Lit, in the npm build and in its script-tag file.
  it('capture.js and itch-oauth-capture.iife.js hold no Lit', () => {
    assert.deepEqual(
      [...walk('capture.js').found.keys()].filter((specifier) => /^lit($|\/)/.test(specifier)),
      [],
    );
    assert.doesNotMatch(readFileSync(path.join(dist, 'itch-oauth-capture.iife.js'), 'utf8'), /lit-html|litElementVersions/);
    assert.match(readFileSync(path.join(dist, 'itch-oauth.iife.js'), 'utf8'), /lit-html/, 'a control: the full file holds Lit');
  });

  it('the server entry does reach zod (a control: the walk follows chunks)', () => {
    assert.ok(bareImportsOf('server.js').has('zod/mini'));
  });
});
