/*
 * The four requests of a popup login, as the token handler serves them on the token endpoint URL:
 *
 * 1. **Start** (`GET {backend}?state=p.…&client_id=…`): the popup's first page. It writes nothing
 *    (but the "confirm a code" notice, in the bounded notice space).
 * 2. **Bind** (`POST {"popup_bind", "opener", "binding"}` from that page, same-origin): once the
 *    page's opener answered its `postMessage` with the login's binding, from an origin the site
 *    allows, the handler checks `p.` + SHA-256(binding) is the state and sets the binding cookie
 *    (see `binding-cookie.ts`), which records the opener's origin. With no opener, the person confirms
 *    a code, or the login ends with `popup_unverified`, as the site chose.
 * 3. **Deposit** (`POST {"access_token", "state"}` from the callback page's capture): refused
 *    before anything else without the state's binding cookie (on https: the `__Host-` one);
 *    then the token is checked with itch.io, and the verified login waits under its state.
 * 4. **Collect** (`POST {"popup_verifier"}` from the opener, held with `Prefer: wait=N`: see
 *    `held-collection.ts`): only a browser page (`Origin`), only from the origin the login was
 *    bound to; `onLogin` runs then, with `startedFrom` from the binding, never from this request.
 */
import { buildAuthorizeUrl } from '../../core/authorize-url.js';
import { createState, popupStateOf, popupStateOfBinding, sha256Base64url } from '../../core/state.js';
import { errorResponse, jsonResponse, markRefusal, refusalBody, refusalOf, storeFailure } from '../http/answers.js';
import { isLoopbackOrigin } from '../http/own-origin.js';
import { heldCollections } from './held-collection.js';
import { bindingCookie, clearBindingCookie, overflowingBindingCookies, readBinding } from './binding-cookie.js';
import { BASE64URL_256, MAX_WAITING_PER_USER, POPUP_STATE, type PopupLogin, type PopupRelay } from './relay.js';
import { authorizationPageSevers } from './severs.js';
import { popupStartPage, popupUnavailablePage, type SeveredOpener } from './start-page.js';

/** The start page's request to bind its state. */
export interface BindRequest {
  state: string;
  /** The origin whose answer the start page received, or `null` when it had no opener. */
  opener: string | null;
  /** The binding the opener handed over (with an opener). */
  binding?: string | undefined;
  /** The person confirmed the code (without an opener, `severedOpener: 'confirm'`). */
  confirmed: boolean;
}

/** A token itch.io vouched for, or the answer that refused it. */
export type Verified = { user: unknown; scopes: string[]; owns?: Record<string, boolean> | undefined } | Response;

export interface PopupRoutesOptions {
  relay: PopupRelay;
  severedOpener: SeveredOpener;
  /** Shown where a person confirms a code. */
  siteName: string;
  /** Popup logins from plain-http pages that are not loopback. */
  allowHttp: boolean;
  /** itch.io, where the start page goes on to. */
  baseUrl: string;
  allowedOrigins: ReadonlySet<string> | undefined;
  /** The application's client id and redirect URI, when the site gave them: the start page starts no other. */
  clientId: string | undefined;
  redirectUri: string | undefined;
  /** Checks a deposit's token (the request is the deposit's, whose rate limit its check counts against). */
  verify(token: string, request: Request): Promise<Verified>;
  /** The client a request comes from, as the rate limits count it (`undefined`: not known). */
  clientOf(request: Request): string | undefined;
  logIn(login: PopupLogin, request: Request): Promise<Response>;
}

/** The itch.io account a verified login is of (its profile's `id`). */
function accountOf(user: unknown): string {
  const id = (user as { id?: unknown } | null)?.id;
  return typeof id === 'number' || typeof id === 'string' ? String(id) : 'unknown';
}

/** `response` with these `Set-Cookie`s, in this order (a later one for a name wins). */
function withCookies(response: Response, cookies: readonly string[]): Response {
  for (const cookie of cookies) response.headers.append('Set-Cookie', cookie);
  return response;
}

