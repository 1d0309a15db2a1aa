// Size budgets of the script-tag files and of the example Cloudflare Worker, measured as
// `gzip -9 -n -c FILE | wc -c`: GNU gzip at its best level, without the file name and time in the
// header (-n), so the figure is the content's alone, as a server sends it; the README and the bench
// quote this one figure. (GNU gzip compresses a little worse than zlib, so this is the stricter
// one.) The budgets are promises in KiB, lowered by the size the file's name took in the header
// (its length + 1: 27 B for the capture's, 19 B for the full file's, 26 B for the button's) as
// when they were measured with it, to stay as strict. Fails the run when a budget is passed. Run
// after `npm run build`.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { measureWorker } from './worker-bundle.mjs';

const inHeader = (file) => file.split('/').pop().length + 1;

/** What the popup collection held until the login changes (`Prefer: wait`) costs each file with login(). */
const HELD_COLLECTION = 384;

// gameSession()'s DPoP key and proofs (RFC 9449): the non-extractable key pair kept in IndexedDB
// and the ES256 proof of every request that gets or uses the game token. Measured on the files
// before the held collection and built-in English: 16,822 -> 17,443 B (full), 13,934 -> 14,519 B
// (button). Then the servers' nonces in the proofs (RFC 9449 section 9: each origin's last
// DPoP-Nonce, kept for the frame's next page and taken from the login's answer, and one resend
// when asked for one): 17,892 -> 18,087 B (full, +195 B), 15,322 -> 15,521 B (button, +199 B).
const DPOP = { full: 621 + 195, button: 585 + 199 };

const budgets = [
  // A hand-written minimal implicit-flow callback is about 600 bytes; ours also checks the state's
  // age, refuses malformed responses, retries and hands a clean document the outcome; and it
  // shows a pending view while the token is delivered (128 B of the budget were added for that).
  // Popup mode's part (post the state, close the window) was paid for by trimming, not budget.
  ['dist/itch-oauth-capture.iife.js', 1152 - inHeader('itch-oauth-capture.iife.js')],
  // Both elements, the capture, popup mode (the verifier pair, the collection loop and login()),
  // the popup's binding to the page that opened it (the start URL, the answer to the start page's
  // check, the wait for a popup that window.open could not return, the code view, the refusal
  // codes in words), the choice of language (English built in, the others loaded from locales/
  // beside the file), gameSession() (a framed game's kept login, which the engines' bridge uses: about 840 B
  // gzip of this file and of the button's), playerMessage() (about 110 B) and the callback page's
  // own look, words and way on in every state (a link back, Try again where it can work); and Lit,
  // which the elements and login()'s dialogs are written with (about 5 KB of each file). The
  // capture part runs before Lit is evaluated: it is first in the file. (The Lit elements alone
  // fit 15 KiB; meeting it again means moving gameSession() and login() to a file of their own.)
  // English answers without a DOM or `navigator` (playerMessage() in Node 20, workerd): 12 B.
  // + HELD_COLLECTION: the held popup collection (see there).
  // + DPOP: gameSession()'s DPoP key and proofs (RFC 9449), measured apart (see there).
  ['dist/itch-oauth.iife.js', 16.5 * 1024 + 12 + HELD_COLLECTION + DPOP.full - inHeader('itch-oauth.iife.js')],
  // The button, login() and gameSession(), with Lit, for a framed game's page: no capture, no
  // callback element. (The Lit button alone fits 13 KiB; without gameSession() the file is 13.1 KB.)
  // English built in, the player's sentence for every error code (playerMessage() with locales/
  // missing or the site's server gone), and answering without a DOM: 400 B, measured against the
  // file that loaded its English from locales/en.js (13,934 -> 14,334 B in one run).
  ['dist/itch-oauth-button.iife.js', 13.75 * 1024 + 400 + HELD_COLLECTION + DPOP.button - inHeader('itch-oauth-button.iife.js')],
  // ItchOAuth.bridge for game engines (string options in, a JSON string to a named callback out,
  // cancel by id), in a file of its own so that pages with the button do not pay for it. 640 B
  // until it carried the game session too (login with `renew`, `restore`, `fetch`: 190 B), so that
  // an engine calls its site's API without ever holding the game token.
  ['dist/itch-oauth-bridge.iife.js', 832],
];

let failed = false;
const report = (what, gzipped, budget, raw) => {
  const verdict = gzipped <= budget ? 'ok  ' : 'OVER';
  if (gzipped > budget) failed = true;
  console.log(`${verdict} ${what}: ${gzipped} B gzip (budget ${budget} B, ${budget - gzipped} B left), ${raw} B raw`);
};
for (const [file, budget] of budgets) {
  report(file, execFileSync('gzip', ['-9', '-n', '-c', file]).length, budget, readFileSync(file).length);
}

// The example Cloudflare Worker (token handler, sessions, popup relay, and both script files it
// serves), bundled as wrangler does: a Worker's script is limited in size (3 MiB gzip on the free
// plan) and is parsed at every cold start, so the server side stays small. See
// scripts/worker-bundle.mjs.
const worker = await measureWorker();
report(`${worker.entry} (bundled)`, execFileSync('gzip', ['-9', '-n', '-c'], { input: worker.code }).length, 64 * 1024, worker.code.length);

if (failed) {
  console.error('size budget exceeded: see above');
  process.exit(1);
}
