/*
 * Step 1 of a popup login, the start (`GET {backend}?state=p.…&client_id=…`): the popup's first
 * page. It writes nothing (but the "confirm a code" notice, in the bounded notice space), and
 * sends no one to another application's authorization or another site's callback.
 */
import { errorResponse, markRefusal, storeFailure } from '../http/answers.js';
import { POPUP_STATE } from './relay.js';
import type { StepContext } from './step-context.js';
import { popupStartPage, popupUnavailablePage } from './start-page.js';

/** Answers a popup's first request with its start page. */
export async function start(context: StepContext, request: Request, own: string): Promise<Response> {
  const { options, mayOpen, authorizeUrl, severs } = context;
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
