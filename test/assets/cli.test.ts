// `npx itch-oauth-widget assets <dir>` (after npm run build: it copies dist/'s files).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { SCRIPT_FILES } from '../../src/assets/cli.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const run = (...args: string[]) =>
  execFileSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'assets', ...args], { cwd: root, encoding: 'utf8' });

test('assets copies the script files and locales/, says what it wrote, and writes nothing the second time', () => {
  const dir = path.join(mkdtempSync(path.join(tmpdir(), 'itch-assets-')), 'public', 'widget');
  const first = run(dir);
  for (const name of SCRIPT_FILES) {
    assert.deepEqual(readFileSync(path.join(dir, name)), readFileSync(path.join(root, 'dist', name)));
    assert.match(first, new RegExp(`wrote .*${name.replace(/\./g, '\\.')}`));
  }
  assert.deepEqual(readdirSync(path.join(dir, 'locales')).sort(), readdirSync(path.join(root, 'dist/locales')).sort());
  assert.match(first, /wrote .*locales\/de\.js/);
  assert.match(run(dir), /already up to date/);

  writeFileSync(path.join(dir, 'locales/de.js'), 'stale');
  assert.equal(run(dir).trim(), `wrote ${path.join(dir, 'locales/de.js')}\n1 file written to ${dir}`);
});

test('assets without a folder says how to use it and fails', () => {
  assert.throws(
    () => execFileSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'assets'], { cwd: root, stdio: 'pipe' }),
    (error: { status: number; stderr: Buffer }) => {
      assert.equal(error.status, 2);
      assert.match(String(error.stderr), /usage: itch-oauth-widget assets <dir>/);
      return true;
    },
  );
});

/** Runs assets expecting it to fail: its exit status and what it said. */
function refused(dir: string): { status: number; stderr: string } {
  try {
    run(dir);
  } catch (error) {
    const { status, stderr } = error as { status: number; stderr: Buffer };
    return { status, stderr: String(stderr) };
  }
  assert.fail('assets wrote through a symlink without a word');
}

test('assets into a folder holding a symlink to a file outside it leaves that file alone, writes nothing and says why', () => {
  const base = mkdtempSync(path.join(tmpdir(), 'itch-assets-'));
  const outside = path.join(base, 'outside.txt');
  writeFileSync(outside, 'the victim');
  const dir = path.join(base, 'site');
  mkdirSync(dir);
  symlinkSync(outside, path.join(dir, SCRIPT_FILES[1]!));
  // And one dangling: a new file there would be created outside.
  symlinkSync(path.join(base, 'created-outside.js'), path.join(dir, SCRIPT_FILES[2]!));

  const { status, stderr } = refused(dir);
  assert.equal(status, 1);
  assert.match(stderr, new RegExp(`${SCRIPT_FILES[1]!.replace(/\./g, '\\.')} is a symlink .*refusing to write through it`));
  assert.equal(readFileSync(outside, 'utf8'), 'the victim');
  assert.equal(existsSync(path.join(base, 'created-outside.js')), false);
  assert.ok(lstatSync(path.join(dir, SCRIPT_FILES[1]!)).isSymbolicLink(), 'the symlink stays as it was');
  assert.deepEqual(readdirSync(dir).sort(), [SCRIPT_FILES[1], SCRIPT_FILES[2]].sort(), 'nothing else was written');
});

test('assets into a folder whose locales/ is a symlink to a folder outside writes nothing there', () => {
  const base = mkdtempSync(path.join(tmpdir(), 'itch-assets-'));
  const outside = path.join(base, 'elsewhere');
  mkdirSync(outside);
  writeFileSync(path.join(outside, 'de.js'), 'the victim');
  const dir = path.join(base, 'site');
  mkdirSync(dir);
  symlinkSync(outside, path.join(dir, 'locales'));

  const { status, stderr } = refused(dir);
  assert.equal(status, 1);
  assert.match(stderr, /locales is a symlink .*refusing to write through it/);
  assert.deepEqual(readdirSync(outside), ['de.js']);
  assert.equal(readFileSync(path.join(outside, 'de.js'), 'utf8'), 'the victim');
  assert.deepEqual(readdirSync(dir), ['locales'], 'nothing else was written');
});
