// Every language fits: the login button (in a 16rem column) and the callback page's longest error
// view (in a 20rem column, a phone's width) are rendered from the npm build (dist/define.js),
// which loads each language as a chunk of dist/, and no text may overflow its box or be clipped.
// (The script-tag files load theirs from dist/locales/: see button-file.spec.ts.) A screenshot per
// language is attached. dist/ leaves Lit to the app (an app with Lit elements of its own shares one
// copy): an import map gives the browser Lit's modules from node_modules/, as a bundler would.
import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { LOCALES } from '../../src/i18n/catalogue.js';
import { ERROR_CODES } from '../../src/core/errors.js';
import { OUTCOME_KEY } from '../../src/capture/outcome.js';

const ROOT = new URL('../../', import.meta.url);
/** The page: the button, and the callback showing a popup login's longest refusal. */
const page = (locale: string) => `<!doctype html>
<html lang="${locale}"><meta charset="utf-8">
<style>body { font: 16px system-ui; margin: 1rem } .col { width: 16rem; margin-bottom: 1rem } .wide { width: 20rem }</style>
<script>sessionStorage.setItem(${JSON.stringify(OUTCOME_KEY)}, ${JSON.stringify(JSON.stringify({ code: ERROR_CODES.indexOf('popup_unverified'), flow: 0 }))});</script>
<script type="importmap">${JSON.stringify({ imports: LIT })}</script>
<script type="module" src="/dist/define.js"></script>
<div class="col"><itch-login-button client-id="c" redirect-uri="https://example.test/callback.html"></itch-login-button></div>
<div class="col wide"><itch-oauth-callback></itch-oauth-callback></div>
</html>`;

/** Lit's modules, by the names dist/ and Lit's own packages import them. */
const LIT = {
  lit: '/node_modules/lit/index.js',
  'lit-html': '/node_modules/lit-html/lit-html.js',
  'lit-html/': '/node_modules/lit-html/',
  'lit-element/': '/node_modules/lit-element/',
  '@lit/reactive-element': '/node_modules/@lit/reactive-element/reactive-element.js',
  '@lit/reactive-element/': '/node_modules/@lit/reactive-element/',
};

let server: Server;
let origin: string;
test.beforeAll(async () => {
  server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    const locale = /^\/page\/([\w-]+)$/.exec(path)?.[1];
    if (locale) return response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(locale));
    if (!/^\/(dist|node_modules\/(lit|lit-html|lit-element|@lit\/reactive-element))\/[\w./-]+\.js$/.test(path) || path.includes('..'))
      return response.writeHead(404).end();
    readFile(new URL(path.slice(1), ROOT)).then(
      (body) => response.writeHead(200, { 'content-type': 'text/javascript' }).end(body),
      () => response.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
test.afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

for (const locale of LOCALES) {
  test(`${locale}: the button and the callback's error view fit their boxes`, async ({ page: tab }, testInfo) => {
    const { widget } = (await import(`../../src/i18n/locales/${locale}.ts`)) as { widget: Record<string, string> };
    await tab.goto(`${origin}/page/${locale}`);
    // In the language (a chunk of dist/ for all but English), not in English first.
    await expect(tab.locator('itch-login-button [part=label]')).toHaveText(widget.login!);
    await expect(tab.locator('itch-oauth-callback .error')).toHaveText(widget.popup_unverified!);
    await expect(tab.locator('itch-oauth-callback [part=close]')).toHaveText(widget.close!);

    const overflows = await tab.evaluate(() => {
      const found: string[] = [];
      for (const host of document.querySelectorAll('itch-login-button, itch-oauth-callback')) {
        const column = host.parentElement!.getBoundingClientRect();
        const outer = host.getBoundingClientRect();
        if (outer.right > column.right + 1) found.push(`${host.localName} is wider than its column: ${outer.width} > ${column.width}`);
        for (const el of host.shadowRoot!.querySelectorAll<HTMLElement>('button, [part], p, span')) {
          const box = el.getBoundingClientRect();
          if (box.width === 0) continue;
          const name = `${host.localName} ${el.getAttribute('part') ?? el.localName}`;
          // Wider content than its box (scrolls or is cut), or sticking out of its host.
          if (el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0) found.push(`${name}: ${el.scrollWidth} > ${el.clientWidth}`);
          if (el.scrollHeight > el.clientHeight + 1 && el.clientHeight > 0)
            found.push(`${name} is cut: ${el.scrollHeight} > ${el.clientHeight}`);
          if (box.right > outer.right + 1 || box.left < outer.left - 1) found.push(`${name} sticks out of its element`);
        }
      }
      return found;
    });
    await testInfo.attach(`${locale}.png`, { body: await tab.screenshot({ fullPage: true }), contentType: 'image/png' });
    expect(overflows).toEqual([]);
  });
}
