/*
 * The page a popup login opens on first: served by the token handler on the token endpoint's own origin
 * (GET on the token endpoint URL with the popup's `state`). It ties the popup to the page that opened
 * it before anyone goes to itch.io: it asks `window.opener` by postMessage to confirm the state,
 * and lets the handler bind the state to this browser (a first-party cookie) only when the
 * answer came from `window.opener`, from an origin the handler allows. With no opener at all it
 * asks the person to confirm a code, or stops, as the site chose.
 *
 * The page runs one inline script of its own (by nonce) and nothing else: `default-src 'none'`,
 * `connect-src 'self'`, no framing, no referrer, no caching.
 */
import { html, raw } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import { popupCodeOf } from '../../core/state.js';
import type { PageMessages } from '../../i18n/catalogue.js';
import { pageWords } from '../../i18n/pages.js';

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
    stop(words[reply.code == 'service_unavailable' ? 'unavailable' : reply.code] || words.refused);
  } catch {
    stop(words.network);
  }
};
// Where the browser refuses cookies for this site, the binding cookie would be dropped and the
// login refused after itch.io: say so now, and tell the opener why (nothing secret: the code).
// (Chromium blocking cookies still says navigator.cookieEnabled: a cookie is tried.)
const cookiesWork = () => {
  document.cookie = 'itch-oauth-probe=1; path=/; max-age=5; samesite=lax';
  const kept = document.cookie.includes('itch-oauth-probe=1');
  document.cookie = 'itch-oauth-probe=; path=/; max-age=0; samesite=lax';
  return kept;
};
if (!navigator.cookieEnabled || !cookiesWork()) {
  stop(words.cookies_blocked);
  window.opener?.postMessage({ itchOAuth: 'popup-failed', state, code: 'cookies_blocked' }, '*');
} else if (window.opener) {
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
  /** The request's `Accept-Language` header: the page speaks the best of its languages the package has. */
  acceptLanguage?: string | null | undefined;
}

/** What the page's script says, by outcome (the handler's refusals carry a `code`). */
const SCRIPT_WORDS = [
  'leaving',
  'confirm',
  'popup_unverified',
  'state_mismatch',
  'refused',
  'network',
  'silent',
  'cookies_blocked',
  'unavailable',
] as const;

/** Text as HTML outside attributes (quotes stay as they are, in the words and the site's name). */
const escapeHtml = (text: string): string => text.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!);

/** A message as HTML: its text escaped, each `{name}` replaced by the markup `values[name]`. */
function fill(message: string, values: Record<string, string>): HtmlEscapedString | Promise<HtmlEscapedString> {
  return raw(escapeHtml(message).replace(/\{(\w+)\}/g, (all, name: string) => values[name] ?? all));
}

/** The start page for the popup login of `state`. */
export function popupStartPage(state: string, { severed, siteName, acceptLanguage }: StartPageOptions): Response {
  const n = nonce();
  const code = popupCodeOf(state);
  const { locale, words } = pageWords(acceptLanguage);
  const said = Object.fromEntries(SCRIPT_WORDS.map((key) => [key, words[key]]));
  return page(
    n,
    locale,
    words,
    html`<main data-state="${state}" data-severed="${severed}">
      <h1>${words.title}</h1>
      <p id="status" role="status">${words.checking}</p>
      <div id="confirm" hidden>
        <p>${fill(words.confirm_code, { site: `<strong>${escapeHtml(siteName)}</strong>`, origin: '<span id="origin"></span>' })}</p>
        <p class="code" aria-label="${words.code_label.replace('{code}', code)}">${code}</p>
        <button type="button" id="yes">${words.yes.replace('{code}', code)}</button>
        <button type="button" id="no">${words.no}</button>
      </div>
      <button type="button" id="close" hidden>${words.close}</button>
    </main>
    <script type="application/json" id="words">
      ${raw(JSON.stringify(said).replace(/</g, '\\u003c'))}
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
export function popupUnavailablePage(acceptLanguage?: string | null): Response {
  const { locale, words } = pageWords(acceptLanguage);
  const response = page(
    nonce(),
    locale,
    words,
    html`<main>
      <h1>${words.title}</h1>
      <p role="alert">${words.unavailable}</p>
    </main>`,
    503,
  );
  response.headers.set('Retry-After', '5');
  return response;
}

function page(n: string, locale: string, words: PageMessages, main: ReturnType<typeof html>, status: number): Response {
  const body = html`<!doctype html>
<html lang="${locale}">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="color-scheme" content="light dark" />
    <title>${words.title}</title>
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
      'Content-Language': locale,
      // The words follow Accept-Language: a shared cache keeps one copy per language (no-store below, too).
      Vary: 'Accept-Language',
      'Content-Security-Policy': `default-src 'none'; script-src 'nonce-${n}'; style-src 'nonce-${n}'; img-src data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
      'X-Frame-Options': 'DENY',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': 'no-store',
    },
  });
}
