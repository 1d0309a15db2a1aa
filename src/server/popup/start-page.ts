/*
 * The page a popup login opens on first: served by the token handler on the backend's own origin
 * (GET on the backend URL with the popup's `state`). It ties the popup to the page that opened
 * it before anyone goes to itch.io: it asks `window.opener` by postMessage to confirm the state,
 * and lets the handler bind the state to this browser (a first-party cookie) only when the
 * answer came from `window.opener`, from an origin the handler allows. With no opener at all it
 * asks the person to confirm a code, or stops, as the site chose.
 *
 * The page runs one inline script of its own (by nonce) and nothing else: `default-src 'none'`,
 * `connect-src 'self'`, no framing, no referrer, no caching.
 */
import { html, raw } from 'hono/html';
import { popupCodeOf } from '../../core/state.js';

/** What happens when the popup has no opener to ask (severed from the start). */
export type SeveredOpener = 'confirm' | 'refuse';

/** How long the page waits for the opener's answer. */
const OPENER_WAIT_MS = 10_000;

/** The page's own script: the messages, the POST that binds, the way on to itch.io. */
const SCRIPT = `
const main = document.querySelector('main');
const state = main.dataset.state;
const status = document.getElementById('status');
const words = JSON.parse(document.getElementById('words').textContent);
const show = (text) => { status.textContent = text; };
// Every way this page stops ends on Close: nothing here leads to another page of the site.
const stop = (text) => { show(text); document.getElementById('close').hidden = false; };
document.getElementById('close').onclick = () => close();
let asked = false;
const bind = async (body) => {
  if (asked) return;
  asked = true;
  document.getElementById('confirm').hidden = true;
  try {
    const answer = await fetch(location.href, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ popup_bind: state, ...body }),
      credentials: 'same-origin',
      cache: 'no-store',
      redirect: 'error',
    });
    const reply = await answer.json().catch(() => ({}));
    if (answer.ok && typeof reply.authorize === 'string') {
      show(words.leaving);
      // The opener learns that a close from now on may be itch.io's page severing it.
      // (\`severs\`: whether itch.io's page severs it, so that such a close may not be the player's.)
      if (body.opener) window.opener?.postMessage({ itchOAuth: 'popup-leaving', state, severs: reply.severs }, body.opener);
      location.replace(reply.authorize);
      return;
    }
    stop(words[reply.code] || words.refused);
  } catch {
    stop(words.network);
  }
};
if (window.opener) {
  addEventListener('message', (event) => {
    const data = event.data;
    if (event.source === window.opener && data && data.itchOAuth === 'popup-opener' && data.state === state && typeof data.binding === 'string') {
      bind({ opener: event.origin, binding: data.binding });
    }
  });
  window.opener.postMessage({ itchOAuth: 'popup-start', state }, '*');
  setTimeout(() => {
    if (!asked) {
      asked = true;
      stop(words.silent);
    }
  }, ${OPENER_WAIT_MS});
} else if (main.dataset.severed === 'confirm') {
  show(words.confirm);
  document.getElementById('origin').textContent = location.origin;
  document.getElementById('confirm').hidden = false;
  document.getElementById('yes').onclick = () => bind({ opener: null, confirmed: true });
  document.getElementById('no').onclick = () => bind({ opener: null, confirmed: false });
} else {
  bind({ opener: null });
}
`;

/** What the page says, by outcome (the handler's refusals carry a `code`). */
const WORDS = {
  leaving: 'Opening itch.io…',
  confirm: 'This window cannot see the game that opened it.',
  popup_unverified:
    'This window could not be tied to the game that opened it, so the login stops here for your safety. Close this window and log in again from the game (allow pop-ups if your browser asks).',
  state_mismatch: 'The page that opened this window is not allowed to log in to this site. Close this window.',
  refused: 'This login could not start. Close this window and try again.',
  network: 'The site could not be reached. Close this window and try again.',
  silent: 'The page that opened this window did not answer. Close this window and log in again from the game.',
};

const STYLE = `
:root { color-scheme: light dark; font: 16px/1.5 system-ui, sans-serif; }
body { margin: 0; display: grid; place-items: center; min-height: 100vh; background: Canvas; color: CanvasText; }
main { max-width: 28rem; padding: 1.5rem; text-align: center; }
h1 { font-size: 1.25rem; margin: 0 0 .75rem; }
.code { font: 700 2rem/1.2 ui-monospace, monospace; letter-spacing: .1em; margin: .75rem 0; }
button { font: inherit; padding: .5rem 1rem; margin: .25rem; border-radius: .375rem; border: 1px solid #888; cursor: pointer; }
/* itch.io's red darkened to 4.6:1 with white (WCAG 1.4.3 asks 4.5:1), as the login button's. */
#yes { background: #d63b3b; color: #fff; border-color: #d63b3b; }
`;

/**
 * The page's own icon, so that the browser asks for no `/favicon.ico` (which `default-src 'none'`
 * would block, with a console error in Firefox).
 */
const ICON = `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#fa5c5c"/></svg>')}`;

/** A fresh nonce for the page's script and style. */
function nonce(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(18))));
}

/** What the start page needs besides its state. */
export interface StartPageOptions {
  /** What the page does when it has no opener to ask. */
  severed: SeveredOpener;
  /** The site's name, shown where the person confirms a code. */
  siteName: string;
}

/** The start page for the popup login of `state`. */
export function popupStartPage(state: string, { severed, siteName }: StartPageOptions): Response {
  const n = nonce();
  const code = popupCodeOf(state);
  return page(
    n,
    html`<main data-state="${state}" data-severed="${severed}">
      <h1>Log in with itch.io</h1>
      <p id="status" role="status">Checking the game that opened this window…</p>
      <div id="confirm" hidden>
        <p>
          <strong>${siteName}</strong> (<span id="origin"></span>) asks you to confirm this code. Confirm only if
          ${siteName}'s own game shows this same code right now. If another site, game, message or person gave you
          this code, choose "It does not": confirming would log you in to ${siteName} for them.
        </p>
        <p class="code" aria-label="code ${code}">${code}</p>
        <button type="button" id="yes">The game shows ${code}</button>
        <button type="button" id="no">It does not</button>
      </div>
      <button type="button" id="close" hidden>Close</button>
    </main>
    <script type="application/json" id="words">
      ${raw(JSON.stringify(WORDS).replace(/</g, '\\u003c'))}
    </script>
    <script nonce="${n}">
      ${raw(SCRIPT)}
    </script>`,
    200,
  );
}

/**
 * The page a start page becomes when the popup-login store fails: the person reads what happened,
 * and nothing else runs.
 */
export function popupUnavailablePage(): Response {
  const response = page(
    nonce(),
    html`<main>
      <h1>Log in with itch.io</h1>
      <p role="alert">The site cannot log you in right now. Close this window and try again in a moment.</p>
    </main>`,
    503,
  );
  response.headers.set('Retry-After', '5');
  return response;
}

function page(n: string, main: ReturnType<typeof html>, status: number): Response {
  const body = html`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="color-scheme" content="light dark" />
    <title>Log in with itch.io</title>
    <link rel="icon" href="${raw(ICON)}" />
    <style nonce="${n}">
      ${raw(STYLE)}
    </style>
  </head>
  <body>
    ${main}
  </body>
</html>`;
  return new Response(String(body), {
    status,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': `default-src 'none'; script-src 'nonce-${n}'; style-src 'nonce-${n}'; img-src data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
      'X-Frame-Options': 'DENY',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': 'no-store',
    },
  });
}
