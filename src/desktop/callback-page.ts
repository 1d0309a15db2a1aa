import { createHash } from 'node:crypto';

/**
 * The page the loopback listener serves at the redirect URI. Its one inline script reads the
 * fragment itch.io appended, clears it from the address bar and history, and POSTs it to the
 * same address; the answer (plain words) replaces the heading. The script and the style are
 * allowed by their hashes: nothing else can run or load (`default-src 'none'`), and the page can
 * only talk to the listener itself (`connect-src 'self'`).
 */
const CAPTURE_SCRIPT = `(() => {
  const title = document.getElementById('title');
  const detail = document.getElementById('detail');
  const show = (t, d) => { title.textContent = t; detail.textContent = d; };
  const fragment = location.hash.slice(1);
  history.replaceState(null, '', location.pathname + location.search);
  if (!fragment) return show('Nothing to finish here', 'This address carries no answer from itch.io. You can close this tab.');
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
    .catch(() => show('The application stopped waiting', 'It no longer listens for this login: start the login again from the application. You can close this tab.'));
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

/** The callback page itself (the same bytes for every login: nothing in it is secret). */
export const CALLBACK_PAGE_HTML = `<!doctype html>
<html lang="en">
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>itch.io login</title>
<style>${STYLE}</style>
<h1 id="title">Finishing the itch.io login…</h1>
<p id="detail" role="status"></p>
<script>${CAPTURE_SCRIPT}</script>
</html>
`;

/** Headers of every answer of the listener: no caching, no referrer, no framing, no sniffing. */
export const COMMON_HEADERS: Readonly<Record<string, string>> = {
  'cache-control': 'no-store',
  pragma: 'no-cache',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};
