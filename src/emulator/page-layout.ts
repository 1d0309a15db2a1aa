import type { Context, MiddlewareHandler } from 'hono';
import { html, raw } from 'hono/html';
import { NONCE, secureHeaders, type SecureHeadersVariables } from 'hono/secure-headers';

/** Hono environment of the HTML pages: the CSP nonce of the response. */
export type PageEnv = { Variables: SecureHeadersVariables };

/** What `html\`…\`` returns: escaped markup (interpolated strings are escaped, nested markup is not). */
export type Markup = ReturnType<typeof html>;

/** A CSP source expression that is a plain http(s) origin, or nothing. */
function originSource(origin: string): string {
  return /^https?:\/\/[A-Za-z0-9.-]+(:\d+)?$|^https?:\/\/\[[0-9A-Fa-f:.]+\](:\d+)?$/.test(origin) ? origin : '';
}

/**
 * Security headers of the emulator's HTML pages: a strict CSP (no script at all, the inline
 * stylesheet allowed by nonce, no framing), `X-Frame-Options: DENY`, `Referrer-Policy: no-referrer`
 * (the pages' URLs carry `state`, and the callback URL carries the token), `Cache-Control: no-store`;
 * images only from `data:` (the pages' inline icon).
 * Cross-Origin-Opener-Policy is left unset on purpose: a login popup must keep its opener.
 *
 * @param formTarget the origin a form on the page may lead to besides the emulator's own (after
 *   Approve, the consent form is answered with a redirect there, and Chromium checks
 *   `form-action` on redirects too); it is computed from the request before the handler runs.
 */
export function pageSecurityHeaders(formTarget: (c: Context) => string = () => ''): MiddlewareHandler[] {
  const headers = secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'none'"],
      styleSrc: [NONCE],
      // The page's own icon (ICON below), so that the browser asks for no /favicon.ico, which
      // `default-src 'none'` would block with a console error in Firefox.
      imgSrc: ['data:'],
      formAction: ["'self'", (c) => originSource(formTarget(c))],
      frameAncestors: ["'none'"],
      baseUri: ["'none'"],
    },
    xFrameOptions: 'DENY',
    referrerPolicy: 'no-referrer',
    crossOriginOpenerPolicy: false,
    strictTransportSecurity: false,
  });
  const noStore: MiddlewareHandler = async (c, next) => {
    await next();
    c.res.headers.set('Cache-Control', 'no-store');
    c.res.headers.set('Pragma', 'no-cache');
  };
  return [headers, noStore];
}

/** itch.io's red square, inline: the pages' icon. */
const ICON = `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#fa5c5c"/></svg>')}`;

const STYLES = `
:root {
  color-scheme: light dark;
  --accent: #fa5c5c;
  --primary: #d63a45;
  --primary-hover: #c22f3a;
  --link: #c8313c;
  --bg: #f4f4f4;
  --card: #ffffff;
  --text: #222222;
  --muted: #606060;
  --border: #dadada;
  --code-bg: #f1f1f1;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #1b1b1b;
    --card: #2b2b2b;
    --text: #ececec;
    --muted: #a8a8a8;
    --border: #454545;
    --code-bg: #1f1f1f;
    --link: #ff8080;
  }
}
* { box-sizing: border-box; }
body {
  margin: 0; min-height: 100vh; display: flex; flex-direction: column;
  font: 16px/1.5 Lato, "Helvetica Neue", Helvetica, Arial, sans-serif;
  background: var(--bg); color: var(--text);
}
.topbar {
  display: flex; align-items: center; gap: 10px; padding: 10px 20px;
  background: var(--card); border-bottom: 1px solid var(--border);
}
.logo { font-weight: 900; font-size: 24px; letter-spacing: -0.5px; color: var(--accent); }
.badge {
  font-size: 11px; font-weight: 700; text-transform: uppercase; letter-spacing: 0.08em;
  color: var(--muted); border: 1px solid var(--border); border-radius: 3px; padding: 1px 6px;
}
main { flex: 1; display: flex; justify-content: center; align-items: flex-start; padding: 40px 16px; }
.card {
  width: 100%; max-width: 540px; padding: 28px 32px;
  background: var(--card); border: 1px solid var(--border); border-top: 4px solid var(--accent);
  border-radius: 6px; box-shadow: 0 2px 8px rgba(0, 0, 0, 0.08);
}
h1 { font-size: 22px; line-height: 1.3; margin: 0 0 8px; }
h2 { font-size: 15px; margin: 22px 0 6px; }
p { margin: 0 0 12px; }
.lead { color: var(--muted); }
a { color: var(--link); }
label { display: block; font-weight: 700; margin: 18px 0 6px; }
select {
  width: 100%; font: inherit; padding: 8px 10px; border-radius: 3px;
  border: 1px solid var(--border); background: var(--bg); color: var(--text);
}
.scopes { list-style: none; padding: 0; margin: 0; border-top: 1px solid var(--border); }
.scopes li { display: flex; gap: 10px; padding: 9px 0; border-bottom: 1px solid var(--border); }
.scopes li::before { content: "\\2713"; color: var(--accent); font-weight: 900; }
.scopes li > span { flex: 1; }
.scopes code { align-self: center; white-space: nowrap; }
.scopes + .note { margin-top: 14px; }
code {
  font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 13px;
  background: var(--code-bg); border-radius: 3px; padding: 1px 5px; overflow-wrap: anywhere;
}
.key { display: block; margin: 12px 0 16px; padding: 12px; font-size: 15px; user-select: all; border: 1px dashed var(--accent); }
.note { font-size: 14px; color: var(--muted); }
.actions { display: flex; flex-wrap: wrap; justify-content: flex-end; gap: 12px; margin-top: 24px; }
.button {
  display: inline-block; font: inherit; font-weight: 700; white-space: nowrap; padding: 9px 22px; border-radius: 3px; cursor: pointer;
  border: 1px solid var(--border); background: var(--card); color: var(--text); text-decoration: none;
}
.button:hover { border-color: var(--muted); }
.button.primary { background: var(--primary); border-color: var(--primary); color: #ffffff; }
.button.primary:hover { background: var(--primary-hover); }
.button:focus-visible, select:focus-visible, a:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.error-code { color: var(--muted); font-size: 14px; }
footer { padding: 16px; text-align: center; font-size: 13px; color: var(--muted); }
`;

/**
 * A whole emulator page around `content`, in the look of itch.io (its pinkish red accent, light
 * and dark themes). Every value interpolated into `content` must go through `html\`…\``.
 */
export function renderPage(c: Context<PageEnv>, title: string, content: Markup): Markup {
  const nonce = c.get('secureHeadersNonce') ?? '';
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="${ICON}">
<title>${title} · itch.io emulator</title>
<style nonce="${nonce}">${raw(STYLES)}</style>
</head>
<body>
<header class="topbar"><span class="logo">itch.io</span><span class="badge">local emulator</span></header>
<main><div class="card">${content}</div></main>
<footer>A local stand-in for itch.io, for development and tests. No real account is involved.</footer>
</body>
</html>`;
}
