// `npx itch-oauth-widget assets <dir>` (after npm run build: it copies dist/'s files).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
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
