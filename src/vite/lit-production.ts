import { existsSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin, Rollup } from 'vite';

type ResolveIdHandler = (
  this: Rollup.PluginContext,
  source: string,
  importer: string | undefined,
  options: Parameters<Extract<NonNullable<Plugin['resolveId']>, (...args: never[]) => unknown>>[2],
) => Promise<Rollup.ResolveIdResult>;

/** Lit's packages, each with its development build in a `development/` folder beside the production one. */
const LIT = /^(?:lit|lit-html|lit-element|@lit\/reactive-element)(?:\/|$)/;
/** A file of Lit's development build, as resolved: the package's folder, then `development/`, then the rest. */
const LIT_DEVELOPMENT = /^(.*[\\/]node_modules[\\/](?:lit|lit-html|lit-element|@lit[\\/]reactive-element)[\\/])development[\\/](.*)$/;
/** A file of Lit's production build (where Lit's own imports come from once the package's resolve to it). */
const LIT_PRODUCTION = /[\\/]node_modules[\\/](?:lit|lit-html|lit-element|@lit[\\/]reactive-element)[\\/](?!development[\\/]|node[\\/])/;
/** This package as installed in a project. */
const INSTALLED = /[\\/]node_modules[\\/]itch-oauth-widget[\\/]/;

/** The package's own code, `dist/` and `src/` (from a clone), with symlinks resolved as Vite resolves them. */
function packageCode(): string[] {
  const here = path.dirname(fileURLToPath(import.meta.url));
  let root = path.basename(here) === 'vite' ? path.resolve(here, '../..') : path.resolve(here, '..');
  try {
    root = realpathSync(root);
  } catch {
    // Not on disk as such (bundled): the installed package's path still tells.
  }
  return [path.join(root, 'dist') + path.sep, path.join(root, 'src') + path.sep];
}

/**
 * The production file for a resolved Lit development file (the same path without `development/`,
 * which Lit's packages ship side by side; a query such as Vite's `?v=` kept), or `undefined` when
 * it is not one.
 * @see https://lit.dev/docs/tools/development/#development-and-production-builds
 */
export function litProductionFile(resolved: string): string | undefined {
  const [file, query] = resolved.split(/(?=\?)/);
  const [, folder, rest] = LIT_DEVELOPMENT.exec(file!) ?? [];
  if (folder === undefined || rest === undefined) return undefined;
  const production = folder + rest;
  return existsSync(production) ? production + (query ?? '') : undefined;
}

/**
 * Whether the app at `root` depends on Lit itself (its package.json): then it uses Lit's development
 * build in dev on purpose, and a second, production Lit for the package would only add a "Multiple
 * versions of Lit loaded" warning.
 */
export function appUsesLit(root: string): boolean {
  try {
    const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as Record<
      string,
      Record<string, string> | undefined
    >;
    const names = ['dependencies', 'devDependencies', 'peerDependencies'].flatMap((field) => Object.keys(manifest[field] ?? {}));
    return names.some((name) => LIT.test(name));
  } catch {
    return false;
  }
}

/**
 * Resolves Lit's packages to Lit's production build for the package's own files (and for what
 * Lit's production files import) while `on()`: in `vite` dev, where Vite's `development` export
 * condition picks Lit's development build, which logs "Lit is in dev mode" on every page. The app's
 * own imports of Lit keep the build Vite picks. One plugin object for both of Vite's resolvers: its
 * plugin pipeline and its dependency pre-bundling (`optimizeDeps.rolldownOptions.plugins`), where an
 * installed package is bundled with Lit inside.
 */
export function litProductionForPackage(on: () => boolean): Plugin & { resolveId: { filter: { id: RegExp }; handler: ResolveIdHandler } } {
  const ours = packageCode();
  const fromPackage = (importer: string): boolean =>
    INSTALLED.test(importer) || ours.some((folder) => importer.startsWith(folder)) || LIT_PRODUCTION.test(importer);
  return {
    name: 'itch-oauth-capture:lit-production',
    enforce: 'pre',
    resolveId: {
      filter: { id: LIT },
      async handler(source, importer, options) {
        if (!on() || importer === undefined || !fromPackage(importer)) return null;
        const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
        if (resolved === null || resolved.external) return resolved;
        const production = litProductionFile(resolved.id);
        return production === undefined ? resolved : { ...resolved, id: production };
      },
    },
  };
}
