// What a browser app imports from the package never loads the server's libraries: the browser
// entries share a few modules with the server (error codes, scopes, the authorize URL), and a
// chunk that held those beside the server's schemas would make every SPA and Phaser game that
// imports the button also load zod. Walks the relative imports of each built browser entry in
// dist/ (`npm run build` first; CI builds it at `npm ci`).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

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

  for (const entry of browserEntries) {
    it(`${entry} reaches no server library`, () => {
      const { found: imports, seen } = walk(entry);
      // (The elements import no library at all: what the walk follows is the entry's chunks.)
      assert.ok(seen.size > 1, `${entry}: no chunk found, so the walk saw nothing`);
      const offending = [...imports].filter(([specifier]) => serverOnly.test(specifier));
      assert.deepEqual(offending, [], `${entry} reaches server libraries: ${JSON.stringify(offending)}`);
    });
  }
  it('the server entry does reach zod (a control: the walk follows chunks)', () => {
    assert.ok(bareImportsOf('server.js').has('zod/mini'));
  });
});