/** What the four requests share: the options, and what is derived from them once. */
interface Routes {
  options: PopupRoutesOptions;
  severs: () => Promise<boolean | undefined>;
  mayOpen(origin: string, own: string): boolean;
  authorizeUrl(query: URLSearchParams, state: string): string;
  held: ReturnType<typeof heldCollections>;
}

/** The handler's popup requests (see the top of this file). */
export function popupRoutes(options: PopupRoutesOptions) {
  const { allowedOrigins } = options;
  const severs = authorizationPageSevers(options.baseUrl);
  /** What is known by now of the authorization page's COOP (`undefined`: not yet). */

  /** Whether a page of `origin` may start popup logins here (the site's own, or listed). */
  const mayOpen = (origin: string, own: string) => origin === own || allowedOrigins?.has(origin) === true;

  /** The authorization address a start page goes on to: the configured itch.io, nowhere else. */
  const authorizeUrl = (query: URLSearchParams, state: string): string =>
    buildAuthorizeUrl({
      baseUrl: options.baseUrl,
      clientId: query.get('client_id') ?? '',
      redirectUri: query.get('redirect_uri') ?? '',
      scope: query.get('scope') ?? 'profile:me',
      state,
    }).href;
  const held = heldCollections(options.relay.wake, options.clientOf);
  const routes: Routes = { options, severs, mayOpen, authorizeUrl, held };
  return {
    start: (request: Request, own: string): Promise<Response> => start(routes, request, own),
    bind: (request: Request, own: string, body: BindRequest): Promise<Response> => bind(routes, request, own, body),
    deposit: (request: Request, own: string, token: string, state: string): Promise<Response> =>
      deposit(routes, request, own, token, state),
    collect: (request: Request, verifier: string, seen = ''): Promise<Response> => collect(routes, request, verifier, seen),
  };
}

/** 1. The start page (see the top of this file). */
async function start(routes: Routes, request: Request, own: string): Promise<Response> {
  const { options, mayOpen, authorizeUrl, severs } = routes;
  const { relay, severedOpener } = options;
  const query = new URL(request.url).searchParams;
  const state = query.get('state') ?? '';
  if (!POPUP_STATE.test(state)) return errorResponse(400, 'state must be the state of a popup login ("p." and 43 base64url characters)');
  try {
    authorizeUrl(query, state);
  } catch (error) {
    return errorResponse(400, `the popup login cannot start: ${(error as Error).message}`);
  }
  // This page starts logins of the site's application only, when it said which.
  if (options.clientId !== undefined && query.get('client_id') !== options.clientId)
    return errorResponse(400, `the popup login's client_id is not this site's (${options.clientId})`);
  if (options.redirectUri !== undefined && query.get('redirect_uri') !== options.redirectUri)
    return errorResponse(400, `the popup login's redirect_uri is not this site's (${options.redirectUri})`);
  // The callback page shares the token endpoint's origin: this page sends no one to another app's.
  const callback = new URL(query.get('redirect_uri')!).origin;
  if (!mayOpen(callback, own)) {
    return errorResponse(400, `the popup login's redirect_uri must be on this site (${own} or allowedOrigins), not ${callback}`);
  }
  if (severedOpener === 'confirm') {
    // An opener that cannot see its popup learns from this notice to show the code too.
    try {
      await relay.updateNotice(state, { confirm: true });
    } catch (error) {
      return markRefusal(popupUnavailablePage(request.headers.get('accept-language')), { status: 503, message: storeFailure(error) });
    }
  }
  // Asked now and awaited, so that the bind finds it answered: an opener that is not told reads a
  // player's quick close as a severing and waits minutes; and on Cloudflare Workers a request's
  // I/O ends with its response, so an answer this request left pending would never come to the
  // bind's request (see authorizationPageSevers). Known, it costs nothing; unknown, at most the
  // ask's timeout, once per ten minutes (per minute while itch.io cannot be reached), and the
  // player would wait as long for itch.io's page anyway.
  await severs();
  return popupStartPage(state, {
    severed: severedOpener,
    siteName: options.siteName,
    acceptLanguage: request.headers.get('accept-language'),
  });
}

