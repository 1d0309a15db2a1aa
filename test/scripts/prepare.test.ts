// A clone of the repository packs into a complete package: `prepare` builds dist/, so that
// `npm install github:…`, `npm pack` and a clone give what `npm publish` would (a clone used to
// pack 4 files). The published package.json carries no scripts: npm 11 warns whoever installs a
// package with `prepare` (clean-package takes them out at prepack, puts them back at postpack).
// The clone borrows this checkout's node_modules (what `npm ci` installs).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { pack } from '../../scripts/pack.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** The package.json inside a tarball. */
function manifestOf(tarball: string): { scripts?: Record<string, string>; devDependencies?: unknown; name: string } {
  const read = spawnSync('tar', ['-xOzf', tarball, 'package/package.json'], { encoding: 'utf8' });
  assert.equal(read.status, 0, read.stderr);
  return JSON.parse(read.stdout) as { scripts?: Record<string, string>; name: string };
}

describe('a fresh clone', () => {
  const work = mkdtempSync(path.join(tmpdir(), 'itch-oauth-clone-'));
  after(() => rmSync(work, { recursive: true, force: true }));

  it('packs dist/, the script-tag files and the manifest (prepare builds them), with no scripts in the packed package.json', () => {
    const clone = path.join(work, 'clone');
    const cloned = spawnSync('git', ['clone', '--quiet', '--no-hardlinks', root, clone], { encoding: 'utf8' });
    assert.equal(cloned.status, 0, cloned.stderr);
    symlinkSync(path.join(root, 'node_modules'), path.join(clone, 'node_modules'), 'dir');
    const original = readFileSync(path.join(clone, 'package.json'), 'utf8');
    const out = path.join(work, 'out');
    mkdirSync(out);
    // prepare's build log comes first on stdout, npm's JSON last.
    const packed = spawnSync(npm, ['pack', '--json', '--pack-destination', out], {
      cwd: clone,
      encoding: 'utf8',
      shell: process.platform === 'win32',
    });
    assert.equal(packed.status, 0, packed.stderr);
    const json = packed.stdout.slice(packed.stdout.lastIndexOf('\n[') + 1);
    const [{ files: listed, filename }] = JSON.parse(json) as [{ files: { path: string }[]; filename: string }];
    const files = new Set(listed.map((file) => file.path));
    for (const file of [
      'package.json',
      'README.md',
      'custom-elements.json',
      'dist/index.js',
      'dist/index.d.ts',
      'dist/server.js',
      'dist/cli.js',
      'dist/itch-oauth.iife.js',
      'dist/itch-oauth-capture.iife.js',
      'dist/jsx.d.ts',
    ]) {
      assert.ok(files.has(file), `${file} is missing from the tarball of a clone (${files.size} files)`);
    }
    assert.ok(!files.has('package.json.backup'), 'the backup clean-package keeps is not packed');
    const manifest = manifestOf(path.join(out, path.basename(filename)));
    assert.equal(manifest.scripts, undefined, `the packed package.json has scripts: ${JSON.stringify(manifest.scripts)}`);
    assert.equal(manifest.devDependencies, undefined);
    // postpack put the clone's package.json back as it was.
    assert.equal(readFileSync(path.join(clone, 'package.json'), 'utf8'), original);
  });
});

describe("the tarball the checks install (scripts/pack.mjs, as CI's framework and example tests use it)", () => {
  it('has no prepare, nor any other script, in its package.json, and leaves package.json as it was', () => {
    const before = readFileSync(path.join(root, 'package.json'), 'utf8');
    const tarball = pack();
    const manifest = manifestOf(tarball);
    assert.equal(manifest.name, 'itch-oauth-widget');
    // The examples' sources ship; their installed dependencies (examples:install) never do.
    const listed = spawnSync('tar', ['-tzf', tarball], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).stdout.split('\n');
    assert.deepEqual(
      listed.filter((file) => /(^|\/)(node_modules|\.new-user)\//.test(file)),
      [],
    );
    assert.equal(manifest.scripts?.prepare, undefined, 'npm 11 warns installers of a package with prepare');
    assert.equal(manifest.scripts, undefined);
    assert.equal(readFileSync(path.join(root, 'package.json'), 'utf8'), before);
  });
});
