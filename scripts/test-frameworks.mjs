// Type-checks the plain TypeScript, React 19, Vue 3, Svelte 5 and Angular fixture apps in test/frameworks/ against
// the package as users get it: the `npm pack` tarball of the current build (run `npm run build`
// first). One install for all four (test/frameworks/package.json), reused while its lockfile and
// the tarball are unchanged. `--build` also builds the React and Vue apps with Vite (for e2e).
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pack } from './pack.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const fixtures = path.join(root, 'test', 'frameworks');
const modules = path.join(fixtures, 'node_modules');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const started = performance.now();

function sha256(file) {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

function run(command, args, cwd) {
  const result = spawnSync(command, args, {
    cwd,
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
    shell: process.platform === 'win32',
  });
  if (result.status !== 0) {
    process.stdout.write(result.stdout ?? '');
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}`);
  }
  return result.stdout;
}

/** The fixtures' own dependencies (lockfile), then the tarball; each only when it changed. */
function install(tarball) {
  const lockStamp = path.join(modules, '.fixtures-lock.sha256');
  const lockHash = sha256(path.join(fixtures, 'package-lock.json'));
  if (!existsSync(lockStamp) || readFileSync(lockStamp, 'utf8') !== lockHash) {
    console.log('installing the fixtures’ dependencies (npm ci)');
    run(npm, ['ci', '--no-audit', '--no-fund', '--loglevel=error'], fixtures);
    writeFileSync(lockStamp, lockHash);
  }
  const packStamp = path.join(modules, '.itch-oauth-widget.sha256');
  const packHash = sha256(tarball);
  if (!existsSync(packStamp) || readFileSync(packStamp, 'utf8') !== packHash) {
    console.log(`installing ${path.relative(root, tarball)}`);
    run(npm, ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--loglevel=error', tarball], fixtures);
    writeFileSync(packStamp, packHash);
  } else {
    console.log('the tarball is unchanged: reusing the install');
  }
}

const requireFixture = createRequire(path.join(fixtures, 'package.json'));
const bin = (pkg, file) => path.join(path.dirname(requireFixture.resolve(`${pkg}/package.json`)), file);

/**
 * The checkers, run in test/frameworks/ (resolved once the fixtures are installed). Plain TS and React (tsc) and Vue (vue-tsc) mark their mistakes with
 * the checker's own expect-error comments and must pass. Svelte and Angular have none for markup:
 * their `mistakes` file marks each mistake with an "expect-error" comment on the line before, and
 * the check passes when exactly those lines have errors.
 */
const checkers = () => ({
  plain: { args: [bin('typescript', 'bin/tsc'), '-p', 'plain/tsconfig.json', '--pretty', 'false'] },
  react: { args: [bin('typescript', 'bin/tsc'), '-p', 'react/tsconfig.json', '--pretty', 'false'] },
  vue: { args: [bin('vue-tsc', 'bin/vue-tsc.js'), '-p', 'vue/tsconfig.json', '--pretty', 'false'] },
  svelte: {
    args: [
      bin('svelte-check', 'bin/svelte-check'),
      '--workspace',
      'svelte',
      '--tsconfig',
      './tsconfig.json',
      '--fail-on-warnings',
      '--output',
      'machine',
    ],
    mistakes: 'svelte/src/Mistakes.svelte',
  },
  angular: {
    args: [bin('@angular/compiler-cli', 'bundles/src/bin/ngc.js'), '-p', 'angular/tsconfig.json'],
    mistakes: 'angular/src/mistakes.component.ts',
  },
});

/** `file:line` of every error or warning the checker printed, relative to test/frameworks/. */
function problems(name, output) {
  const found = new Set();
  // eslint-disable-next-line no-control-regex -- the terminal's colour codes, taken out
  output = output.replace(/\x1b\[[0-9;]*m/g, '');
  // ngc: src/x.ts:12:66 - error TS2339: …
  for (const match of output.matchAll(/^(\S+?):(\d+):\d+ - error/gm)) found.add(`${path.join(name, match[1])}:${match[2]}`);
  for (const match of output.matchAll(/^(\S[^(\n]*?)\((\d+),\d+\): error/gm))
    found.add(`${path.join(name === 'angular' ? name : '', match[1])}:${match[2]}`);
  for (const match of output.matchAll(/^\d+ (?:ERROR|WARNING) "(.+?)" (\d+):\d+/gm)) found.add(`${path.join(name, match[1])}:${match[2]}`);
  return found;
}

/** The lines that must have an error: the one after each "expect-error" comment. */
function expectedMistakes(file) {
  if (!file) return new Set();
  const lines = readFileSync(path.join(fixtures, file), 'utf8').split('\n');
  return new Set(lines.flatMap((line, index) => (/<!-- expect-error\b/.test(line) ? [`${path.normalize(file)}:${index + 2}`] : [])));
}

function check(name, { args, mistakes }) {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, args, {
      cwd: fixtures,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => {
      const expected = expectedMistakes(mistakes);
      const found = problems(name, output);
      const unexpected = [...found].filter((at) => !expected.has(at));
      const missed = [...expected].filter((at) => !found.has(at));
      const ok = (code === 0 || expected.size > 0) && unexpected.length === 0 && missed.length === 0 && (code !== 0) === expected.size > 0;
      const notes = missed.map((at) => `${at}: a mistake the types did not reject`);
      resolve({
        name,
        ok,
        output: [...notes, output.trim()].join('\n'),
        seconds: (performance.now() - t0) / 1000,
        rejected: expected.size,
      });
    });
  });
}

async function main() {
  const only = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
  const tarball = pack();
  install(tarball);
  const checks = checkers();
  const names = only.length ? only : Object.keys(checks);
  const results = await Promise.all(names.map((name) => check(name, checks[name])));
  let failed = 0;
  for (const { name, ok, output, seconds, rejected } of results) {
    console.log(`${ok ? 'ok' : 'FAILED'} ${name} type check (${seconds.toFixed(1)} s)${rejected ? `, ${rejected} mistakes rejected` : ''}`);
    if (!ok) {
      failed++;
      console.log(output.trim());
    }
  }
  if (process.argv.includes('--build')) {
    const vite = bin('vite', 'bin/vite.js');
    for (const app of ['react', 'vue'])
      run(process.execPath, [vite, 'build', '--logLevel', 'warn', '--config', `${app}/vite.config.ts`], fixtures);
    console.log(`built ${readdirSync(path.join(fixtures, 'dist')).join(', ')} into test/frameworks/dist`);
  }
  console.log(`${results.length - failed} passed, ${failed} failed (${((performance.now() - started) / 1000).toFixed(1)} s in all)`);
  process.exitCode = failed ? 1 : 0;
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
