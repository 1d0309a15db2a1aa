import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { build, createServer, preview } from 'vite';
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

  it("moves the page's icon links before the capture, where the pending view reads them", () => {
    const plugin = itchOAuthCapture({ callback: 'callback.html', backend: '/b', captureSource: CAPTURE });
    const transform = plugin.transformIndexHtml as { handler: (html: string, ctx: { path: string }) => unknown };
    const page =
      '<head><meta charset="utf-8"><link rel="stylesheet" href="/a.css"><link rel="icon" href="data:,">' +
      "<link href='/i.png' rel='shortcut icon' sizes=any /></head>";
    assert.deepEqual(transform.handler(page, { path: '/callback.html' }), {
      html: '<head><meta charset="utf-8"><link rel="stylesheet" href="/a.css"></head>',
      tags: [
        { tag: 'link', attrs: { rel: 'icon', href: 'data:,' }, injectTo: 'head-prepend' },
        { tag: 'link', attrs: { href: '/i.png', rel: 'shortcut icon', sizes: 'any' }, injectTo: 'head-prepend' },
        { tag: 'script', attrs: { 'data-backend': '/b', 'data-no-redirect': false }, children: CAPTURE, injectTo: 'head-prepend' },
      ],
    });
    assert.deepEqual(transform.handler(page, { path: '/index.html' }), [], 'another page is left alone');
  });

  it('sets data-pending, and puts the color-scheme meta right before the capture, when asked', async () => {
    const { callback } = await buildSite({ pending: 'Opening the keep…', colorScheme: 'light dark' });
    const head = callback.slice(callback.indexOf('<head>') + '<head>'.length);
    assert.match(
      head,
      /^\s*<meta name="color-scheme" content="light dark">\s*<script data-backend="\/auth\/itch" data-pending="Opening the keep…">/,
    );
  });

  describe('with a handler, in dev and preview', () => {
    const seen: string[] = [];
    const handler = async (request: Request) => {
      seen.push(`${request.method} ${new URL(request.url).pathname} ${await request.text()}`);
      return Response.json({ user: { username: 'zoe' } }, { headers: { 'X-From': 'handler' } });
    };
    const plugin = () =>
      itchOAuthCapture({ callback: '/callback.html', backend: '/auth/itch', routes: ['/me'], captureSource: CAPTURE, handler });
    const HASH = cspHash(CAPTURE);

    async function checkServer(url: string) {
      const token = await fetch(`${url}/auth/itch`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{"access_token":"t"}',
      });
      assert.equal(token.status, 200);
      assert.equal(token.headers.get('x-from'), 'handler');
      assert.deepEqual(await token.json(), { user: { username: 'zoe' } });
      assert.equal((await fetch(`${url}/me`)).headers.get('x-from'), 'handler');
      assert.notEqual((await fetch(`${url}/`)).headers.get('x-from'), 'handler');
      const page = await fetch(`${url}/callback.html`);
      assert.equal(page.status, 200);
      assert.equal(page.headers.get('content-security-policy'), `script-src 'self' ${HASH}; object-src 'none'; base-uri 'none'`);
      assert.equal(page.headers.get('referrer-policy'), 'no-referrer');
      assert.equal(page.headers.get('cache-control'), 'no-store');
      assert.equal(page.headers.get('cross-origin-opener-policy'), 'same-origin');
      assert.match(await page.text(), /<head>\s*<script data-backend="\/auth\/itch">\(function\(\)\{\/\* capture \*\/\}\)\(\);<\/script>/);
    }

    it('serves the token endpoint at backend and the callback page with its headers in `vite`', async () => {
      const server = await createServer({
        root,
        logLevel: 'silent',
        configFile: false,
        server: { port: 0, host: '127.0.0.1' },
        plugins: [plugin()],
      });
      await server.listen();
      try {
        await checkServer(server.resolvedUrls!.local[0]!.replace(/\/$/, ''));
        assert.ok(seen.includes('POST /auth/itch {"access_token":"t"}'));
      } finally {
        await server.close();
      }
    });

    it('does the same in `vite preview`, with the built page', async () => {
      await build({
        root,
        logLevel: 'silent',
        configFile: false,
        build: { outDir: 'out', rollupOptions: { input: [join(root, 'index.html'), join(root, 'callback.html')] } },
        plugins: [plugin()],
      });
      const server = await preview({
        root,
        logLevel: 'silent',
        configFile: false,
        build: { outDir: 'out' },
        preview: { port: 0, host: '127.0.0.1' },
        plugins: [plugin()],
      });
      try {
        await checkServer(server.resolvedUrls!.local[0]!.replace(/\/$/, ''));
      } finally {
        await server.close();
      }
    });
  });
});
