// ESLint over the repository. typescript-eslint parses with TypeScript's JavaScript API, which the
// project's TypeScript 7 no longer ships, so ESLint lives in tools/lint with its own lockfile and
// TypeScript 6.0, installed here the first time (and again when that lockfile changes).
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const tools = path.join(root, 'tools/lint');
const installed = path.join(tools, 'node_modules/.package-lock.json');

function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (!existsSync(installed) || statSync(installed).mtimeMs < statSync(path.join(tools, 'package-lock.json')).mtimeMs) {
  run('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], tools);
}
run(
  path.join(tools, 'node_modules/.bin/eslint'),
  ['--config', path.join(tools, 'eslint.config.mjs'), '--max-warnings=0', ...process.argv.slice(2), '.'],
  root,
);
