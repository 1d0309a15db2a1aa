/*
 * The token endpoint's handler: the access token's POST, and the popup relay's requests, in the
 * order they are checked. The options are in `options.ts` and checked once by `read-options.ts`,
 * the bodies in `body.ts`, the checks with itch.io in `verify.ts` and `ownership.ts`, what
 * `onLogin` receives and returns in `on-login.ts`.
 */
import type { ItchOAuthErrorCode } from '../../core/errors.js';
import { errorResponse, markRefusal, refusalOf, storeErrorResponse } from '../http/answers.js';
import { preflight, withCors, type CorsPolicy } from '../http/cors.js';
import { missingOrigin } from '../http/own-origin.js';
import { crossSiteProblem, isJsonContentType, readBodyWithLimit } from '../http/request-guard.js';
import type { User } from '../itch-api/login-schemas.js';
import { PopupRelay } from '../popup/relay.js';
import { popupRoutes } from '../popup/routes.js';
import { clientKey } from '../rate-limit/client-address.js';
import { memoryCounters } from '../rate-limit/counters.js';
import { createLimiter, type LimitedRoute, type Limiter } from '../rate-limit/limiter.js';
import { storeCounters } from '../rate-limit/store-counters.js';
import { popupUnavailablePage } from '../popup/start-page.js';
import { readBody, type Body } from './body.js';
import { loginAnswer, type LoginContext } from './on-login.js';
import type { TokenHandlerOptions } from './options.js';
import type { Owns } from './ownership.js';
import { readOptions, type HandlerSettings } from './read-options.js';
import { createVerify, type Verify } from './verify.js';

export type { Refusal } from '../http/answers.js';
export type { SetIfAbsent } from '../popup/set-if-absent.js';
export type { LoginContext, OnLoginResult } from './on-login.js';
export { DEFAULT_MAX_BODY_BYTES, type PopupOptions, type TokenHandlerOptions } from './options.js';
export { DEFAULT_RATE_LIMITS, type RateLimitOptions } from '../rate-limit/options.js';
export type { ClientAddress } from '../rate-limit/client-address.js';

/**
 * Creates the handler of the token endpoint, the route the widget POSTs the access token to:
 * `POST` with `Content-Type: application/json` and the body `{"access_token": "<token>"}`.
 *
 * Every request is judged against the site's own origin, the `origin` option (see there): without
 * it only loopback development is served, anything else is refused (500) naming the option.
 *
 * In order: a `GET` with a `state` is a popup's start page (with the `popup` option; see
 * `../popup/routes.ts`), answered before the cross-site check because it is a top-level navigation
 * from itch.io's or the opener's site, and writing nothing a flood could grow. Then it refuses a
 * cross-site request (403), another method (405), another content type (415), a body over the
 * limit (413) or of another shape (400); counts the request against its client's rate limit
 * (429 with `Retry-After` when over; see `rateLimit`); hands the popup relay's requests (binding, deposit,
 * collection) to it; asks `{apiBaseUrl}/credentials/info` about the token, refusing an unknown
 * token (401), one without a required scope (403) and one of another OAuth application (403);
 * reads `{apiBaseUrl}/profile`; with `ownership`, checks which games the user owns (403
 * `not_owner` when required and none); calls `onLogin`; and answers 200 `{ user }` (`{ user, owns }`
 * with `ownership`). When itch.io cannot be reached or fails, it answers 502; when the site is at
 * its ceiling of calls to itch.io (`rateLimit.itchCallsPerSecond`), 503 with `Retry-After`. Every error answer is
 * `{ "errors": ["..."], "code"?: "..." }` and `Cache-Control: no-store`; the token is never echoed.
 *
 * @example
 * const handler = createTokenHandler({
 *   applicationId: 1234,
 *   origin: 'https://example.com',
 *   onLogin: ({ user }) => ({ headers: { 'Set-Cookie': `user=${user.id}; HttpOnly; Secure; SameSite=Lax; Path=/` } }),
 * });
 * // Hono: app.all('/auth/itch', (c) => handler(c.req.raw));
 *
 * @throws TypeError at creation for any bad option, naming it.
 * @see https://itch.io/docs/api/oauth
 * @see https://www.rfc-editor.org/rfc/rfc9700#section-4.6
 * @group Token endpoint
 */
