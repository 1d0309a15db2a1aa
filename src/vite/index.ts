import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { getRequestListener } from '@hono/node-server';
import type { Connect, HtmlTagDescriptor, Plugin } from 'vite';
import { cspHash, devInlineHashes, withScriptHashes } from './dev-csp.js';
import { appUsesLit, litProductionForPackage } from './lit-production.js';

export { cspHash } from './dev-csp.js';

/** The options of `itchOAuthCapture`: the callback page, the token endpoint and the page's headers. */
export interface ItchOAuthCaptureOptions {
  /** The callback page or pages, as served, e.g. `/callback.html`. */
  callback: string | readonly string[];
  /** URL the token is POSTed to (the capture's `data-backend`). */
  backend: string;
  /** Stay on the callback page after success (the capture's `data-no-redirect`). */
  noRedirect?: boolean;
  /** Text of the capture's view while the token is delivered (`data-pending`). Default "Signing you in…". */
  pending?: string;
  /**
   * `color-scheme` of that view, e.g. `'light dark'`: a `<meta name="color-scheme">` goes right
   * before the capture (nothing after the capture is parsed while the view shows).
   */
  colorScheme?: string;
  /**
   * CSS for that view (the capture writes it as an `<output>`), e.g.
   * `'output { font: 1.25rem system-ui; display: block; margin: 4rem auto; text-align: center }'`:
   * a `<style>` goes right before the capture. It adds nothing to the capture; under a CSP, allow it
   * in `style-src` (its hash is `plugin.api.styleHash`).
   */
  pendingStyle?: string;
  /** The capture script's text. Default: the package's `dist/itch-oauth-capture.iife.js`. */
  captureSource?: string;
  /**
   * The token endpoint, e.g. `createTokenHandler(…)`: answers `backend` (a path of this site) in
   * `vite` and `vite preview`, so that logins work in both without a server of your own. In
   * production, serve it from your server as in the static-site guide.
   */
  handler?: ((request: Request) => Response | Promise<Response>) | undefined;
  /**
   * More paths that `handler` answers in dev and preview, e.g. `['/me', '/logout']` when it also
   * serves the app's session routes.
   */
  routes?: readonly string[] | undefined;
  /**
   * The callback page's `Content-Security-Policy` in preview (and what `api.callbackHeaders` says to
   * send in production). Default `script-src 'self' <the capture's hash>; object-src 'none'; base-uri 'none'`;
   * `false` sends none. In `vite` dev, the hashes of the inline scripts that Vite's dev server adds to
   * the page (such as `@vitejs/plugin-react`'s preamble) are added to its `script-src`: only there.
   */
  csp?: string | false | undefined;
}

/**
 * The callback page's headers besides its CSP: no `Referer` to what it loads, no copy in a cache,
 * no window that opened it can reach it (the token is in its address until the capture runs).
 * @see https://www.w3.org/TR/referrer-policy/#referrer-policy-no-referrer
 * @see https://html.spec.whatwg.org/multipage/browsers.html#cross-origin-opener-policies
 */
