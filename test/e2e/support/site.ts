// A game site on 127.0.0.1 for end-to-end tests: pages built per test, the package's built
// script-tag files, a backend that receives the token, a collector that hostile scripts report
// to, and (on a second origin) a tiny fake itch.io authorization endpoint.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const probeSource = readFileSync(new URL('./hostile-probe.js', import.meta.url), 'utf8');

/**
 * The recommended Content-Security-Policy for the callback page (docs/concepts/security.md), with
 * Trusted Types enforced: the package's two policies and Lit's. (It ends with the trusted-types
 * directive, so that a test may add `'allow-duplicates'` to it.)
 */
export const STRICT_CSP =
  "script-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; " +
  "require-trusted-types-for 'script'; trusted-types itch-oauth-capture itch-oauth-locale lit-html";

/** Every kind of third-party script a callback page might carry. */
export const HOSTILE_KINDS = ['inline', 'classic', 'defer', 'async', 'module', 'inline-module', 'body-inline'] as const;

export interface CallbackPageOptions {
  /** Which script runs first in <head>: the capture file, the full file, or none (the control). */
  capture?: 'capture' | 'full' | 'none';
  /** data-backend on the capture's tag. */
  backend?: string;
  noRedirect?: boolean;
  /** data-cross-origin on the capture's tag: a backend on another origin is allowed. */
  crossOrigin?: boolean;
  /** Hostile third-party scripts after the capture. */
  hostile?: boolean;
  /** Markup injected before the capture, e.g. a `<base href>`. */
  headStart?: string;
  /** Extra markup for <body>. */
  body?: string;
  /** data-pending on the capture's tag. */
  pending?: string;
  /**
   * How the capture file's tag runs: as a parser-blocking classic script (the default), or with
   * `async` or `defer`. (A module or a late call is written into `headStart`/`body` by the test.)
   */
  loading?: 'blocking' | 'async' | 'defer';
  /** Extra response headers of the callback page, e.g. a Content-Security-Policy. */
  headers?: Record<string, string>;
  /** The page's own heading, above `body` (default "Signing you in"; empty for none). */
  heading?: string;
}

