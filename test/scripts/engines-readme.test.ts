// The drop-ins' READMEs (engines/**/README.md) go through the README check that npm test runs on
// the docs: every quoted block is found in the file it names (so the lines a README shows are the
// lines the drop-in has), and every relative link leads to a file.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const readmes = readdirSync(`${root}engines`, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('README.md'))
  .map((file) => `engines/${file}`)
  .sort();

describe('engines READMEs', () => {
  it('quote their drop-ins as they are, and link to files that exist', () => {
    assert.ok(readmes.length >= 6, `found ${readmes.join(', ')}`);
    const run = spawnSync(process.execPath, ['scripts/check-readme.mjs', ...readmes], { cwd: root, encoding: 'utf8' });
    assert.equal(run.status, 0, `${run.stdout}${run.stderr}`);
  });
});
