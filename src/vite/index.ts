import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { getRequestListener } from '@hono/node-server';
import type { Connect, HtmlTagDescriptor, Plugin } from 'vite';

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
   * The callback page's `Content-Security-Policy` in dev and preview. Default
   * `script-src 'self' <the capture's hash>; object-src 'none'; base-uri 'none'`; `false` sends none
   * (e.g. for a framework plugin that adds inline scripts in dev).
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

/** The CSP source expression (`'sha256-…'`) that allows an inline script with this exact text. */
export function cspHash(scriptText: string): string {
  return `'sha256-${createHash('sha256').update(scriptText, 'utf8').digest('base64')}'`;
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

/**
 * Puts the capture first in `<head>` of the callback page, inline (no extra request before it),
 * in dev and in the build. Runs after every other plugin's HTML transform and prepends, so no
 * script can come before it. `plugin.api.cspHash` is the hash to allow it in a strict CSP.
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

  /** The token endpoint and the callback page's headers, in one of Vite's servers. */
  const serve = (middlewares: Connect.Server, html: (page: string) => Promise<string>) => {
    middlewares.use((req: IncomingMessage, res: ServerResponse, next: Connect.NextFunction) => {
      const pathname = (req.url ?? '/').split('?')[0]!;
      if (listener !== undefined && handled.has(pathname)) return void listener(req, res);
      if (!pages.has(pathname) || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
      // Vite's own answer would say `Cache-Control: no-cache`: the page is answered here.
      html(pathname).then(
        (text) => res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', ...headers }).end(req.method === 'HEAD' ? '' : text),
        next,
      );
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
      handler: (_html, context) => (pages.has(context.path) ? tags : []),
    },
    configureServer(server) {
      // Through Vite's HTML transforms (which add the capture), as Vite would serve the page.
      serve(server.middlewares, async (page) =>
        server.transformIndexHtml(page, await readFile(path.join(server.config.root, page), 'utf8'), page),
      );
    },
    configurePreviewServer(server) {
      serve(server.middlewares, (page) => readFile(path.resolve(server.config.root, server.config.build.outDir, `.${page}`), 'utf8'));
    },
  };
}
