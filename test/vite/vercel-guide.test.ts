// The Vite guide's vercel.json (fixtures/vercel.json, quoted whole in docs/guides/spa-vite.md), with
// its 'sha256-…' replaced by plugin.api.cspHash as the guide says: for the built callback page it
// sends exactly the headers the plugin sends in dev and preview, and its policy allows the capture
// that `vite build` inlined there. Against the built package, as a user's vite.config.js imports it.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { itchOAuthCapture } from 'itch-oauth-widget/vite';
import { build } from 'vite';

interface VercelConfig {
  headers: { source: string; headers: { key: string; value: string }[] }[];
}

const plugin = itchOAuthCapture({ callback: '/callback.html', backend: '/auth/itch' });
const vercel = JSON.parse(
  readFileSync(new URL('./fixtures/vercel.json', import.meta.url), 'utf8').replaceAll("'sha256-…'", plugin.api.cspHash),
) as VercelConfig;

describe("the Vite guide's vercel.json", () => {
  let root: string;
  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'itch-vercel-'));
    writeFileSync(join(root, 'callback.html'), '<!doctype html><html><head><meta charset="utf-8"></head><body></body></html>');
    await build({
      root,
      logLevel: 'silent',
      build: { outDir: 'dist', rollupOptions: { input: [join(root, 'callback.html')] } },
      plugins: [plugin],
    });
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('sends the built callback page the headers the plugin sends, and nothing else', () => {
    assert.equal(vercel.headers.length, 1);
    const [rule] = vercel.headers;
    assert.ok(existsSync(join(root, 'dist', rule!.source)), `${rule!.source} is the page vite build wrote`);
    assert.deepEqual(Object.fromEntries(rule!.headers.map(({ key, value }) => [key, value])), plugin.api.callbackHeaders);
  });

  it('allows the capture vite build inlined in the callback page, and no other inline script', () => {
    const page = readFileSync(join(root, 'dist', 'callback.html'), 'utf8');
    const inline = [...page.matchAll(/<script\b(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((match) => match[1]!);
    assert.equal(inline.length, 1, 'the capture');
    const policy = vercel.headers[0]!.headers.find(({ key }) => key === 'Content-Security-Policy')!.value;
    const scriptSrc = /(?:^|;)\s*script-src ([^;]*)/.exec(policy)![1]!.trim().split(/\s+/);
    const hash = `'sha256-${createHash('sha256').update(inline[0]!, 'utf8').digest('base64')}'`;
    assert.deepEqual(scriptSrc, ["'self'", hash]);
  });
});
