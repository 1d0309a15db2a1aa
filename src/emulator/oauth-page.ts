import { Hono, type Context } from 'hono';
import { html } from 'hono/html';
import { HTTPException } from 'hono/http-exception';
import { csrf } from 'hono/csrf';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { OOB_REDIRECT_URI } from '../core/authorize-url.js';
import { isKnownScope, parseScopes } from '../core/scopes.js';
import { pageSecurityHeaders, renderPage, type Markup, type PageEnv } from './page-layout.js';
import { describeScope } from './scope-wording.js';
import type { OAuthApplicationRecord } from './seed.js';
import type { EmulatorStore, PendingAuthorization } from './store.js';

/**
 * What the consent page does on Deny: `page` (itch.io's behaviour) shows a page saying access
 * was denied and never returns to the application; `redirect` sends the user back with
 * `#error=access_denied&state=…` as RFC 6749 section 4.2.2.1 describes.
 */
export type DenyBehaviour = 'page' | 'redirect';

/** A valid authorization request, or why it is not one (shown on the error page). */
type AuthorizationCheck =
  | { ok: true; application: OAuthApplicationRecord; redirectUri: string; scopes: string[]; state: string | undefined }
  | {
      ok: false;
      error: 'invalid_request' | 'unsupported_response_type' | 'invalid_scope';
      description: string;
      application?: OAuthApplicationRecord;
      /** Shown when the redirect URI does not match, to help the application's developer. */
      registered?: readonly string[];
    };

const SINGLE_VALUED = ['client_id', 'redirect_uri', 'response_type', 'scope', 'state'] as const;

/**
 * Checks an authorization request, in the order RFC 6749 requires: the client and its redirect
 * URI first (an error there must never redirect), then the response type and the scopes.
 * @see https://itch.io/docs/api/oauth (RFC 6749 sections 3.1, 4.2.1 and 4.2.2.1)
 */
export function checkAuthorizationRequest(store: EmulatorStore, params: URLSearchParams): AuthorizationCheck {
  const repeated = SINGLE_VALUED.find((name) => params.getAll(name).length > 1);
  if (repeated !== undefined) {
    return { ok: false, error: 'invalid_request', description: `the ${repeated} parameter is given more than once` };
  }
  const clientId = params.get('client_id');
  if (clientId === null || clientId === '') return { ok: false, error: 'invalid_request', description: 'client_id is missing' };
  const application = store.applicationByClientId(clientId);
  if (application === undefined) {
    return { ok: false, error: 'invalid_request', description: `no OAuth application has the client_id ${JSON.stringify(clientId)}` };
  }
  const redirectUri = params.get('redirect_uri');
  if (redirectUri === null || redirectUri === '') {
    return { ok: false, error: 'invalid_request', description: 'redirect_uri is missing', application };
  }
  if (!application.redirect_uris.includes(redirectUri)) {
    return {
      ok: false,
      error: 'invalid_request',
      description: `redirect_uri ${JSON.stringify(redirectUri)} does not match the application's settings`,
      application,
      registered: application.redirect_uris,
    };
  }
  const responseType = params.get('response_type');
  if (responseType === null || responseType === '') {
    return { ok: false, error: 'invalid_request', description: 'response_type is missing (it must be "token")', application };
  }
  if (responseType !== 'token') {
    return {
      ok: false,
      error: 'unsupported_response_type',
      description: `response_type must be "token", not ${JSON.stringify(responseType)}`,
      application,
    };
  }
  const scopes = parseScopes(params.get('scope') ?? '');
  if (scopes.length === 0) return { ok: false, error: 'invalid_scope', description: 'scope is missing or empty', application };
  const unknown = scopes.filter((scope) => !isKnownScope(scope));
  if (unknown.length > 0) {
    return {
      ok: false,
      error: 'invalid_scope',
      description: `unknown scope ${unknown.map((s) => JSON.stringify(s)).join(', ')}`,
      application,
    };
  }
  return { ok: true, application, redirectUri, scopes, state: params.get('state') ?? undefined };
}

/**
 * The redirect URI with a fragment encoded like a query string; the URI's own query is kept.
 * @see https://itch.io/docs/api/oauth
 */
export function callbackUrl(redirectUri: string, values: Record<string, string>, state: string | undefined): string {
  const fragment = new URLSearchParams(values);
  if (state !== undefined) fragment.set('state', state);
  return `${redirectUri}#${fragment.toString()}`;
}

/** The origin of `redirectUri` when it is an http(s) redirect URI registered for `clientId`, else ''. */
function registeredRedirectOrigin(store: EmulatorStore, clientId: string | undefined, redirectUri: string | undefined): string {
  const application = clientId === undefined ? undefined : store.applicationByClientId(clientId);
  if (application === undefined || redirectUri === undefined || redirectUri === OOB_REDIRECT_URI) return '';
  return application.redirect_uris.includes(redirectUri) ? new URL(redirectUri).origin : '';
}

