// Installs the package as users get it (the `npm pack` tarball of the current build, shared with
// test/frameworks/) into examples/, once for all of them: examples/package.json holds every
// example's dependencies (Express, Hono, Vite, wrangler with workerd, Deno and Bun from npm).
// Reinstalls only what changed. `--run` then runs the examples' end-to-end specs
// (test/e2e/examples.spec.ts and test/e2e/phaser-game.spec.ts, also part of `npm run test:e2e`).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pack } from './pack.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const examples = path.join(root, 'examples');
const modules = path.join(examples, 'node_modules');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const started = performance.now();

const sha256 = (file) => createHash('sha256').update(readFileSync(file)).digest('hex');

function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed in ${cwd}`);
}

/** Runs `step` when the files' hash differs from the one stamped after it last ran. */
function whenChanged(stamp, files, step) {
  const at = path.join(modules, stamp);
  const hash = files.map(sha256).join(' ');
  if (existsSync(at) && readFileSync(at, 'utf8') === hash) return false;
  step();
  writeFileSync(at, hash);
  return true;
}

try {
  const tarball = pack();
  // One npm install for both: the examples' dependencies (from the lockfile) and the tarball
  // (not saved). npm install, not npm ci: ci refuses a lockfile that lacks some of Deno's optional
  // per-platform binaries, and the registry a lockfile is made from may not serve them all.
  const installed = whenChanged('.installed.sha256', [path.join(examples, 'package-lock.json'), tarball], () => {
    console.log(`installing the examples’ dependencies and ${path.relative(root, tarball)} into examples/`);
    run(npm, ['install', '--no-save', '--no-audit', '--no-fund', '--loglevel=error', tarball], examples);
  });
  if (!installed) console.log('examples/: the lockfile and the tarball are unchanged, reusing the install');
  console.log(`examples/ ready (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  if (process.argv.includes('--run'))
    run(
      process.execPath,
      [
        path.join(root, 'node_modules', '@playwright', 'test', 'cli.js'),
        'test',
        'test/e2e/examples.spec.ts',
        'test/e2e/phaser-game.spec.ts',
        '--workers',
        '1',
      ],
      root,
    );
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
