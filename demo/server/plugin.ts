// The demo's Vite plugin: the backend as dev-server middleware, and the callback page served with
// the headers the README recommends for it. (The capture itself is put first in <head> by the
// package's own Vite plugin, `itchOAuthCapture`.)
import { readFile } from 'node:fs/promises';
import { getRequestListener } from '@hono/node-server';
import type { Hono } from 'hono';
import type { Plugin } from 'vite';
import { BACKEND_PATHS } from './backend.js';

export interface DemoPluginOptions {
  backend: Hono;
  /** The callback page as served, e.g. `/callback.html`. */
  callbackPath: string;
  /** Its file. */
  callbackFile: string;
  /** The CSP source expression that allows the inlined capture (`'sha256-…'`). */
  captureCspHash: string;
  /**
   * What the pages' `%ITCH_CLIENT_ID%`, `%ITCH_REDIRECT_URI%` and `%ITCH_BASE_URL%` stand for.
   * Read per request: the redirect URI is known only once the server listens.
   */
  login: () => LoginSettings;
}

/** The settings of the site's `<itch-login-button>`s. */
export interface LoginSettings {
  clientId: string;
  redirectUri: string;
  baseUrl: string;
  /** Origin of the framed browser game (`%GAME_URL%`). */
  gameUrl?: string | undefined;
  /** The token endpoint as the game reaches it (`%GAME_BACKEND%`). */
  gameBackend?: string | undefined;
  /** The vault game's store page (`%GAME_STORE_URL%`), linked when a login is refused `not_owner`. */
  storeUrl?: string | undefined;
}

const escapeAttribute = (value: string): string =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Fills the `%ITCH_…%` and `%GAME_…%` placeholders of a page (escaped: they sit in attribute values). */
export function fillLoginSettings(html: string, login: LoginSettings): string {
  const values: Record<string, string> = {
    ITCH_CLIENT_ID: login.clientId,
    ITCH_REDIRECT_URI: login.redirectUri,
    ITCH_BASE_URL: login.baseUrl,
    GAME_URL: login.gameUrl ?? '',
    GAME_BACKEND: login.gameBackend ?? '',
    GAME_STORE_URL: login.storeUrl ?? '',
  };
  return html.replace(/%((?:ITCH|GAME)_[A-Z_]+)%/g, (text, name: string) => (name in values ? escapeAttribute(values[name]!) : text));
}

/**
 * Headers of the callback page: its URL carries the token for an instant, so no referrer, no cache,
 * no framing, no opener that could read its address (a same-origin page that opened it as a
 * login popup); and only the inlined capture and the site's own scripts may run.
 */
export function callbackPageHeaders(captureCspHash: string): Record<string, string> {
  return {
    'Content-Type': 'text/html; charset=utf-8',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Content-Security-Policy': `script-src 'self' ${captureCspHash}; object-src 'none'; base-uri 'none'; frame-ancestors 'none'`,
  };
}

/** The page that frames the game cross-origin isolated (COOP same-origin, COEP credentialless or, with `?coep=require-corp`, require-corp). */
export const ISOLATED_PATH = '/isolated.html';

/** The site is light and dark (callback.html declares it too, after the capture). */
export const COLOR_SCHEME = '<meta name="color-scheme" content="light dark">';

export function demoPlugin(options: DemoPluginOptions): Plugin {
  const paths = new Set<string>(BACKEND_PATHS);
  // overrideGlobalObjects: false leaves the process's global Request and Response alone.
  const backend = getRequestListener(options.backend.fetch, { overrideGlobalObjects: false });
  const headers = callbackPageHeaders(options.captureCspHash);

  return {
    name: 'itch-oauth-demo',
    transformIndexHtml: {
      order: 'pre',
      handler: (html) => fillLoginSettings(html, options.login()),
    },
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const { pathname } = new URL(req.url ?? '/', 'http://site.invalid');
        // A login must start on the redirect URI's origin (the state is kept per origin), so a
        // page opened as localhost moves to 127.0.0.1 when that is where the callback is.
        if (req.headers['sec-fetch-dest'] === 'document' && req.headers.host?.startsWith('localhost:')) {
          const canonical = new URL(options.login().redirectUri);
          if (canonical.hostname === '127.0.0.1' && req.headers.host === `localhost:${canonical.port}`) {
            res.writeHead(307, { Location: `${canonical.origin}${req.url ?? '/'}` });
            res.end();
            return;
          }
        }
        // The callback document that delivers the token stops before its icon link, so the browser
        // asks for the default icon: no icon, and no error in the console.
        if (pathname === '/favicon.ico') {
          res.writeHead(204);
          res.end();
          return;
        }
        if (paths.has(pathname)) {
          backend(req, res).catch(next);
          return;
        }
        // The game page served as itch.io serves SharedArrayBuffer games: cross-origin isolated,
        // with COEP credentialless (cross-origin resources load without cookies and need no
        // Cross-Origin-Resource-Policy); `?coep=require-corp` serves the stricter variant, under
        // which every cross-origin resource must send CORP, as some hosts still do.
        if (pathname === ISOLATED_PATH) {
          const coep =
            new URL(req.url ?? '/', 'http://site.invalid').searchParams.get('coep') === 'require-corp' ? 'require-corp' : 'credentialless';
          res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
          res.setHeader('Cross-Origin-Embedder-Policy', coep);
        }
        if (pathname !== options.callbackPath || (req.method !== 'GET' && req.method !== 'HEAD')) {
          next();
          return;
        }
        // Vite's own HTML middleware would answer with its Cache-Control; this page gets ours.
        readFile(options.callbackFile, 'utf8')
          .then((html) => server.transformIndexHtml(req.url ?? pathname, html, req.originalUrl))
          // The capture's pending view follows a color-scheme declared before it (nothing after
          // the capture is parsed while the token is delivered), so this one goes first.
          .then((html) => html.replace('<head>', `<head>\n${COLOR_SCHEME}`))
          .then((html) => {
            res.writeHead(200, headers);
            res.end(req.method === 'HEAD' ? undefined : html);
          })
          .catch(next);
      });
    },
  };
}
