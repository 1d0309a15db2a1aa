/*
 * Step 4 of a popup login, the hand-over: where a login is handed to the page that opened the
 * popup. That page's collection (`POST {"popup_verifier"}`, held with `Prefer: wait=N`: see
 * `held-collection.ts`) gets the login only from a browser page (`Origin`), only from the origin
 * the login was bound to, and only once; `onLogin` runs then, with `startedFrom` from the binding,
 * never from this request.
 */
import { popupStateOf } from '../../core/state.js';
import { errorResponse, jsonResponse, refusalBody } from '../http/answers.js';
import { accountOf, type StepContext } from './step-context.js';

/** Answers the opener's collection: its login handed over, a refusal, or what is pending (at once, or held). */
export async function handOver(context: StepContext, request: Request, verifier: string, seen: string): Promise<Response> {
  const origin = request.headers.get('origin');
  if (origin === null)
    return errorResponse(
      403,
      'a popup login is collected only by the page that started it (a browser request with an Origin)',
      'state_mismatch',
    );
  const state = await popupStateOf(verifier);
  const { relay } = context.options;
  return context.held.collect(request, state, relay.keysOf(state), seen, () => handOverNow(context, request, origin, state));
}

/** What a collection is answered now: the login, handed over once to the origin it was bound to; or its refusal; or a pending 202. */
async function handOverNow(context: StepContext, request: Request, origin: string, state: string): Promise<Response> {
  const { options } = context;
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
