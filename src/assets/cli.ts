// `npx itch-oauth-widget assets <dir>`: copies the script-tag files, and the languages the full
// and button files load from locales/ beside themselves, into a folder a site serves as it is.
// A page in another language than English whose site lacks locales/ silently speaks English.
// It writes inside <dir> only: a symlink in it (a file or locales/ itself) is refused, never
// followed, and each file is written to a new temporary file beside it, then renamed into place.
import { randomBytes } from 'node:crypto';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

/** The script-tag files, as package.json exports them. */
export const SCRIPT_FILES = ['itch-oauth.iife.js', 'itch-oauth-button.iife.js', 'itch-oauth-capture.iife.js', 'itch-oauth-bridge.iife.js'];

const USAGE = `usage: itch-oauth-widget assets <dir>

Copies ${SCRIPT_FILES.join(', ')} and locales/ into <dir> (created if needed).
Files already there with the same content are left alone; the others are written.
A symlink inside <dir> where a file or locales/ goes is refused: nothing is written outside <dir>.
Serve <dir> as it is, e.g. at your site's root: <script src="/itch-oauth.iife.js">.`;

/** The package's dist/: this file's folder once built, ../../dist from src/. */
function distFolder(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const built = path.basename(here) === 'dist' ? here : path.resolve(here, '../../dist');
  if (!existsSync(path.join(built, SCRIPT_FILES[0]!)))
    throw new Error(`itch-oauth-widget: ${built} has no script files: build the package first`);
  return built;
}

/** What stands at `target`, not following a symlink: `undefined` when nothing does. */
function entryAt(target: string) {
  try {
    return lstatSync(target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Refuses a symlink (or anything else than `kind`) where the copy writes. */
function refuseUnlessPlain(target: string, kind: 'file' | 'directory'): boolean {
  const entry = entryAt(target);
  if (entry === undefined) return false;
  if (entry.isSymbolicLink())
    throw new Error(
      `itch-oauth-widget: ${target} is a symlink (to ${readlinkSync(target)}): refusing to write through it; remove it and run again`,
    );
  if (kind === 'file' ? !entry.isFile() : !entry.isDirectory()) throw new Error(`itch-oauth-widget: ${target} is not a ${kind}`);
  return true;
}

/** Writes `content` to `target` by a new file beside it (`wx`: never an existing path) renamed into place. */
function replaceFile(target: string, content: Buffer): void {
  const temporary = path.join(path.dirname(target), `.${path.basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
  writeFileSync(temporary, content, { flag: 'wx', mode: 0o644 });
  try {
    renameSync(temporary, target);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/**
 * Copies the files into `dir`, each only when it is missing or differs, and returns the paths it
 * wrote (relative to `dir`). Every place it writes is checked first: a symlink there (to a file,
 * or `locales` to a folder) throws before anything is written.
 */
export function copyAssets(dir: string, from = distFolder()): string[] {
  const names = [...SCRIPT_FILES, ...readdirSync(path.join(from, 'locales')).map((name) => `locales/${name}`)];
  mkdirSync(dir, { recursive: true });
  // The folder named is the one written (even when it is itself a link the user made).
  const root = realpathSync(dir);
  const locales = path.join(root, 'locales');
  const hasLocales = refuseUnlessPlain(locales, 'directory');
  const changed = names.filter((name) => {
    const target = path.join(root, name);
    return !refuseUnlessPlain(target, 'file') || !readFileSync(target).equals(readFileSync(path.join(from, name)));
  });
  if (!hasLocales && changed.some((name) => name.startsWith('locales/'))) mkdirSync(locales);
  for (const name of changed) replaceFile(path.join(root, name), readFileSync(path.join(from, name)));
  return changed;
}

export async function main(args: string[]): Promise<void> {
  let dir: string | undefined;
  try {
    const parsed = parseArgs({ args, allowPositionals: true, options: { help: { type: 'boolean', short: 'h' } } });
    if (parsed.values.help) return void console.log(USAGE);
    if (parsed.positionals.length !== 1) throw new Error('one folder, please');
    dir = parsed.positionals[0]!;
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  let written: string[];
  try {
    written = copyAssets(dir);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
  for (const name of written) console.log(`wrote ${path.join(dir, name)}`);
  console.log(
    written.length === 0 ? `${dir}: already up to date` : `${written.length} file${written.length == 1 ? '' : 's'} written to ${dir}`,
  );
}