function creatorName(store: EmulatorStore, application: OAuthApplicationRecord): string {
  const owner = store.user(application.user_id);
  return owner?.display_name ?? owner?.username ?? 'its developer';
}

/**
 * The authorization page `GET /user/oauth` and its form target `POST /user/oauth`.
 *
 * - A bad request gets a 400 page and is never redirected.
 * - A good one gets the consent page: the application, a user picker (the emulator has no
 *   login), the scopes in plain words, Deny and Approve. The form carries a random single-use
 *   id bound to the checked request (valid 10 minutes), so the POST cannot alter the client,
 *   redirect URI, scopes or state; cross-site POSTs are refused (Origin / Sec-Fetch-Site).
 * - Approve issues a new access token and answers 302 to `redirect_uri#access_token=…&state=…`,
 *   or, for `urn:ietf:wg:oauth:2.0:oob`, a page showing the key.
 * - Deny: see {@link DenyBehaviour}.
 *
 * @see https://itch.io/docs/api/oauth
 */
export function authorizationPages(store: EmulatorStore, options: { onDeny: DenyBehaviour; coop?: boolean | undefined }): Hono<PageEnv> {
  const pages = new Hono<PageEnv>();
  const formTarget = (c: Context): string => registeredRedirectOrigin(store, c.req.query('client_id'), c.req.query('redirect_uri'));
  pages.use('/user/*', ...pageSecurityHeaders(formTarget));
  if (options.coop === true) {
    // As an authorization server may: the popup is moved to a browsing context group of its own,
    // its opener is severed, and the opener sees it as closed at once.
    pages.use('/user/*', async (c, next) => {
      await next();
      c.res.headers.set('Cross-Origin-Opener-Policy', 'same-origin');
    });
  }

  pages.get('/user/oauth', (c) => {
    const url = new URL(c.req.url);
    const check = checkAuthorizationRequest(store, url.searchParams);
    if (!check.ok) return c.html(invalidRequestPage(c, check), 400);
    const requestId = store.savePendingAuthorization({
      application: check.application,
      redirectUri: check.redirectUri,
      scopes: check.scopes,
      state: check.state,
      query: url.search.slice(1),
      from: cameFrom(c.req.header('referer'), check.redirectUri),
    });
    return c.html(consentPage(c, store, check.application, check.redirectUri, check.scopes, requestId));
  });

  pages.post('/user/oauth', csrf(), async (c) => {
    const form = await c.req.parseBody();
    const field = (name: string): string => (typeof form[name] === 'string' ? form[name] : '');
    const pending = store.takePendingAuthorization(field('request'));
    if (pending === undefined) {
      return c.html(
        messagePage(
          c,
          'This authorization form has expired',
          'It was already used, is more than 10 minutes old, or the emulator restarted. Start the login again from the application.',
        ),
        400,
      );
    }
    const decision = field('decision');
    if (decision === 'deny') return deny(c, pending, options.onDeny);
    if (decision !== 'approve') return c.html(messagePage(c, 'Unknown decision', 'The form was sent without Approve or Deny.'), 400);

    const userId = /^[1-9]\d*$/.test(field('user_id')) ? Number(field('user_id')) : undefined;
    const user = userId === undefined ? undefined : store.user(userId);
    if (user === undefined) return c.html(messagePage(c, 'Unknown user', 'Pick one of the users offered on the consent page.'), 400);

    const token = store.issueAccessToken(user.id, pending.application, pending.scopes);
    if (pending.redirectUri === OOB_REDIRECT_URI) return c.html(outOfBandPage(c, pending, token.key));
    return c.redirect(callbackUrl(pending.redirectUri, { access_token: token.key }, pending.state), 302);
  });

  pages.onError((error, c) => {
    if (error instanceof HTTPException) {
      const message = error.status === 403 ? 'The form was not sent from this page, so it was refused.' : error.message;
      return c.html(messagePage(c, 'Request refused', message), error.status as ContentfulStatusCode);
    }
    console.error('itch.io emulator: error on the authorization page', error);
    return c.html(messagePage(c, 'Something went wrong', 'The emulator failed to handle this request; see its console.'), 500);
  });

  return pages;
}

/** `referer` when it is an http(s) page on the origin of `redirectUri` (the site that started the login). */
function cameFrom(referer: string | undefined, redirectUri: string): string | undefined {
  if (referer === undefined || !URL.canParse(referer) || !URL.canParse(redirectUri)) return undefined;
  const page = new URL(referer);
  return /^https?:$/.test(page.protocol) && page.origin === new URL(redirectUri).origin ? page.href : undefined;
}

