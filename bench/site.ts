// The bench's site on 127.0.0.1: a game page per contender, the callback pages, a stand-in
// consent page, the backend the token is POSTed to (it answers after `holdMs`), and the
// counter that the later scripts of a callback page report to. Every answer is no-store, so
// each run loads every script cold.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Assets } from './sizes.js';
import { root } from './sizes.js';

/** The callback pages measured, each with its first script in <head>. */
export const CALLBACKS = {
  capture: '<script src="/dist/itch-oauth-capture.iife.js" data-backend="/auth/itch"></script>',
  full: '<script src="/dist/itch-oauth.iife.js" data-backend="/auth/itch"></script>',
  hello: '<script src="/assets/hello-callback.js"></script>',
  floor: '<script src="/assets/floor.js"></script>',
} as const;
export type Callback = keyof typeof CALLBACKS;

/** The later scripts of a callback page, one of each kind, each reporting that it ran. */
export const LATER_SCRIPTS = ['inline', 'classic', 'defer', 'async', 'module', 'inline-module', 'body-inline'] as const;
const report = (kind: string) => `fetch('/ran?kind=${kind}',{method:'POST',keepalive:true})`;
function laterScript(kind: (typeof LATER_SCRIPTS)[number]): string {
  switch (kind) {
    case 'inline':
    case 'body-inline':
      return `<script>${report(kind)}</script>`;
    case 'inline-module':
      return `<script type="module">${report(kind)}</script>`;
    case 'module':
      return `<script type="module" src="/later/${kind}.js"></script>`;
    case 'classic':
      return `<script src="/later/${kind}.js"></script>`;
    default:
      return `<script ${kind} src="/later/${kind}.js"></script>`;
  }
}

export const BUTTON_PAGES = ['head', 'module-css', 'module-no-css'] as const;
export type ButtonPage = (typeof BUTTON_PAGES)[number];

/** Records what one run caused on the server, in this process's clock (performance.now()). */
export interface Run {
  /** The callback document's request arrived. */
  documentAt?: number;
  /** The backend received the POST. */
  postAt?: number;
  posts: number;
  /** Kinds of later scripts that ran in a callback document. */
  ran: Set<string>;
}

export interface Site {
  url: string;
  run: Run;
  /** A fresh record for the next run. */
  newRun(): Run;
  close(): Promise<void>;
}

const BUTTON_ATTRIBUTES = 'client-id="bench-client" redirect-uri="http://127.0.0.1/cb" base-url="https://itch.io"';

