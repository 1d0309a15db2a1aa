/*
 * Step 2 of a popup login, the bind (`POST {"popup_bind", "opener", "binding"}` from the start
 * page, same-origin): once the page's opener answered its `postMessage` with the login's binding,
 * from an origin the site allows, the handler checks `p.` + SHA-256(binding) is the state and sets
 * the binding cookie (see `binding-cookie.ts`), which records the opener's origin. With no opener,
 * the person confirms a code, or the login ends with `popup_unverified`, as the site chose.
 */
import { createState, popupStateOfBinding, sha256Base64url } from '../../core/state.js';
import { errorResponse, jsonResponse } from '../http/answers.js';
import { isLoopbackOrigin } from '../http/own-origin.js';
import { bindingCookie, overflowingBindingCookies } from './binding-cookie.js';
import { BASE64URL_256 } from './relay.js';
import type { BindRequest, StepContext } from './step-context.js';

/** Binds the start page's login to this browser, and answers where the popup goes on to. */
export async function bind(context: StepContext, request: Request, own: string, body: BindRequest): Promise<Response> {
  const { options, mayOpen, authorizeUrl, severs } = context;
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
  if (body.opener === null) return bindByCode(context, request, state, body.confirmed, secure);

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
  // could not be handed over after the consent page, so the popup stops here (503,
  // service_unavailable), whatever the opener's first collection has learnt by then.
  await options.relay.readNotice(state);
  const cookie = bindingCookie(state, { kind: 'opener', binding: body.binding, opener: body.opener }, secure);
  const answer = { authorize: authorizeUrl(new URL(request.url).searchParams, state), severs: await severs() };
  return withCookies(jsonResponse(200, answer), [...overflowingBindingCookies(request), cookie]);
}

/** A start page with no opener: bound when the person confirmed the code and the site asks for one, else refused. */
async function bindByCode(context: StepContext, request: Request, state: string, confirmed: boolean, secure: boolean): Promise<Response> {
  const { relay, severedOpener } = context.options;
  if (severedOpener !== 'confirm' || !confirmed) {
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
  return withCookies(jsonResponse(200, { authorize: context.authorizeUrl(new URL(request.url).searchParams, state) }), [
    ...overflowingBindingCookies(request),
    bindingCookie(state, { kind: 'code', secret }, secure),
  ]);
}

/** `response` with these `Set-Cookie`s, in this order (a later one for a name wins). */
function withCookies(response: Response, cookies: readonly string[]): Response {
  for (const cookie of cookies) response.headers.append('Set-Cookie', cookie);
  return response;
}
