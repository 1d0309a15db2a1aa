// The server-rendered pages in the browser's language: the popup's start page (and its code
// confirmation), the unavailable page, the desktop callback page.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { callbackPage, CALLBACK_PAGE_CSP } from '../../src/desktop/callback-page.js';
import { popupStartPage, popupUnavailablePage } from '../../src/server/popup/start-page.js';

const STATE = `p.${'A'.repeat(43)}`;

describe('server-rendered pages follow Accept-Language', () => {
  it('the start page speaks German to a German browser, with Content-Language, Vary and <html lang>', async () => {
    const response = popupStartPage(STATE, { severed: 'confirm', siteName: 'Starfall <Keep>', acceptLanguage: 'de-DE,de;q=0.9,en;q=0.8' });
    const html = await response.text();
    assert.equal(response.headers.get('content-language'), 'de');
    assert.match(response.headers.get('vary') ?? '', /Accept-Language/);
    assert.match(html, /<html lang="de">/);
    assert.match(html, /<title>Mit itch.io anmelden<\/title>/);
    assert.match(html, /<strong>Starfall &lt;Keep&gt;<\/strong> \(<span id="origin"><\/span>\) bittet dich/);
    assert.match(html, /wähle „Es zeigt ihn nicht“/);
    // The script's words are German too.
    assert.match(html, /"leaving":"itch.io wird geöffnet…"/);
  });

  it('the start page is English for a language the package lacks, or no header', async () => {
    for (const acceptLanguage of ['nl-NL, sv;q=0.5', undefined]) {
      const response = popupStartPage(STATE, { severed: 'refuse', siteName: 'S', acceptLanguage });
      assert.equal(response.headers.get('content-language'), 'en');
      assert.match(await response.text(), /<html lang="en">[\s\S]*Checking the game that opened this window/);
    }
  });

  it('the unavailable page speaks Japanese to a Japanese browser', async () => {
    const response = popupUnavailablePage('ja-JP');
    assert.equal(response.status, 503);
    assert.equal(response.headers.get('content-language'), 'ja');
    assert.match(await response.text(), /現在このサイトではログインできません/);
  });

  it('the desktop callback page speaks Russian to a Russian browser, and its script still matches its CSP hash', () => {
    const [html, headers] = callbackPage('ru-RU,ru;q=0.9');
    assert.equal(headers['content-language'], 'ru');
    assert.equal(headers['content-security-policy'], CALLBACK_PAGE_CSP);
    assert.match(html, /<html lang="ru">[\s\S]*Завершаем вход через itch.io…/);
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1]!;
    const hash = `'sha256-${createHash('sha256').update(script, 'utf8').digest('base64')}'`;
    assert.ok(CALLBACK_PAGE_CSP.includes(hash), 'the inline script is the one the CSP allows');
  });
});
