import { createHash } from 'node:crypto';
import { desktopWords } from '../i18n/desktop-pages.js';

/**
 * The page the loopback listener serves at the redirect URI. Its one inline script reads the
 * fragment itch.io appended, clears it from the address bar and history, and POSTs it to the
 * same address; the answer (plain words) replaces the heading. The page speaks the browser's
 * language (`Accept-Language`): its script's words come in a JSON data block, which does not run,
 * so the script stays the same bytes and the same hash. The script and the style are
 * allowed by their hashes: nothing else can run or load (`default-src 'none'`), and the page can
 * only talk to the listener itself (`connect-src 'self'`).
 */
const CAPTURE_SCRIPT = `(() => {
  const title = document.getElementById('title');
  const detail = document.getElementById('detail');
  const words = JSON.parse(document.getElementById('words').textContent);
  const show = (t, d) => { title.textContent = t; detail.textContent = d; };
  const fragment = location.hash.slice(1);
  history.replaceState(null, '', location.pathname + location.search);
  if (!fragment) return show(words.nothingTitle, words.nothing);
  fetch(location.pathname + location.search, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ fragment }),
    cache: 'no-store',
    // The login's cookie, set by the start address, goes with the POST: it proves that this
    // browser is the one the application sent to itch.io.
    credentials: 'same-origin',
  })
    .then((response) => response.json())
    .then((answer) => show(answer.title, answer.message))
    .catch(() => show(words.stoppedTitle, words.stopped));
})();`;

const STYLE = `:root{color-scheme:light dark;font-family:system-ui,sans-serif}
body{max-width:36rem;margin:15vh auto;padding:0 1rem;line-height:1.5}
h1{font-size:1.5rem;margin:0 0 .5rem}`;

const sha256 = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The Content-Security-Policy of the callback page. */
export const CALLBACK_PAGE_CSP = [
  "default-src 'none'",
  `script-src ${sha256(CAPTURE_SCRIPT)}`,
  `style-src ${sha256(STYLE)}`,
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Text as HTML: escaped. */
const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The callback page itself, in the best language of the browser's `Accept-Language` (nothing in
 * it is secret), and its headers: its CSP and `Content-Language`.
 */
export function callbackPage(acceptLanguage: string | undefined): [html: string, headers: Record<string, string>] {
  const { locale, words } = desktopWords(acceptLanguage);
  const said = {
    nothingTitle: words.nothing_title,
    nothing: words.nothing,
    stoppedTitle: words.stopped_title,
    stopped: words.stopped,
  };
  const html = `<!doctype html>
<html lang="${locale}">
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(words.title)}</title>
<style>${STYLE}</style>
<h1 id="title">${escapeHtml(words.finishing)}</h1>
<p id="detail" role="status"></p>
<script type="application/json" id="words">${JSON.stringify(said).replace(/</g, '\\u003c')}</script>
<script>${CAPTURE_SCRIPT}</script>
</html>
`;
  return [html, { 'content-security-policy': CALLBACK_PAGE_CSP, 'content-language': locale, vary: 'Accept-Language' }];
}

/** Headers of every answer of the listener: no caching, no referrer, no framing, no sniffing. */
export const COMMON_HEADERS: Readonly<Record<string, string>> = {
  'cache-control': 'no-store',
  pragma: 'no-cache',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};
