// Markup the page did not write steers nothing, in every engine: an `<img>` or a `<form>` named
// `currentScript` shown before a script-tag file (Document's named properties override its
// built-ins) must neither choose where a language file is loaded from nor where the capture
// POSTs the token. The "attacker" is a second loopback origin that records every request.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { widget } from '../../src/i18n/locales/de.js';
import { flowRecord, startSite } from '../e2e/support/site.js';
import { waitFor, waitForUrl, type Session } from './driver.js';
import type { Scenario } from './scenarios.js';

const TOKEN = 'itchKEY_engines_markup_0123456789';

/** A server on another origin that answers everything and records each request's method and path. */
async function recorder(): Promise<{ origin: string; seen: string[]; close(): Promise<void> }> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'Content-Type': 'text/plain', 'Access-Control-Allow-Origin': '*' });
    res.end('');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const planted = (evil: string) => ({
  img: `<img name="currentScript" src="${evil}/x.png" data-backend="${evil}/steal" data-cross-origin alt="">`,
  form: `<form name="currentScript" action="${evil}/" data-backend="${evil}/steal" data-cross-origin></form>`,
});

/** Requests other than the planted image's own. */
const foreign = (seen: string[]) => seen.filter((line) => line !== 'GET /x.png');

const markupSteersNothing: Scenario = {
  name: 'planted markup: an <img> or <form> named currentScript before each script-tag file loads nothing from its origin on a German page, and the capture posts only to its real data-backend',
  async run(session: Session) {
    const evil = await recorder();
    const site = await startSite();
    try {
      for (const [kind, markup] of Object.entries(planted(evil.origin))) {
        for (const file of ['itch-oauth.iife.js', 'itch-oauth-button.iife.js']) {
          site.game = `<!doctype html><html lang="de"><head><meta charset="utf-8"><title>Spiel</title></head><body>
<p>${markup}</p><script src="/dist/${file}"></script>
<itch-login-button client-id="c" redirect-uri="${site.url}/callback.html"></itch-login-button></body></html>`;
          await session.goto(`${site.url}/game.html`);
          await waitFor(`the German words of ${file} behind an ${kind}`, async () =>
            session.evaluate(
              (words: string) => document.querySelector('itch-login-button')?.shadowRoot?.textContent?.includes(words) === true,
              widget.login,
            ),
          );
          assert.deepEqual(foreign(evil.seen), [], `${file} behind an ${kind} asked the planted element's origin`);
        }
        for (const capture of ['capture', 'full'] as const) {
          site.page = { capture, hostile: false, headStart: markup };
          site.backendCalls.length = 0;
          await session.goto(`${site.url}/game.html`);
          await session.evaluate((key: string, value: string) => sessionStorage.setItem(key, value), ...flowRecord(site));
          await session.start(`${site.url}/callback.html#access_token=${TOKEN}&state=S1`);
          await waitForUrl(session, 'the return-to', (url) => url.href === `${site.url}/return.html?from=login`);
          assert.equal(site.backendCalls.length, 1, `the ${capture} file behind an ${kind} posted to its real backend`);
          assert.deepEqual(foreign(evil.seen), [], `the ${capture} file behind an ${kind} sent something to the planted backend`);
        }
      }
    } finally {
      await site.close();
      await evil.close();
    }
  },
};

export const MARKUP_SCENARIOS: Scenario[] = [markupSteersNothing];
