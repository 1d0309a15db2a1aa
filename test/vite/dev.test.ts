// The plugin in `vite` dev: the callback page's inline modules and every other request Vite
// answers reach Vite; the dev CSP adds only what Vite dev put in the page; the package's own
// imports of Lit resolve to Lit's production build. (In a real browser, with a React app and a
// login: test/e2e/vite-react.spec.ts.)
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { createServer, type Plugin, type ViteDevServer } from 'vite';
import { cspHash, devInlineHashes, inlineScripts, withScriptHashes } from '../../src/vite/dev-csp.js';
import { itchOAuthCapture } from '../../src/vite/index.js';
import { appUsesLit, litProductionFile } from '../../src/vite/lit-production.js';

const CAPTURE = '(function(){/* capture */})();';
const PREAMBLE = 'window.$injected$ = true;';
const repo = realpathSync(fileURLToPath(new URL('../../', import.meta.url)));

/** What plugin-react does in dev: an inline script in every page. */
const injector: Plugin = {
  name: 'injector',
  transformIndexHtml: () => [{ tag: 'script', attrs: { type: 'module' }, children: PREAMBLE, injectTo: 'head' }],
};

describe('itchOAuthCapture in `vite` dev', () => {
  let root: string;
  let server: ViteDevServer;
  let url: string;
  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'itch-vite-dev-'));
    writeFileSync(
      join(root, 'callback.html'),
      '<!doctype html><html><head><script type="module">document.title = "ran";</script></head><body></body></html>',
    );
    server = await createServer({
      root,
      logLevel: 'silent',
      configFile: false,
      server: { port: 0, host: '127.0.0.1' },
      plugins: [injector, itchOAuthCapture({ callback: '/callback.html', backend: '/auth/itch', captureSource: CAPTURE })],
    });
    await server.listen();
    url = server.resolvedUrls!.local[0]!.replace(/\/$/, '');
  });
  after(async () => {
    await server?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("answers the page, and lets Vite answer its inline module's request (`?html-proxy`)", async () => {
    const page = await fetch(`${url}/callback.html`, { headers: { 'Sec-Fetch-Dest': 'document' } });
    assert.match(page.headers.get('content-type')!, /^text\/html/);
    const html = await page.text();
    const proxy = /src="(\/callback\.html\?html-proxy[^"]*)"/.exec(html)?.[1];
    assert.ok(proxy, `the page refers to its inline module: ${html}`);
    const module = await fetch(`${url}${proxy.replace(/&amp;/g, '&')}`, { headers: { 'Sec-Fetch-Dest': 'script' } });
    assert.match(module.headers.get('content-type')!, /javascript/);
    assert.match(await module.text(), /document\.title = "ran"/);
    assert.equal(module.headers.get('content-security-policy'), null, "Vite's answer, without the page's headers");
  });

  it("lets Vite answer `?html-proxy` also when the request does not say it is a script's (no Sec-Fetch-Dest)", async () => {
    const asScript = await fetch(`${url}/callback.html?html-proxy&index=0.js`);
    assert.match(asScript.headers.get('content-type')!, /javascript/);
  });

  it('adds the hash of the inline script Vite dev put in the page to the dev CSP, and nothing else', async () => {
    const page = await fetch(`${url}/callback.html`);
    assert.equal(
      page.headers.get('content-security-policy'),
      `script-src 'self' ${cspHash(CAPTURE)} ${cspHash(PREAMBLE)}; object-src 'none'; base-uri 'none'`,
    );
  });
});

describe('the dev CSP', () => {
  it("adds no hash for the page's own inline scripts, which preview and production refuse too", () => {
    const source = '<head><script>mine()</script></head>';
    const served = `<head><script>${CAPTURE}</script><script>mine()</script><script type="module">${PREAMBLE}</script><script src="/x.js"></script></head>`;
    assert.deepEqual(inlineScripts(served), [CAPTURE, 'mine()', PREAMBLE]);
    assert.deepEqual(devInlineHashes(source, served), [cspHash(CAPTURE), cspHash(PREAMBLE)]);
  });

  it('adds hashes to script-src and script-src-elem only', () => {
    assert.equal(
      withScriptHashes("default-src 'self'; script-src 'self' 'sha256-a'; script-src-elem 'self'; img-src *", ["'sha256-b'"]),
      "default-src 'self'; script-src 'self' 'sha256-a' 'sha256-b'; script-src-elem 'self' 'sha256-b'; img-src *",
    );
    assert.equal(withScriptHashes("default-src 'self'", ["'sha256-b'"]), "default-src 'self'");
  });

  it("leaves a script-src that allows every inline script as it is (a hash would turn 'unsafe-inline' off)", () => {
    assert.equal(withScriptHashes("script-src 'self' 'unsafe-inline'", ["'sha256-b'"]), "script-src 'self' 'unsafe-inline'");
  });
});