/** The game's own page (/game.html): the full script-tag file and a login button. */
export function gamePage(button: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Game</title>
<script src="/dist/itch-oauth.iife.js"></script></head><body><h1>Game</h1>${button}</body></html>`;
}

export interface BackendCall {
  method: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface Site {
  url: string;
  /** The fake authorization server's origin (another origin than the site). */
  authUrl: string;
  page: CallbackPageOptions;
  /** The markup of /game.html; a plain page when unset. */
  game?: string;
  /** Statuses the backend answers with, in order; the last one repeats. Status 0 destroys the connection. */
  backendStatuses: number[];
  /** The JSON body of the backend's refusals (a status of 300 or more); `{ errors: [...] }` when unset. */
  refusal?: unknown;
  /**
   * When set, the backend holds each POST (after recording it) until this promise settles, like a
   * slow backend that asks itch.io before it answers.
   */
  backendHold?: Promise<unknown> | undefined;
  /** Paths (e.g. `/hostile/classic.js`) served only after this many milliseconds. */
  slowPaths: Record<string, number>;
  backendCalls: BackendCall[];
  /** Everything the hostile scripts reported. */
  collected: string[];
  /** The bodies of the CSP violation reports sent to `/csp-report` (a policy's `report-uri`). */
  cspReports: string[];
  /** What the fake authorization endpoint puts in the fragment: `token` or an error. */
  authorizeWith: { token?: string; error?: string };
  close(): Promise<void>;
}

function script(kind: (typeof HOSTILE_KINDS)[number]): string {
  const inline = probeSource.replace("'KIND'", JSON.stringify(kind));
  switch (kind) {
    case 'inline':
    case 'body-inline':
      return `<script>${inline}</script>`;
    case 'inline-module':
      return `<script type="module">${inline}</script>`;
    case 'module':
      return `<script type="module" src="/hostile/${kind}.js"></script>`;
    case 'classic':
      return `<script src="/hostile/${kind}.js"></script>`;
    default:
      return `<script ${kind} src="/hostile/${kind}.js"></script>`;
  }
}

function callbackPage(options: CallbackPageOptions, origin: string): string {
  const { capture = 'capture', backend = '/auth/itch', noRedirect = false, hostile = true, loading = 'blocking' } = options;
  const file = capture === 'full' ? 'itch-oauth.iife.js' : 'itch-oauth-capture.iife.js';
  const captureTag =
    capture === 'none'
      ? ''
      : `<script${loading === 'blocking' ? '' : ` ${loading}`} src="${origin}/dist/${file}" data-backend="${backend}"${noRedirect ? ' data-no-redirect' : ''}${options.crossOrigin ? ' data-cross-origin' : ''}${
          options.pending === undefined ? '' : ` data-pending="${options.pending}"`
        }></script>`;
  const headHostile = hostile
    ? HOSTILE_KINDS.filter((k) => k !== 'body-inline')
        .map(script)
        .join('\n')
    : '';
  return `<!doctype html>
<html lang="en"><head>${options.headStart ?? ''}${captureTag}
<meta charset="utf-8"><title>Callback</title>
${headHostile}
</head><body>
${options.heading === '' ? '' : `<h1>${options.heading ?? 'Signing you in'}</h1>`}
${options.body ?? ''}
${hostile ? script('body-inline') : ''}
</body></html>`;
}

export function send(res: ServerResponse, status: number, type: string, body: string, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store', ...headers });
  res.end(body);
}

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  });
}

export async function startSite(): Promise<Site> {
  const site: Omit<Site, 'url' | 'authUrl' | 'close'> = {
    page: {},
    backendStatuses: [200],
    slowPaths: {},
    backendCalls: [],
    collected: [],
    cspReports: [],
    authorizeWith: { token: 'TOKEN' },
  };

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const path = url.pathname;
    const slow = site.slowPaths[path];
    if (slow) await new Promise((resolve) => setTimeout(resolve, slow));
    if (path.startsWith('/dist/')) {
      try {
        return send(res, 200, 'text/javascript', readFileSync(`${root}${path.slice(1)}`, 'utf8'));
      } catch {
        return send(res, 404, 'text/plain', 'not built: run npm run build');
      }
    }
    if (path.startsWith('/hostile/')) {
      const kind = path.slice('/hostile/'.length, -'.js'.length);
      return send(res, 200, 'text/javascript', probeSource.replace("'KIND'", JSON.stringify(kind)));
    }
    if (path === '/collect') {
      site.collected.push(`${req.url} ${await readBody(req)}`);
      return send(res, 204, 'text/plain', '');
    }
    if (path === '/csp-report') {
      site.cspReports.push(await readBody(req));
      return send(res, 204, 'text/plain', '');
    }
    if (path === '/auth/itch') {
      const body = await readBody(req);
      site.backendCalls.push({ method: req.method ?? '', headers: req.headers, body });
      await site.backendHold?.catch(() => undefined);
      const status = site.backendStatuses[Math.min(site.backendCalls.length - 1, site.backendStatuses.length - 1)] ?? 200;
      if (status === 0) return req.socket.destroy();
      // A backend (or something in front of it) that redirects the POST, body and all, elsewhere.
      if (status === 307) return send(res, 307, 'text/plain', '', { Location: '/collect?redirected' });
      const answer = status < 300 ? { user: { id: 1, username: 'leafo' } } : (site.refusal ?? { errors: [`refused with ${status}`] });
      return send(res, status, 'application/json', JSON.stringify(answer));
    }
    if (path === '/callback.html')
      return send(res, 200, 'text/html', callbackPage(site.page, `http://${req.headers.host}`), site.page.headers);
    // No icon, and no failed request in any engine's console.
    if (path === '/favicon.ico') return send(res, 204, 'text/plain', '');
    if (path === '/game.html' && site.game) return send(res, 200, 'text/html', site.game);
    // Any other path: a plain page of the game site (start page, return-to targets).
    return send(
      res,
      200,
      'text/html',
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${path}</title></head><body><h1>${path.replace(/[<&]/g, '')}</h1></body></html>`,
    );
  });

  // The fake itch.io: approves at once, like a user who clicks Approve.
  const auth = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname !== '/user/oauth') return send(res, 404, 'text/plain', 'not found');
    const redirect = url.searchParams.get('redirect_uri') ?? '';
    const fragment = new URLSearchParams();
    if (site.authorizeWith.token) fragment.set('access_token', site.authorizeWith.token);
    if (site.authorizeWith.error) fragment.set('error', site.authorizeWith.error);
    const state = url.searchParams.get('state');
    if (state) fragment.set('state', state);
    return send(res, 302, 'text/plain', '', { Location: `${redirect}#${fragment}` });
  });

  const [siteUrl, authUrl] = await Promise.all([listen(server), listen(auth)]);
  return Object.assign(site, {
    url: siteUrl,
    authUrl,
    close: async () => {
      server.closeAllConnections();
      auth.closeAllConnections();
      await Promise.all([new Promise((r) => server.close(r)), new Promise((r) => auth.close(r))]);
    },
  });
}

/**
 * Starts a login the way the button does: goes to the game page and saves a flow record under
 * `state` in its sessionStorage (`record` overrides fields of it).
 */
export async function startFlow(page: Page, site: Site, state = 'S1', record: Record<string, unknown> = {}): Promise<void> {
  await page.goto(`${site.url}/game.html`);
  await page.evaluate(([key, value]) => sessionStorage.setItem(key!, value!), flowRecord(site, state, record));
}

/** The sessionStorage key and value the button saves for a login under `state`. */
export function flowRecord(site: Site, state = 'S1', record: Record<string, unknown> = {}): [string, string] {
  return [
    `itch-oauth:state:${state}`,
    JSON.stringify({
      returnTo: '/return.html?from=login',
      mode: 'redirect',
      clientId: 'client',
      redirectUri: `${site.url}/callback.html`,
      scope: 'profile:me',
      baseUrl: site.authUrl,
      createdAt: Date.now(),
      ...record,
    }),
  ];
}
