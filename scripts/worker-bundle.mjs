// Bundles examples/cloudflare-worker's entry as wrangler would (esbuild, ES module, minified, the
// `workerd`/`worker`/`browser` export conditions, the script files as text by the example's Text
// rule), with `itch-oauth-widget` resolved to this repository's dist/ through its package.json
// exports: what a Worker that uses the package carries. Used by scripts/check-size.mjs; run
// `node scripts/worker-bundle.mjs` to see what each input adds.
// @see https://developers.cloudflare.com/workers/wrangler/bundling/
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const entry = 'examples/cloudflare-worker/src/worker.js';

/** Resolves `itch-oauth-widget` and its subpaths to the built files its exports name. */
const thisPackage = {
  name: 'this-package',
  setup(build) {
    const { name, exports } = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));
    build.onResolve({ filter: new RegExp(`^${name}(/|$)`) }, ({ path }) => {
      const target = exports[`.${path.slice(name.length)}`];
      const file = typeof target === 'string' ? target : target?.default;
      if (file === undefined) return { errors: [{ text: `${path} is not in package.json exports` }] };
      return { path: `${root}${file.slice(2)}` };
    });
  },
};

/**
 * Resolves the example's other bare imports (hono, unstorage) from the repository's node_modules,
 * as the package's own imports are: whether examples/node_modules is installed must not change the
 * figure (two copies of one library would be counted otherwise).
 */
const fromRoot = {
  name: 'from-root',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.pluginData?.fromRoot || args.path.includes(':') || !args.importer.includes('/examples/')) return undefined;
      return build.resolve(args.path, { kind: args.kind, resolveDir: root, pluginData: { fromRoot: true } });
    });
  },
};

/** The Worker's bundle (minified ES module), and the metafile that says what each input adds. */
export async function measureWorker() {
  const result = await build({
    entryPoints: [`${root}${entry}`],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    external: ['cloudflare:*', 'node:*'],
    loader: { '.iife.js': 'text' },
    nodePaths: [`${root}node_modules`],
    plugins: [thisPackage, fromRoot],
    logLevel: 'error',
    metafile: true,
    write: false,
  });
  return { entry, code: result.outputFiles[0].contents, metafile: result.metafile };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { code, metafile } = await measureWorker();
  const [output] = Object.values(metafile.outputs);
  const byInput = Object.entries(output.inputs).sort(([, a], [, b]) => b.bytesInOutput - a.bytesInOutput);
  for (const [input, { bytesInOutput }] of byInput.slice(0, 25)) console.log(`${String(bytesInOutput).padStart(8)} ${input}`);
  console.log(`${String(code.length).padStart(8)} B in all (minified, before gzip)`);
}