export const CALLBACK_HEADERS: Readonly<Record<string, string>> = {
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

/** The plugin, with the CSP hash of the inlined capture for your `script-src`. */
export type ItchOAuthCapturePlugin = Plugin & {
  api: {
    cspHash: string;
    styleHash?: string | undefined;
    /** The callback page's headers, its `Content-Security-Policy` included: send the same in production. */
    callbackHeaders: Readonly<Record<string, string>>;
  };
};

/** The request's path, without its query. */
function pathOf(req: IncomingMessage): string {
  return (req.url ?? '/').split('?')[0]!;
}

/**
 * A GET or HEAD for the page itself: not a script's request for it (Vite answers those, such as an
 * inline module's `?html-proxy`), as Vite's own HTML middleware decides.
 * @see https://fetch.spec.whatwg.org/#concept-request-destination
 */
function isDocumentRequest(req: IncomingMessage): boolean {
  return (req.method === 'GET' || req.method === 'HEAD') && req.headers['sec-fetch-dest'] !== 'script';
}

function defaultCaptureSource(): string {
  // Beside this file in dist/; from src/ (the package's own demo and tests), in ../../dist/.
  for (const path of ['./itch-oauth-capture.iife.js', '../../dist/itch-oauth-capture.iife.js']) {
    try {
      return readFileSync(new URL(path, import.meta.url), 'utf8').trim();
    } catch {
      // Try the next place.
    }
  }
  throw new Error('itch-oauth-widget/vite: dist/itch-oauth-capture.iife.js not found; build the package or pass captureSource');
}

/** A `<link>` whose `rel` names an icon (`icon`, `shortcut icon`, `apple-touch-icon`…), whole. */
const ICON_LINK = /<link\b(?=[^>]*\brel\s*=\s*["']?[^"'>]*\bicon\b)[^>]*>/gi;
/** An attribute of a start tag: its name, and its value quoted either way, unquoted, or none. */
const ATTRIBUTE = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

/**
 * The page's icon links, moved before the capture: after it, nothing of the page is parsed while
 * the capture shows its pending view, so a browser that finds no icon there asks for
 * `/favicon.ico` (a 404 in the console of a site that has none).
 */
function withIconsFirst(html: string, tags: HtmlTagDescriptor[]): HtmlTagDescriptor[] | { html: string; tags: HtmlTagDescriptor[] } {
  const icons = html.match(ICON_LINK);
  if (!icons) return tags;
  const iconTags = icons.map((link): HtmlTagDescriptor => {
    const attrs: Record<string, string | boolean> = {};
    for (const [, name, ...values] of link.slice('<link'.length).replace(/\/?>$/, '').matchAll(ATTRIBUTE))
      attrs[name!.toLowerCase()] = values.find((value) => value !== undefined) ?? true;
    return { tag: 'link', attrs, injectTo: 'head-prepend' };
  });
  return { html: html.replace(ICON_LINK, ''), tags: [...iconTags, ...tags] };
}

/**
 * Puts the capture first in `<head>` of the callback page, inline (no extra request before it),
 * in dev and in the build. Runs after every other plugin's HTML transform and prepends, so no
 * script can come before it. `plugin.api.cspHash` is the hash to allow it in a strict CSP.
 *
 * @example
 * The `vite.config.js` of examples/vite-react (the whole of it is in docs/guides/spa-vite.md):
 * in `vite` and `vite preview` the plugin also answers the token endpoint and the session's
 * routes with `app`, and sends the callback page with its headers.
 * ```js
 * import { createSessions, createTokenHandler } from 'itch-oauth-widget/server';
 * import { itchOAuthCapture } from 'itch-oauth-widget/vite';
 * import { defineConfig } from 'vite';
 *
 * const sessions = createSessions({ secrets: [process.env.SESSION_SECRET], origin: PUBLIC_ORIGIN });
 * const handleToken = createTokenHandler({
 *   applicationId: ITCH_APPLICATION_ID, // refuses tokens itch.io issued to another application
 *   origin: PUBLIC_ORIGIN, // this site, as browsers see it
 *   onLogin: sessions.onLogin, // the session cookie (HttpOnly, SameSite=Lax)
 * });
 *
 * async function app(request) {
 *   const { pathname } = new URL(request.url);
 *   if (pathname === '/auth/itch') return handleToken(request);
 *   if (pathname === '/logout') return sessions.logout(request);
 *   const session = await sessions.get(request); // /me
 *   return session ? Response.json(session.user) : new Response(null, { status: 401 });
 * }
 *
 * export default defineConfig({
 *   build: { rollupOptions: { input: ['index.html', 'callback.html'] } },
 *   plugins: [itchOAuthCapture({ callback: '/callback.html', backend: '/auth/itch', handler: app, routes: ['/me', '/logout'] })],
 * });
 * ```
 */
export function itchOAuthCapture(options: ItchOAuthCaptureOptions): ItchOAuthCapturePlugin {
  const pages = new Set([options.callback].flat().map((page) => `/${page.replace(/^\//, '')}`));
  const source = options.captureSource ?? defaultCaptureSource();
  const attrs: Record<string, string | boolean> = { 'data-backend': options.backend, 'data-no-redirect': options.noRedirect === true };
  // An absolute https backend is the app's own configuration: another origin is what it asked for.
  if (/^https:\/\//.test(options.backend)) attrs['data-cross-origin'] = true;
  if (options.pending !== undefined) attrs['data-pending'] = options.pending;
  const tags: HtmlTagDescriptor[] = [{ tag: 'script', attrs, children: source, injectTo: 'head-prepend' }];
  if (options.pendingStyle !== undefined) tags.unshift({ tag: 'style', children: options.pendingStyle, injectTo: 'head-prepend' });
  if (options.colorScheme !== undefined)
    tags.unshift({ tag: 'meta', attrs: { name: 'color-scheme', content: options.colorScheme }, injectTo: 'head-prepend' });
  const hash = cspHash(source);
  const csp = options.csp ?? `script-src 'self' ${hash}; object-src 'none'; base-uri 'none'`;
  const headers = csp === false ? { ...CALLBACK_HEADERS } : { ...CALLBACK_HEADERS, 'Content-Security-Policy': csp };
  const backendPath = options.handler === undefined ? undefined : new URL(options.backend, 'http://vite').pathname;
  const handled = new Set(backendPath === undefined ? [] : [backendPath, ...(options.routes ?? [])]);
  const listener = options.handler === undefined ? undefined : getRequestListener(async (request) => options.handler!(request));

  let litProduction = false;
  const lit = litProductionForPackage(() => litProduction);

  /** The token endpoint and the routes `handler` answers, in one of Vite's servers (before Vite's own answers). */
  const serveHandler = (middlewares: Connect.Server) => {
    if (listener === undefined) return;
    middlewares.use((req: IncomingMessage, res: ServerResponse, next: Connect.NextFunction) =>
      handled.has(pathOf(req)) ? void listener(req, res) : next(),
    );
  };
  /** The callback page with its headers: `page` gives its HTML and its CSP (a page it cannot read is left to Vite). */
  const servePage = (middlewares: Connect.Server, page: (pathname: string) => Promise<{ html: string; csp: string | false }>) => {
    middlewares.use((req: IncomingMessage, res: ServerResponse, next: Connect.NextFunction) => {
      const pathname = pathOf(req);
      if (!pages.has(pathname) || !isDocumentRequest(req)) return next();
      // Vite's own answer would say `Cache-Control: no-cache`: the page is answered here.
      page(pathname).then(({ html, csp: policy }) => {
        const sent = { ...CALLBACK_HEADERS, ...(policy === false ? {} : { 'Content-Security-Policy': policy }) };
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', ...sent }).end(req.method === 'HEAD' ? '' : html);
      }, next);
    });
  };
  return {
    name: 'itch-oauth-capture',
    api: {
      cspHash: hash,
      styleHash: options.pendingStyle === undefined ? undefined : cspHash(options.pendingStyle),
      callbackHeaders: headers,
    },
    transformIndexHtml: {
      order: 'post',
      handler: (html, context) => (pages.has(context.path) ? withIconsFirst(html, tags) : []),
    },
    // In dev, the package's own imports of Lit get Lit's production build, pre-bundled or not,
    // unless the app depends on Lit itself (then it wants Lit's development build, and one Lit).
    config: (_config, { command }) => (command === 'serve' ? { optimizeDeps: { rolldownOptions: { plugins: [lit] } } } : undefined),
    configResolved(config) {
      litProduction = config.command === 'serve' && !appUsesLit(config.root);
    },
    resolveId: { order: 'pre', ...lit.resolveId },
    configureServer(server) {
      serveHandler(server.middlewares);
      // After Vite's own middlewares (a post hook), so that the page's inline modules
      // (`/callback.html?html-proxy&index=0.js`) and every other request Vite answers reach Vite;
      // through Vite's HTML transforms (which add the capture), as Vite would serve the page.
      return () =>
        servePage(server.middlewares, async (pathname) => {
          const source = await readFile(path.join(server.config.root, pathname), 'utf8');
          const html = await server.transformIndexHtml(pathname, source, pathname);
          return { html, csp: csp === false ? false : withScriptHashes(csp, devInlineHashes(source, html)) };
        });
    },
    configurePreviewServer(server) {
      serveHandler(server.middlewares);
      // Before Vite's static files, which would send the built page without its headers.
      servePage(server.middlewares, async (pathname) => ({
        html: await readFile(path.resolve(server.config.root, server.config.build.outDir, `.${pathname}`), 'utf8'),
        csp,
      }));
    },
  };
}