describe("Lit's production build for the package in dev", () => {
  it("maps a file of Lit's development build to its production twin", () => {
    const development = join(repo, 'node_modules', 'lit-html', 'development', 'lit-html.js');
    assert.equal(litProductionFile(development), join(repo, 'node_modules', 'lit-html', 'lit-html.js'));
    assert.equal(litProductionFile(`${development}?v=1234`), join(repo, 'node_modules', 'lit-html', 'lit-html.js?v=1234'));
    assert.equal(litProductionFile(join(repo, 'node_modules', 'lit-html', 'lit-html.js')), undefined);
  });

  /**
   * Where `source` resolves from `importer` in a dev server for `root`, without the query, through
   * Vite's plugin pipeline (pre-bundling off: an installed package pre-bundled with Lit inside is
   * test/e2e/vite-react.spec.ts's).
   */
  async function resolveIn(root: string, source: string, importer: string): Promise<string | undefined> {
    const server = await createServer({
      root,
      logLevel: 'silent',
      configFile: false,
      server: { middlewareMode: true, hmr: false },
      optimizeDeps: { noDiscovery: true },
      plugins: [itchOAuthCapture({ callback: '/callback.html', backend: '/auth/itch', captureSource: CAPTURE })],
    });
    try {
      return (await server.environments.client.pluginContainer.resolveId(source, importer))?.id.split('?')[0];
    } finally {
      await server.close();
    }
  }
  const modules = join(repo, 'node_modules');
  let app: string;
  before(() => {
    app = mkdtempSync(join(tmpdir(), 'itch-vite-lit-'));
  });
  after(() => rmSync(app, { recursive: true, force: true }));

  it("resolves Lit's packages to their production build for the package's files, installed or from a clone", async () => {
    for (const importer of [
      join(repo, 'dist', 'login.js'),
      join(repo, 'src', 'ui', 'lit.ts'),
      join(modules, 'itch-oauth-widget', 'dist', 'login.js'),
    ]) {
      assert.equal(await resolveIn(app, 'lit-html', importer), join(modules, 'lit-html', 'lit-html.js'), importer);
    }
  });

  it("resolves what Lit's production files import to the production build too", async () => {
    assert.equal(
      await resolveIn(app, 'lit-element/lit-element.js', join(modules, 'lit', 'index.js')),
      join(modules, 'lit-element', 'lit-element.js'),
    );
    assert.equal(
      await resolveIn(app, '@lit/reactive-element', join(modules, 'lit-element', 'lit-element.js')),
      join(modules, '@lit', 'reactive-element', 'reactive-element.js'),
    );
  });

  it("leaves the app's own imports with the build Vite picks in dev, the development build", async () => {
    // An app's file beside the repository's node_modules: its demo's.
    assert.equal(await resolveIn(app, 'lit-html', join(repo, 'demo', 'main.js')), join(modules, 'lit-html', 'development', 'lit-html.js'));
  });

  it('leaves an app that depends on Lit itself with one Lit, the build Vite picks', async () => {
    const litApp = join(app, 'lit-app');
    mkdirSync(litApp);
    writeFileSync(join(litApp, 'package.json'), JSON.stringify({ dependencies: { lit: '^3.3.0' } }));
    assert.equal(appUsesLit(litApp), true);
    assert.equal(appUsesLit(app), false);
    assert.equal(
      await resolveIn(litApp, 'lit-html', join(repo, 'dist', 'login.js')),
      join(modules, 'lit-html', 'development', 'lit-html.js'),
    );
  });
});
