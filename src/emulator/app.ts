import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { html } from 'hono/html';
import { API_ERRORS, ApiError } from './api-error.js';
import { oauthApi } from './api-oauth.js';
import { serversideApi } from './api-serverside.js';
import { authorizationPages, type DenyBehaviour } from './oauth-page.js';
import { pageSecurityHeaders, renderPage, type PageEnv } from './page-layout.js';
import type { EmulatorStore } from './store.js';

/** The options of `createEmulatorApp`, the emulator's Hono app without a listener. */
export interface EmulatorAppOptions {
  onDeny: DenyBehaviour;
  ownedKeysPerPage: number;
  /** Send `Cross-Origin-Opener-Policy: same-origin` on the authorization page. */
  coop?: boolean | undefined;
}

/**
 * The emulator as a Hono app (a `fetch` handler), without a listening server: the authorization
 * page, both API families, CORS on `/api/*`, and JSON errors there.
 */
export function createEmulatorApp(store: EmulatorStore, options: EmulatorAppOptions): Hono<PageEnv> {
  const app = new Hono<PageEnv>();

  app.use(
    '/api/*',
    cors({ origin: '*', allowMethods: ['GET', 'POST', 'OPTIONS'], allowHeaders: ['Authorization', 'Content-Type'], maxAge: 600 }),
  );
  app.route('/', serversideApi(store));
  app.route('/', oauthApi(store, { ownedKeysPerPage: options.ownedKeysPerPage }));
  app.route('/', authorizationPages(store, { onDeny: options.onDeny, coop: options.coop }));

  app.use('/', ...pageSecurityHeaders());
  app.get('/', (c) =>
    c.html(
      renderPage(
        c,
        'Running',
        html`<h1>The itch.io emulator is running</h1>
<p class="lead">Authorization page <code>/user/oauth</code>; API under <code>/api/1/KEY/</code> and <code>/api/</code>.</p>
${store.applications.map(
  (app) => html`<h2>${app.name}</h2>
<p>Client ID <code>${app.client_id}</code>. Redirect URIs:</p>
<ul>${app.redirect_uris.map((uri) => html`<li><code>${uri}</code></li>`)}</ul>`,
)}`,
      ),
    ),
  );

  // A browser that asks anyway (a page opened before its icon link was read, a bookmark) gets no
  // icon and no error.
  app.get('/favicon.ico', (c) => c.body(null, 204));

  app.notFound((c) => {
    if (c.req.path.startsWith('/api/')) return c.json({ errors: [API_ERRORS.invalidEndpoint] }, 404);
    return c.text('Not found', 404);
  });

  app.onError((error, c) => {
    if (error instanceof ApiError) return c.json({ errors: [error.message] }, error.status);
    console.error('itch.io emulator: unexpected error', error);
    if (c.req.path.startsWith('/api/')) return c.json({ errors: ['internal emulator error'] }, 500);
    return c.text('Internal emulator error', 500);
  });

  return app;
}