function deny(c: Context<PageEnv>, pending: PendingAuthorization, onDeny: DenyBehaviour): Response | Promise<Response> {
  if (onDeny === 'redirect' && pending.redirectUri !== OOB_REDIRECT_URI) {
    return c.redirect(callbackUrl(pending.redirectUri, { error: 'access_denied' }, pending.state), 302);
  }
  const name = pending.application.name;
  const site = pending.redirectUri === OOB_REDIRECT_URI ? undefined : new URL(pending.redirectUri);
  // A popup login (its state starts with `p.`): the window was opened by a game, which is still
  // there; "Back to" the site's root would lead the popup to a page of the token endpoint it has no use for.
  const popup = pending.state?.startsWith('p.') === true;
  return c.html(
    renderPage(
      c,
      'Access denied',
      html`<h1>Access denied</h1>
<p>You did not allow <strong>${name}</strong> to use your itch.io account. Nothing was shared with it.</p>
${popup ? html`<p id="close-note">You can close this window: the game that opened it is still there.</p>` : ''}
<div class="actions">
<a class="button" href="/user/oauth?${pending.query}">Review the request again</a>
${site === undefined || popup ? '' : html`<a class="button primary" href="${pending.from ?? `${site.origin}/`}">Back to ${site.host}</a>`}
</div>`,
    ),
  );
}

function consentPage(
  c: Context<PageEnv>,
  store: EmulatorStore,
  application: OAuthApplicationRecord,
  redirectUri: string,
  scopes: readonly string[],
  requestId: string,
): Markup {
  const creator = creatorName(store, application);
  const destination =
    redirectUri === OOB_REDIRECT_URI
      ? html`<p class="note">After you approve, your key is shown on a page for you to copy into ${application.name}.</p>`
      : html`<p class="note">After you approve, you are sent to <code>${redirectUri}</code>.</p>`;
  return renderPage(
    c,
    `Authorize ${application.name}`,
    html`<h1>Authorize <strong>${application.name}</strong></h1>
<p class="lead">${application.name}, an application by ${creator}, wants to use your itch.io account.</p>
<form method="post" action="/user/oauth">
<input type="hidden" name="request" value="${requestId}">
<label for="user">Log in as</label>
<select id="user" name="user_id">
${store.users.map((user) => html`<option value="${user.id}">${user.display_name ?? user.username} (${user.username})</option>`)}
</select>
<p class="note">The emulator has no passwords: pick the user to act as.</p>
<h2>${application.name} will be able to:</h2>
<ul class="scopes">
${scopes.map((scope) => html`<li><span>${describeScope(scope, creator)}</span><code>${scope}</code></li>`)}
</ul>
${destination}
<div class="actions">
<button class="button" type="submit" name="decision" value="deny">Deny</button>
<button class="button primary" type="submit" name="decision" value="approve">Approve</button>
</div>
</form>`,
  );
}

function outOfBandPage(c: Context<PageEnv>, pending: PendingAuthorization, key: string): Markup {
  const name = pending.application.name;
  return renderPage(
    c,
    `Your key for ${name}`,
    html`<h1>Your key for <strong>${name}</strong></h1>
<p>Copy this key and paste it into ${name}:</p>
<code class="key" id="key">${key}</code>
<p class="note">It lets ${name} act for you with these scopes: ${pending.scopes.join(', ')}. Keep it to yourself.</p>`,
  );
}

function invalidRequestPage(c: Context<PageEnv>, check: Extract<AuthorizationCheck, { ok: false }>): Markup {
  const from = check.application === undefined ? 'An application' : html`<strong>${check.application.name}</strong>`;
  const registered =
    check.registered === undefined
      ? ''
      : html`<h2>Redirect URIs registered for this application</h2>
<ul>${check.registered.map((uri) => html`<li><code>${uri}</code></li>`)}</ul>`;
  return renderPage(
    c,
    'Invalid authorization request',
    html`<h1>This login link is not valid</h1>
<p>${from} sent you here with a request itch.io cannot accept: ${check.description}.</p>
<p class="error-code">Error: <code>${check.error}</code></p>
<p class="note">You have not been sent back to the application. If you are its developer, fix the request${
      check.application === undefined
        ? html`: its client_id must be the Client ID of one of the emulator's OAuth applications (see its seed).`
        : check.registered === undefined
          ? '.'
          : html`: the redirect URI must match the application's settings exactly.`
    }</p>
${registered}`,
  );
}

function messagePage(c: Context<PageEnv>, title: string, message: string): Markup {
  return renderPage(c, title, html`<h1>${title}</h1><p>${message}</p>`);
}