export function createTokenHandler(options: TokenHandlerOptions): (request: Request) => Promise<Response> {
  const settings = readOptions(options);
  const limiter = createRateLimiter(settings);
  const verify = createVerify(settings, limiter?.itchFetch(settings.fetch) ?? ((input, init) => (settings.fetch ?? fetch)(input, init)));
  const logIn = async (context: LoginContext): Promise<Response> =>
    loginAnswer(
      await settings.onLogin(context),
      context.owns === undefined ? { user: context.user } : { user: context.user, owns: context.owns },
    );
  const popupSteps =
    settings.popup === undefined
      ? undefined
      : createPopupSteps(settings, (token, request) => verify(token, limiter?.ticket(request)), logIn);
  /** Counts the request against its client's limit: the 429 that refuses it, if over. */
  const admit = async (request: Request, route: LimitedRoute) => limiter?.admit(request, route);
  // `Prefer` asks to hold a popup collection, `Preference-Applied` says it was (RFC 7240); a game's
  // collection carries its DPoP proof (see sessions/dpop.ts), and its answer the nonce of the
  // game's next proofs (`DPoP-Nonce`, RFC 9449 section 9).
  const cors: CorsPolicy = {
    allowed: settings.allowedOrigins,
    methods: 'POST',
    headers: 'Content-Type, Prefer, DPoP',
    expose: 'Preference-Applied, DPoP-Nonce',
  };

  const handle = async (request: Request, own: string): Promise<Response> => {
    // The popup's start page: a top-level navigation, before the cross-site check (its request
    // comes from itch.io's or the opener's site); it writes nothing a flood could grow.
    if (request.method === 'GET' && new URL(request.url).searchParams.has('state')) {
      if (popupSteps === undefined) return relayOff(404);
      const over = await admit(request, 'popupStarts');
      return over === undefined ? popupSteps.start(request, own) : overPage(request, over);
    }
    const crossSite = crossSiteProblem(request, own, settings.allowedOrigins);
    if (crossSite !== undefined) return errorResponse(403, crossSite);
    const early = preflight(request, own, cors);
    if (early !== undefined) return early;
    const body = await readPost(request, settings.maxBodyBytes);
    if (body instanceof Response) return body;
    const over = await admit(request, routeOf[body.kind]);
    if (over !== undefined) return over;
    if (body.kind === 'login') {
      const verified = await verify(body.token, limiter?.ticket(request));
      return verified instanceof Response
        ? verified
        : logIn({ ...verified, token: body.token, request, startedFrom: request.headers.get('origin') });
    }
    if (popupSteps === undefined) return body.kind === 'deposit' ? relayOff(403, 'state_mismatch') : relayOff(404);
    try {
      if (body.kind === 'collect') return await popupSteps.handOver(request, body.verifier, body.seen);
      if (body.kind === 'bind') return await popupSteps.bind(request, own, body.bind);
      return await popupSteps.deposit(request, own, body.token, body.state);
    } catch (error) {
      return storeErrorResponse(error);
    }
  };

  return async (request) => {
    const own = settings.ownOrigin(request);
    let response: Response;
    try {
      response = own === undefined ? errorResponse(500, missingOrigin('createTokenHandler')) : await handle(request, own);
    } finally {
      await limiter?.settle(request);
    }
    const refusal = refusalOf(response);
    if (refusal !== undefined) settings.onError(refusal);
    return own === undefined ? response : withCors(request, own, cors, response);
  };
}

/** Which per-client limit each kind of POST counts against. */
const routeOf: Record<Exclude<Body, { kind: 'problem' }>['kind'], LimitedRoute> = {
  login: 'tokens',
  deposit: 'tokens',
  bind: 'popupStarts',
  collect: 'popupCollections',
};

/**
 * The rate limits, counting what protects itch.io in `store` when there is one, the rest in this
 * instance's memory (see createLimiter); `undefined` with `rateLimit: false`.
 */
function createRateLimiter(settings: HandlerSettings): Limiter | undefined {
  if (settings.rateLimit === undefined) return undefined;
  const local = memoryCounters();
  const counters = settings.store === undefined ? local : storeCounters(settings.store, (message) => console.warn(message));
  return createLimiter(settings.rateLimit, counters, local, settings.clientAddress);
}

/** A start page over its client's limit: the popup shows that the site is busy (429, its `Retry-After`). */
function overPage(request: Request, over: Response): Response {
  const page = popupUnavailablePage(request.headers.get('accept-language'));
  page.headers.set('Retry-After', over.headers.get('Retry-After') ?? '60');
  return markRefusal(new Response(page.body, { status: 429, headers: page.headers }), refusalOf(over)!);
}

/** The popup relay's steps (start, bind, deposit, hand over), from the checked settings. */
function createPopupSteps(
  settings: HandlerSettings,
  verify: (token: string, request: Request) => ReturnType<Verify>,
  logIn: (context: LoginContext) => Promise<Response>,
) {
  const popup = settings.popup!;
  return popupRoutes({
    relay: new PopupRelay(popup.store, popup.storeSetIfAbsent),
    severedOpener: popup.severedOpener,
    siteName: popup.siteName,
    allowHttp: popup.dangerouslyAllowHttp,
    baseUrl: settings.baseUrl,
    allowedOrigins: settings.allowedOrigins,
    clientId: settings.clientId,
    redirectUri: settings.redirectUri,
    verify,
    clientOf: (request) => clientKey(settings.clientAddress?.(request)),
    logIn: (login, request) =>
      logIn({
        user: login.user as User,
        scopes: login.scopes,
        token: login.token,
        owns: login.owns as Owns | undefined,
        startedFrom: login.startedFrom,
        request,
      }),
  });
}

/** A popup request while the relay is off. */
function relayOff(status: number, code?: ItchOAuthErrorCode): Response {
  return errorResponse(status, 'popup logins are off: turn them on with the popup option', code);
}

/** A POST's body, read within the size limit, or the answer that refuses the request (405, 415, 413, 400). */
async function readPost(request: Request, maxBodyBytes: number): Promise<Exclude<Body, { kind: 'problem' }> | Response> {
  if (request.method !== 'POST')
    return errorResponse(405, `method ${request.method} not allowed: POST the token`, undefined, { Allow: 'POST' });
  if (!isJsonContentType(request.headers.get('content-type'))) return errorResponse(415, 'Content-Type must be application/json');
  let bytes: Uint8Array | 'too-large';
  try {
    bytes = await readBodyWithLimit(request, maxBodyBytes);
  } catch {
    return errorResponse(400, 'the request body could not be read');
  }
  if (bytes === 'too-large') return errorResponse(413, `the request body is larger than ${maxBodyBytes} bytes`);
  const body = readBody(bytes);
  return body.kind === 'problem' ? errorResponse(400, body.problem) : body;
}
