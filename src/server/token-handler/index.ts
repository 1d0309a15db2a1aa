/*
 * The endpoint the widget POSTs the access token to, and the popup relay's requests: which
 * request is which, in the order they are checked. The options are in `options.ts`, the bodies
 * in `body.ts`, the checks with itch.io in `verify.ts`, the answers in `answers.ts`.
 */
import { memoryPopupStore, PopupRelay } from '../popup/relay.js';
import { popupRoutes } from '../popup/routes.js';
import { missingOrigin } from '../own-origin.js';
import type { User } from '../login-schemas.js';
import type { Owns } from '../ownership.js';
import { crossSiteProblem, isJsonContentType, readBodyWithLimit } from '../request-guard.js';
import { errorResponse, loginAnswer, preflightResponse, refusalOf, storeErrorResponse, withCors } from './answers.js';
import { readBody } from './body.js';
import { readOptions, type LoginContext, type TokenHandlerOptions } from './options.js';
import { createVerify } from './verify.js';
import type { ItchOAuthErrorCode } from '../../core/errors.js';

export type { Refusal } from './answers.js';
export type { SetIfAbsent } from '../popup/set-if-absent.js';
export { DEFAULT_MAX_BODY_BYTES, type LoginContext, type LoginResult, type PopupOptions, type TokenHandlerOptions } from './options.js';

/**
 * Creates the endpoint the widget POSTs the access token to: `POST` with
 * `Content-Type: application/json` and the body `{"access_token": "<token>"}`.
 *
 * Every request is judged against the site's own origin, the `origin` option (see there): without
 * it only loopback development is served, anything else is refused (500) naming the option.
 *
 * In order: a `GET` with a `state` is a popup's start page (with the `popup` option; see
 * `../popup/routes.ts`), answered before the cross-site check because it is a top-level navigation
 * from itch.io's or the opener's site, and writing nothing a flood could grow. Then it refuses a
 * cross-site request (403), another method (405), another content type (415), a body over the
 * limit (413) or of another shape (400); hands the popup relay's requests (binding, deposit,
 * collection) to it; asks `{apiBaseUrl}/credentials/info` about the token, refusing an unknown
 * token (401), one without a required scope (403) and one of another OAuth application (403);
 * reads `{apiBaseUrl}/profile`; with `ownership`, checks which games the user owns (403
 * `not_owner` when required and none); calls `onLogin`; and answers 200 `{ user }` (`{ user, owns }`
 * with `ownership`). When itch.io cannot be reached or fails, it answers 502. Every error answer is
 * `{ "errors": ["..."], "code"?: "..." }` and `Cache-Control: no-store`; the token is never echoed.
 *
 * @throws TypeError at creation for bad options.
 * @see https://itch.io/docs/api/oauth
 * @see https://www.rfc-editor.org/rfc/rfc9700#section-4.6
 */
export function createTokenHandler(options: TokenHandlerOptions): (request: Request) => Promise<Response> {
  const settings = readOptions(options);
  const { allowedOrigins, maxBodyBytes, popup, onError, ownOrigin } = settings;
  const verify = createVerify(settings, options);

  /** Lets the app make its session, answering the request that will carry it. */
  const logIn = async (context: LoginContext): Promise<Response> =>
    loginAnswer(
      await options.onLogin(context),
      context.owns === undefined ? { user: context.user } : { user: context.user, owns: context.owns },
    );

  const relay =
    popup === undefined
      ? undefined
      : popupRoutes({
          relay: new PopupRelay(options.store ?? memoryPopupStore(), options.storeSetIfAbsent),
          severedOpener: popup.severedOpener,
          siteName: popup.siteName,
          allowHttp: popup.dangerouslyAllowHttp,
          baseUrl: settings.baseUrl,
          allowedOrigins,
          clientId: settings.clientId,
          redirectUri: settings.redirectUri,
          verify,
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
  const relayOff = (status: number, code?: ItchOAuthErrorCode) =>
    errorResponse(status, 'popup logins are off: turn them on with the popup option', code);

  const handle = async (request: Request, own: string): Promise<Response> => {
    // The popup's start page: a top-level navigation, before the cross-site check (its request
    // comes from itch.io's or the opener's site); it writes nothing a flood could grow.
    if (request.method === 'GET' && new URL(request.url).searchParams.has('state'))
      return relay === undefined ? relayOff(404) : relay.start(request, own);
    const crossSite = crossSiteProblem(request, own, allowedOrigins);
    if (crossSite !== undefined) return errorResponse(403, crossSite);
    if (request.method === 'OPTIONS' && request.headers.has('access-control-request-method')) return preflightResponse();
    if (request.method !== 'POST')
      return errorResponse(405, `method ${request.method} not allowed: POST the token`, undefined, { Allow: 'POST' });
    if (!isJsonContentType(request.headers.get('content-type'))) {
      return errorResponse(415, 'Content-Type must be application/json');
    }

    let bytes: Uint8Array | 'too-large';
    try {
      bytes = await readBodyWithLimit(request, maxBodyBytes);
    } catch {
      return errorResponse(400, 'the request body could not be read');
    }
    if (bytes === 'too-large') return errorResponse(413, `the request body is larger than ${maxBodyBytes} bytes`);
    const body = readBody(bytes);
    if (body.kind === 'problem') return errorResponse(400, body.problem);
    if (body.kind === 'login') {
      const verified = await verify(body.token);
      return verified instanceof Response
        ? verified
        : logIn({ ...verified, token: body.token, request, startedFrom: request.headers.get('origin') });
    }
    if (relay === undefined) return body.kind === 'deposit' ? relayOff(403, 'state_mismatch') : relayOff(404);
    try {
      if (body.kind === 'collect') return await relay.collect(request, body.verifier);
      if (body.kind === 'bind') return await relay.bind(request, own, body.bind);
      return await relay.deposit(request, own, body.token, body.state);
    } catch (error) {
      return storeErrorResponse(error);
    }
  };

  return async (request) => {
    const own = ownOrigin(request);
    const response = own === undefined ? errorResponse(500, missingOrigin('createTokenHandler')) : await handle(request, own);
    const refusal = refusalOf(response);
    if (refusal !== undefined) onError(refusal);
    return own === undefined ? response : withCors(request, own, allowedOrigins, response);
  };
}
