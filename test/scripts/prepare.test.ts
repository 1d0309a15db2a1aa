// A clone of the repository packs into a complete package: `prepare` builds dist/, so that
// `npm install github:…`, `npm pack` and a clone give what `npm publish` would (a clone
// used to pack 4 files). The clone borrows this checkout's node_modules (what `npm ci` installs).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

describe('a fresh clone', () => {
  const work = mkdtempSync(path.join(tmpdir(), 'itch-oauth-clone-'));
  after(() => rmSync(work, { recursive: true, force: true }));

  it('packs dist/, the script-tag files and the manifest (prepare builds them)', () => {
    const clone = path.join(work, 'clone');
    const cloned = spawnSync('git', ['clone', '--quiet', '--no-hardlinks', root, clone], { encoding: 'utf8' });
    assert.equal(cloned.status, 0, cloned.stderr);
    symlinkSync(path.join(root, 'node_modules'), path.join(clone, 'node_modules'), 'dir');
    // prepare's build log comes first on stdout, npm's JSON last.
    const packed = spawnSync(npm, ['pack', '--dry-run', '--json'], { cwd: clone, encoding: 'utf8', shell: process.platform === 'win32' });
    assert.equal(packed.status, 0, packed.stderr);
    const json = packed.stdout.slice(packed.stdout.lastIndexOf('\n[') + 1);
    const files = new Set((JSON.parse(json) as [{ files: { path: string }[] }])[0].files.map((file) => file.path));
    for (const file of ['package.json', 'README.md', 'custom-elements.json', 'dist/index.js', 'dist/index.d.ts', 'dist/server.js', 'dist/cli.js', 'dist/itch-oauth.iife.js', 'dist/itch-oauth-capture.iife.js', 'dist/jsx.d.ts']) {
      assert.ok(files.has(file), `${file} is missing from the tarball of a clone (${files.size} files)`);
    }
  });
});
