import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { build } from 'vite';
import { cspHash, itchOAuthCapture, type ItchOAuthCaptureOptions } from '../../src/vite/index.js';

const CAPTURE = '(function(){/* capture */})();';

describe('itchOAuthCapture (Vite plugin)', () => {
  let root: string;
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'itch-vite-'));
    const page = '<!doctype html><html><head><meta charset="utf-8"><script src="/analytics.js"></script></head><body></body></html>';
    writeFileSync(join(root, 'callback.html'), page);
    writeFileSync(join(root, 'index.html'), page);
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  async function buildSite(extra: Partial<ItchOAuthCaptureOptions> = {}) {
    await build({
      root,
      logLevel: 'silent',
      build: { outDir: 'out', rollupOptions: { input: [join(root, 'index.html'), join(root, 'callback.html')] } },
      plugins: [itchOAuthCapture({ callback: '/callback.html', backend: '/auth/itch', captureSource: CAPTURE, ...extra })],
    });
    return {
      callback: readFileSync(join(root, 'out', 'callback.html'), 'utf8'),
      index: readFileSync(join(root, 'out', 'index.html'), 'utf8'),
    };
  }

  it('puts the capture first in <head> of the callback page, before every other script', async () => {
    const { callback } = await buildSite();
    const head = callback.slice(callback.indexOf('<head>') + '<head>'.length);
    assert.match(head, /^\s*<script data-backend="\/auth\/itch">\(function\(\)\{\/\* capture \*\/\}\)\(\);<\/script>/);
  });

  it('leaves every other page alone', async () => {
    const { index } = await buildSite();
    assert.doesNotMatch(index, /capture/);
  });

  it('gives the CSP hash of exactly the inlined text', () => {
    const plugin = itchOAuthCapture({ callback: 'callback.html', backend: '/b', captureSource: CAPTURE });
    const expected = createHash('sha256').update(CAPTURE).digest('base64');
    assert.equal(plugin.api.cspHash, `'sha256-${expected}'`);
    assert.equal(cspHash(CAPTURE), plugin.api.cspHash);
  });

  it('sets data-no-redirect only when asked', async () => {
    const plugin = itchOAuthCapture({ callback: 'callback.html', backend: '/b', noRedirect: true, captureSource: CAPTURE });
    const transform = plugin.transformIndexHtml as { handler: (html: string, ctx: { path: string }) => unknown };
    assert.deepEqual(transform.handler('', { path: '/callback.html' }), [
      { tag: 'script', attrs: { 'data-backend': '/b', 'data-no-redirect': true }, children: CAPTURE, injectTo: 'head-prepend' },
    ]);
  });

  it("puts the pending view's style before the capture, after the color-scheme meta, when asked", async () => {
    const style = 'output { font: 1.25rem system-ui }';
    const plugin = itchOAuthCapture({ callback: '/callback.html', backend: '/auth/itch', captureSource: CAPTURE, pendingStyle: style });
    assert.equal(plugin.api.styleHash, cspHash(style));
    const { callback } = await buildSite({ colorScheme: 'light dark', pendingStyle: style });
    const head = callback.slice(callback.indexOf('<head>') + '<head>'.length);
    assert.match(
      head,
      /^\s*<meta name="color-scheme" content="light dark">\s*<style>output \{ font: 1\.25rem system-ui \}<\/style>\s*<script data-backend="\/auth\/itch">/,
    );
  });

  it('sets data-pending, and puts the color-scheme meta right before the capture, when asked', async () => {
    const { callback } = await buildSite({ pending: 'Opening the keep…', colorScheme: 'light dark' });
    const head = callback.slice(callback.indexOf('<head>') + '<head>'.length);
    assert.match(
      head,
      /^\s*<meta name="color-scheme" content="light dark">\s*<script data-backend="\/auth\/itch" data-pending="Opening the keep…">/,
    );
  });
});
