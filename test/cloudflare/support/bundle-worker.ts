import { build } from 'esbuild';

/**
 * A Worker's module as wrangler bundles one (workerd's export conditions, ESM, every import
 * inlined): `contents` with its imports resolved from `resolveDir`.
 */
export async function bundleWorker(contents: string, resolveDir: string): Promise<string> {
  const result = await build({
    stdin: { contents, resolveDir, loader: 'js' },
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}