/** 2. The start page binds its login to this browser. */
async function bind(routes: Routes, request: Request, own: string, body: BindRequest): Promise<Response> {
  const { options, mayOpen, authorizeUrl, severs } = routes;
  const { relay, severedOpener } = options;
  const origin = request.headers.get('origin');
  const site = request.headers.get('sec-fetch-site');
  // Only the start page itself binds: a request from this site's own origin, which the
  // browser's Fetch Metadata confirms when it sends it.
  if (origin !== own || (site !== null && site !== 'same-origin')) {
    return errorResponse(403, 'a popup login is bound only by the start page on this origin');
  }
  const secure = own.startsWith('https:');
  if (!secure && !isLoopbackOrigin(own) && !options.allowHttp) {
    return errorResponse(
      403,
      'popup logins are refused on plain http outside loopback: anyone on the network can plant its cookie. Serve the site over https (or, on a network you trust, set popup.dangerouslyAllowHttp)',
    );
  }
  if (new URL(request.url).searchParams.get('state') !== body.state)
    return errorResponse(400, 'the start page binds the state of its own address');
  const { state } = body;

  if (body.opener === null) {
    if (severedOpener !== 'confirm' || !body.confirmed) {
      const why =
        severedOpener === 'confirm'
          ? 'the person did not confirm the code of the popup login'
          : 'the popup had no opener to check, and the site does not ask the person to confirm a code (popup.severedOpener)';
      if ((await relay.readCodeBinding(state)) === undefined)
        await relay.updateNotice(state, { refusal: { status: 403, message: why, code: 'popup_unverified' } });
      return errorResponse(403, why, 'popup_unverified');
    }
    const secret = createState();
    const stored = await relay.storeCodeBinding(state, await sha256Base64url(secret));
    if (stored === 'taken') return errorResponse(409, 'this popup login was confirmed already');
    if (stored === 'full')
      return errorResponse(503, 'too many logins are waiting for a code confirmation: try again in a few minutes', undefined, {
        'Retry-After': '60',
      });
    return withCookies(jsonResponse(200, { authorize: authorizeUrl(new URL(request.url).searchParams, state) }), [
      ...overflowingBindingCookies(request),
      bindingCookie(state, { kind: 'code', secret }, secure),
    ]);
  }

  if (!mayOpen(body.opener, own)) {
    return errorResponse(
      403,
      `the page that opened the popup (${JSON.stringify(body.opener)}) is not on this origin nor in allowedOrigins`,
      'state_mismatch',
    );
  }
  if (body.binding === undefined || !BASE64URL_256.test(body.binding) || (await popupStateOfBinding(body.binding)) !== state) {
    return errorResponse(403, 'the opener did not hand over the binding of this popup login', 'state_mismatch');
  }
  // The store is read once before the player leaves for itch.io: where it is down, the login
  // could not be collected after the consent page, so the popup stops here (503,
  // service_unavailable), whatever the opener's first collection has learnt by then.
  await relay.readNotice(state);
  const cookie = bindingCookie(state, { kind: 'opener', binding: body.binding, opener: body.opener }, secure);
  const answer = { authorize: authorizeUrl(new URL(request.url).searchParams, state), severs: await severs() };
  return withCookies(jsonResponse(200, answer), [...overflowingBindingCookies(request), cookie]);
}