export async function startSite(options: { assets: Assets; preupgradeCss: string; holdMs: number }): Promise<Site> {
  const { assets } = options;
  const dist = (file: string) => readFileSync(`${root}dist/${file}`, 'utf8');
  const scripts: Record<string, string> = {
    '/dist/itch-oauth-capture.iife.js': dist('itch-oauth-capture.iife.js'),
    '/dist/itch-oauth.iife.js': dist('itch-oauth.iife.js'),
    ...Object.fromEntries(Object.entries(assets).map(([name, code]) => [`/assets/${name}`, code])),
    ...Object.fromEntries(LATER_SCRIPTS.map((kind) => [`/later/${kind}.js`, report(kind)])),
  };

  let origin = '';
  const pages: Record<string, () => string> = {
    '/game.html': () => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Game</title>
<script src="/dist/itch-oauth.iife.js"></script></head><body><h1>Game</h1>
<itch-login-button client-id="bench-client" redirect-uri="${origin}/cb-capture.html" base-url="${origin}" return-to="/done.html">Log in with itch.io</itch-login-button>
<itch-login-button id="full" client-id="bench-client" redirect-uri="${origin}/cb-full.html" base-url="${origin}" return-to="/done.html">Log in with itch.io</itch-login-button>
</body></html>`,
    '/hello-game.html': () => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Game</title>
<script src="/assets/hello-app.js"></script></head><body><h1>Game</h1></body></html>`,
    '/user/oauth': () =>
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Authorize</title></head><body><p>Approve?</p></body></html>',
    '/done.html': () =>
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Signed in</title></head><body><p>Signed in</p></body></html>',
    ...Object.fromEntries(
      Object.entries(CALLBACKS).map(([name, first]) => [
        `/cb-${name}.html`,
        () => `<!doctype html>
<html lang="en"><head>${first}
<meta charset="utf-8"><title>Signing in</title>
${LATER_SCRIPTS.filter((k) => k !== 'body-inline')
  .map(laterScript)
  .join('\n')}
</head><body>
<h1>Signing you in…</h1>
${laterScript('body-inline')}
</body></html>`,
      ]),
    ),
    ...Object.fromEntries(BUTTON_PAGES.map((variant) => [`/button-${variant}.html`, () => buttonPage(variant, options.preupgradeCss)])),
  };

  const site: Site = {
    url: '',
    run: { posts: 0, ran: new Set() },
    newRun: () => (site.run = { posts: 0, ran: new Set() }),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };

  const send = (res: ServerResponse, status: number, type: string, body: string) => {
    res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store' });
    res.end(body);
  };
  const drain = async (req: IncomingMessage) => {
    for await (const _ of req);
  };

  const server = createServer(async (req, res) => {
    const now = performance.now();
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const run = site.run;
    if (path.startsWith('/cb-')) run.documentAt ??= now;
    if (path === '/auth/itch') {
      run.postAt ??= now;
      run.posts++;
      await drain(req);
      await new Promise((resolve) => setTimeout(resolve, options.holdMs));
      return send(res, 200, 'application/json', JSON.stringify({ user: { id: 1, username: 'bench' } }));
    }
    if (path === '/ran') {
      run.ran.add(new URL(req.url!, 'http://x').searchParams.get('kind') ?? '?');
      await drain(req);
      return send(res, 204, 'text/plain', '');
    }
    const script = scripts[path];
    if (script !== undefined) return send(res, 200, 'text/javascript', script);
    const page = pages[path];
    if (page !== undefined) return send(res, 200, 'text/html; charset=utf-8', page());
    return send(res, 404, 'text/plain', 'not found');
  });
  // Keep-alive connections would let a run reuse the last run's socket and skip the connect.
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  site.url = origin;
  return site;
}

/**
 * A page with the button and text under it, measuring in an inline script of its own (first in
 * <head>) the layout shifts and the moment the button is upgraded and rendered.
 */
function buttonPage(variant: ButtonPage, preupgradeCss: string): string {
  const src = variant === 'head' ? '/dist/itch-oauth.iife.js' : '/assets/button.js';
  const measure = `
window.__button = { cls: 0, shifts: 0 };
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) if (!e.hadRecentInput) { __button.cls += e.value; __button.shifts++; }
}).observe({ type: 'layout-shift', buffered: true });
new MutationObserver((records, observer) => {
  const el = document.querySelector('itch-login-button');
  if (!el) return;
  observer.disconnect();
  customElements.whenDefined('itch-login-button').then(() => el.updateComplete).then(() => {
    __button.ready = performance.now();
    __button.interactive = !!el.shadowRoot && !!el.shadowRoot.querySelector('button');
    __button.start = performance.getEntriesByName(new URL(${JSON.stringify(src)}, location.href).href)[0].startTime;
  });
}).observe(document, { childList: true, subtree: true });`;
  const tag = variant === 'head' ? `<script src="${src}"></script>` : '';
  const late = variant === 'head' ? '' : `<script type="module" src="${src}"></script>`;
  const css = variant === 'module-css' ? `<style>${preupgradeCss}</style>` : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Button</title>
<script>${measure}</script>${tag}${css}
<style>body { font: 16px/1.5 sans-serif; margin: 2em; }</style></head><body>
<h1>Starfall Keep</h1>
<p>Log in to keep your saves in the cloud.</p>
<itch-login-button ${BUTTON_ATTRIBUTES}>Log in with itch.io</itch-login-button>
<p>Everything under the button moves if its box changes when it upgrades.</p>
<p>${'Lorem ipsum dolor sit amet. '.repeat(20)}</p>
${late}
</body></html>`;
}
