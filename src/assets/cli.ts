// `npx itch-oauth-widget assets <dir>`: copies the script-tag files, and the languages the full
// and button files load from locales/ beside themselves, into a folder a site serves as it is.
// A page in another language than English whose site lacks locales/ silently speaks English.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

/** The script-tag files, as package.json exports them. */
export const SCRIPT_FILES = ['itch-oauth.iife.js', 'itch-oauth-button.iife.js', 'itch-oauth-capture.iife.js', 'itch-oauth-bridge.iife.js'];

const USAGE = `usage: itch-oauth-widget assets <dir>

Copies ${SCRIPT_FILES.join(', ')} and locales/ into <dir> (created if needed).
Files already there with the same content are left alone; the others are written.
Serve <dir> as it is, e.g. at your site's root: <script src="/itch-oauth.iife.js">.`;

/** The package's dist/: this file's folder once built, ../../dist from src/. */
function distFolder(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const built = path.basename(here) === 'dist' ? here : path.resolve(here, '../../dist');
  if (!existsSync(path.join(built, SCRIPT_FILES[0]!)))
    throw new Error(`itch-oauth-widget: ${built} has no script files: build the package first`);
  return built;
}

/**
 * Copies the files into `dir`, each only when it is missing or differs, and returns the paths it
 * wrote (relative to `dir`).
 */
export function copyAssets(dir: string, from = distFolder()): string[] {
  const written: string[] = [];
  const names = [...SCRIPT_FILES, ...readdirSync(path.join(from, 'locales')).map((name) => `locales/${name}`)];
  for (const name of names) {
    const source = readFileSync(path.join(from, name));
    const target = path.join(dir, name);
    if (existsSync(target) && readFileSync(target).equals(source)) continue;
    mkdirSync(path.dirname(target), { recursive: true });
    copyFileSync(path.join(from, name), target);
    written.push(name);
  }
  return written;
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
  const written = copyAssets(dir);
  for (const name of written) console.log(`wrote ${path.join(dir, name)}`);
  console.log(
    written.length === 0 ? `${dir}: already up to date` : `${written.length} file${written.length == 1 ? '' : 's'} written to ${dir}`,
  );
}