/** 3. The callback page deposits its token. */
async function deposit(routes: Routes, request: Request, own: string, token: string, state: string): Promise<Response> {
  const { options, mayOpen } = routes;
  const { relay } = options;
  // On an https site only the __Host- cookie counts: the plain name can be planted by a sibling
  // subdomain, another port or a plain-http response (RFC 6265bis section 8.5, 8.6). Which
  // one is decided by the configured origin, never by the request's headers.
  // On plain http, only where popup logins are allowed at all (loopback, or dangerouslyAllowHttp):
  // anywhere else a binding cookie can only have been planted.
  const plain = own.startsWith('http:') && (isLoopbackOrigin(own) || options.allowHttp);
  const binding = readBinding(request, state, plain);
  let startedFrom: string | null | undefined;
  if (binding?.kind === 'opener') {
    if ((await popupStateOfBinding(binding.binding)) === state && mayOpen(binding.opener, own)) startedFrom = binding.opener;
  } else if (binding?.kind === 'code') {
    const stored = await relay.readCodeBinding(state);
    if (stored !== undefined && stored === (await sha256Base64url(binding.secret))) startedFrom = null;
  }
  if (startedFrom === undefined) return errorResponse(403, 'this popup login was not started in this browser', 'state_mismatch');
  const read = await relay.readLoginAndNotice(state);
  if (read.login !== undefined) return errorResponse(409, 'this popup login already has an outcome');

  await relay.updateNotice(state, { delivering: true }, read);
  const verified = await options.verify(token, request);
  if (verified instanceof Response) {
    // itch.io could not be asked: nothing is kept, and the capture's retry may deposit again.
    if (verified.status >= 500) await relay.updateNotice(state, { delivering: undefined, unavailable: true });
    else await relay.updateNotice(state, { delivering: undefined, refusal: refusalOf(verified) });
    return verified;
  }
  const stored = await relay.storeVerifiedLogin(state, { at: Date.now(), ...verified, token, startedFrom }, accountOf(verified.user));
  if (stored === 'taken') return errorResponse(409, 'this popup login already has an outcome');
  if (stored === 'busy') {
    const why = `this itch.io account already has ${MAX_WAITING_PER_USER} popup logins waiting: finish or close them, then try again`;
    await relay.updateNotice(state, { delivering: undefined, refusal: { status: 429, message: why } });
    return errorResponse(429, why, undefined, { 'Retry-After': '60' });
  }
  // Its notice said "being checked"; the login itself now says more.
  await relay.clearNotice(state).catch(() => undefined);
  return jsonResponse(202, { deposited: true }, { 'Set-Cookie': clearBindingCookie(state, !plain) });
}

/** 4. The opener collects its login, at once or held (`Prefer: wait=N`). */
async function collect(routes: Routes, request: Request, verifier: string, seen: string): Promise<Response> {
  const origin = request.headers.get('origin');
  if (origin === null)
    return errorResponse(
      403,
      'a popup login is collected only by the page that started it (a browser request with an Origin)',
      'state_mismatch',
    );
  const state = await popupStateOf(verifier);
  const { relay } = routes.options;
  return routes.held.collect(request, state, relay.keysOf(state), seen, () => collectOnce(routes, request, origin, state));
}

/** What a collection is answered now. */
async function collectOnce(routes: Routes, request: Request, origin: string, state: string): Promise<Response> {
  const { options } = routes;
  const { relay } = options;
  // One read for both: a verifier nobody bound costs the store one request.
  const { login, notice } = await relay.readLoginAndNotice(state);
  if (login !== undefined) {
    if (login.startedFrom !== null && origin !== login.startedFrom) {
      return errorResponse(403, `this popup login was started from ${login.startedFrom}, not from ${origin}`, 'state_mismatch');
    }
    if (!(await relay.claimForHandOver(state, accountOf(login.user)))) return errorResponse(409, 'this popup login was collected already');
    return options.logIn(login, request);
  }
  if (notice?.refusal !== undefined) {
    await relay.clearNotice(state);
    // Told to onError already, when it was made: handed on here, not told twice.
    return jsonResponse(notice.refusal.status, refusalBody(notice.refusal));
  }
  if (notice?.delivering) return jsonResponse(202, { pending: true, arrived: true, delivering: true });
  if (notice?.unavailable) return jsonResponse(202, { pending: true, arrived: true, unavailable: true });
  if (notice?.confirm) return jsonResponse(202, { pending: true, arrived: true, confirm: true });
  return jsonResponse(202, { pending: true });
}
