/*
 * Step 3 of a popup login, the deposit (`POST {"access_token", "state"}` from the callback page's
 * capture): refused before anything else without the state's binding cookie (on https: the
 * `__Host-` one); then the token is checked with itch.io, and the verified login waits under its
 * state until it is handed over (`hand-over.ts`).
 */
import { popupStateOfBinding, sha256Base64url } from '../../core/state.js';
import { errorResponse, jsonResponse, refusalOf } from '../http/answers.js';
import { isLoopbackOrigin } from '../http/own-origin.js';
import { clearBindingCookie, readBinding } from './binding-cookie.js';
import { MAX_WAITING_PER_USER } from './relay.js';
import { accountOf, type StepContext } from './step-context.js';

/** Takes the callback page's token: checked with itch.io, stored for the opener that started the login in this browser. */
export async function deposit(context: StepContext, request: Request, own: string, token: string, state: string): Promise<Response> {
  const { options, mayOpen } = context;
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
    // itch.io could not be asked: nothing is stored, and the capture's retry may deposit again.
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
