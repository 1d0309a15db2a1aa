// The tarball of the current build, as `npm publish` would upload it, made once for the checks
// that install it (test/frameworks/ and examples/) or read it (scripts/check-packed-links.mjs):
// packed again only when a file it holds (dist/, the docs, the examples…) changed since.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const cache = path.join(root, 'node_modules', '.cache', 'itch-oauth-widget-pack');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Newest modification time of the files `npm pack` would put in the tarball (package.json's `files`). */
function newestPacked() {
  const listed = spawnSync(npm, ['pack', '--dry-run', '--json', '--silent', '--ignore-scripts'], {
    cwd: root,
    encoding: 'utf8',
    shell: process.platform === 'win32',
  });
  if (listed.status !== 0) throw new Error(`npm pack --dry-run failed:\n${listed.stderr}`);
  const [{ files }] = JSON.parse(listed.stdout);
  return Math.max(...files.map((file) => statSync(path.join(root, file.path)).mtimeMs));
}

/** @returns the path of the tarball of dist/ (build first: `npm run build`). */
export function pack() {
  const dist = path.join(root, 'dist');
  if (!existsSync(path.join(dist, 'jsx.d.ts'))) throw new Error('dist/ is missing or stale: run `npm run build` first');
  const built = newestPacked();
  const existing = existsSync(cache) ? readdirSync(cache).filter((file) => file.endsWith('.tgz')) : [];
  if (existing.length === 1 && statSync(path.join(cache, existing[0])).mtimeMs > built) return path.join(cache, existing[0]);
  rmSync(cache, { recursive: true, force: true });
  mkdirSync(cache, { recursive: true });
  // --ignore-scripts: dist/ is built already, and prepare's log would precede the JSON on stdout.
  // prepack and postpack are run here instead: clean-package takes the scripts (prepare, which
  // npm 11 warns installers about) and the devDependencies out of the published package.json.
  const manifest = path.join(root, 'package.json');
  const { atime, mtime } = statSync(manifest);
  const cleanPackage = path.join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'clean-package.cmd' : 'clean-package');
  const run = (command, args) => spawnSync(command, args, { cwd: root, encoding: 'utf8', shell: process.platform === 'win32' });
  const cleaned = run(cleanPackage, []);
  if (cleaned.status !== 0) throw new Error(`clean-package failed:\n${cleaned.stderr}`);
  let result;
  try {
    result = run(npm, ['pack', '--json', '--silent', '--ignore-scripts', '--pack-destination', cache]);
  } finally {
    const restored = run(cleanPackage, ['restore']);
    // Thrown even over npm pack's own error: an unrestored package.json is the worse state to leave.
    // eslint-disable-next-line no-unsafe-finally
    if (restored.status !== 0) throw new Error(`clean-package restore failed: package.json.backup holds the original\n${restored.stderr}`);
    // (Restored as it was: the check above still sees when package.json really changed.)
    utimesSync(manifest, atime, mtime);
  }
  if (result.status !== 0) throw new Error(`npm pack failed:\n${result.stderr}`);
  const [{ filename }] = JSON.parse(result.stdout);
  return path.join(cache, path.basename(filename));
}
