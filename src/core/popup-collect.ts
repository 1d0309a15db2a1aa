/*
 * The opener's side of a popup login after the popup opened: it asks the backend for the
 * outcome (`{ popup_verifier }`) until it comes, the popup is known to be gone, or time is up.
 * Each question asks the backend to hold it (`Prefer: wait=25`, RFC 7240) until the login
 * changes; a backend that holds says so (`Preference-Applied`) and is asked again at once, one
 * that does not is asked about once a second. What it knows about the popup, besides `closed`: when the start page asked
 * it to confirm the state, and when the start page left for itch.io (both by `postMessage`).
 */
import { COOKIES_BLOCKED, ItchOAuthError, isErrorCode, type ItchOAuthErrorCode } from './errors.js';
import { abandoned, HOLD_S, question, seenOf, type Hold } from './popup-question.js';
import { STATE_LIFETIME_MS, popupCodeOf } from './state.js';

/** How often the opener asks a backend that does not hold its questions. */
const POLL_MS = 1000;
/** Asked this often after the popup closed, until its grace is over. */
const CLOSED_POLL_MS = 300;
/**
 * After a popup that had reached itch.io closed, its outcome may still be on its way (the
 * callback page closes the popup once its deposit was answered, so one more answer suffices).
 */
const CLOSED_GRACE_MS = 1500;
/**
 * While the backend says the popup's token is being checked (`delivering`), a closed popup is
 * waited for this much longer at most (a callback page with its own COOP reads as closed as soon
 * as it loads, before its POST is answered).
 */
const DELIVERING_MAX_MS = 30_000;
/**
 * A popup that reads as closed after its start page left for an itch.io page that severs popups
 * (`Cross-Origin-Opener-Policy`: the opener then sees `closed` as soon as that page loads) may
 * not be closed: its outcome may still come, for up to {@link SEVERED_WAIT_MS}, while the caller
 * offers to cancel. When the backend could not tell whether the page severs, a close this soon
 * after leaving is taken for such a severing. A popup closed before it left (its start page told
 * nothing), or after it left for a page that keeps its opener, is closed: reported after its grace.
 */
const SEVERED_WITHIN_MS = 1500;
const SEVERED_WAIT_MS = 5 * 60 * 1000;
/**
 * A `window.open` that returned `null` from a frame may still have opened the popup (a top-level
 * page with `Cross-Origin-Opener-Policy: same-origin`, as itch.io serves cross-origin-isolated
 * games): the backend is asked this long whether the popup arrived before it counts as blocked.
 */
const ARRIVAL_WAIT_MS = 4000;
/** Consecutive failed collections (network, 5xx) before giving up. */
const MAX_FAILURES = 5;

/** What the opener learnt from the start page, by `postMessage`. */
export interface PopupProgress {
  /** When the start page asked this page to confirm the state. */
  confirmedAt?: number | undefined;
  /** When the start page said it goes on to itch.io. */
  leftAt?: number | undefined;
  /** Whether the backend found that itch.io's page severs popups (COOP); `undefined`: unknown. */
  severs?: boolean | undefined;
  /** Why the start page stopped before itch.io, when it said (`cookies_blocked`). */
  failed?: ItchOAuthErrorCode | undefined;
}

/** What collecting reports to the caller along the way. */
export interface CollectHooks {
  /** The backend asks the person to confirm a code in a popup this page cannot see (`undefined`: no more). */
  code?: ((code?: string) => void) | undefined;
  /** Whether the popup's state is hidden (severed opener), after every answer: the caller then offers to cancel. */
  waiting?: ((hidden: boolean) => void) | undefined;
  /** A DPoP proof for each collection (`gameSession()`'s key, which the answer's game token is bound to). */
  proof?: ((url: string) => Promise<string>) | undefined;
}

/** Asks the backend for the popup's outcome until it comes, the popup is gone, or time is up. */
export async function collect(
  popup: Window | null,
  backend: URL,
  verifier: string,
  state: string,
  signal: AbortSignal,
  progress: PopupProgress,
  hooks: CollectHooks,
  blocked: () => never,
): Promise<{ response: unknown; nonce?: string | null }> {
  const opened = Date.now();
  /** Whether the backend said the popup reached its start page (always known for a popup we can see). */
  let arrived = popup !== null;
  let closedAt: number | undefined;
  /** Until when a closed popup is waited for: its grace, extended while its token is being checked. */
  let waitUntil = Infinity;
  let failures = 0;
  let lastProblem = '';
  /** The backend said itch.io could not check the popup's token: the popup shows that outage. */
  let unavailable = false;
  /** How the backend is asked: to hold (with what this page read last, once it held), or not (it cannot be asked to). */
  const hold: Hold = { wait: HOLD_S, seen: undefined, refused: false, proof: hooks.proof };
  /** Severed: it could never be seen, or it read as closed after it left for an itch.io page that severs popups (or soon after, when the backend could not tell whether it does). */
  const isSevered = () =>
    popup === null ||
    (closedAt !== undefined && progress.leftAt !== undefined && (progress.severs ?? closedAt - progress.leftAt < SEVERED_WITHIN_MS));
  /** Notes when the popup reads as closed, and tells the caller whether to offer to cancel. */
  const watch = () => {
    if (closedAt === undefined && popup?.closed) {
      closedAt = Date.now();
      // Closed before it left for itch.io: no outcome but a refusal of the start page can come.
      waitUntil = closedAt + (progress.leftAt === undefined ? CLOSED_POLL_MS : CLOSED_GRACE_MS);
      hooks.waiting?.(isSevered());
    }
  };
  // What ends a held question early: the start page failing, a deadline (the popup not arriving,
  // a closed popup's grace). Not the popup closing: its outcome may be on the way in that answer.
  const interrupt = () => {
    watch();
    const limit = Math.min(arrived ? Infinity : opened + ARRIVAL_WAIT_MS, timeLimit(opened, closedAt, waitUntil, isSevered()));
    return progress.failed !== undefined || Date.now() >= limit;
  };
  for (;;) {
    watch();
    const answer = await question(backend, verifier, signal, hold, interrupt);
    let holds = false;
    let pending: Pending | null = null;
    if (answer !== 'again') {
      const body: unknown = await answer?.json().catch(() => null);
      // Aborted while the answer's body was read: the body reads as null, and a pending answer
      // (202, ok) would otherwise pass for the outcome.
      if (signal.aborted) throw abandoned();
      pending = answer?.status === 202 ? (body as Pending | null) : null;
      holds = answer?.headers.get('preference-applied') != null;
      if (answer === undefined || answer.status >= 500) {
        // Unavailable (the relay's store is down) before the popup left for itch.io: stop now,
        // before the player approves on itch.io a login that could not be collected.
        failures = answer?.status == 503 && progress.leftAt === undefined ? MAX_FAILURES : failures + 1;
        lastProblem = answer === undefined ? 'the backend could not be reached' : `the backend answered HTTP ${answer.status}`;
      } else if (pending?.pending === true) {
        failures = 0;
        // What this page read last, told to a backend that holds, which answers when it changes.
        hold.seen = holds ? seenOf(pending) : undefined;
        unavailable = pending.unavailable === true;
        if (pending.arrived === true && !arrived) {
          arrived = true;
          // A popup this page cannot see: the person ties the two together by a code.
          if (pending.confirm === true) hooks.code?.(popupCodeOf(state));
        }
        if (pending.delivering === true && closedAt !== undefined)
          waitUntil = Math.min(Date.now() + CLOSED_GRACE_MS, closedAt + DELIVERING_MAX_MS);
      } else {
        closePopup(popup);
        // A game session's (its proofs' key): with the nonce of its next proofs (RFC 9449 section 9).
        if (answer.status < 300) return { response: body, ...(hooks.proof && { nonce: answer.headers.get('dpop-nonce') }) };
        throw refusal(answer.status, body);
      }
    }
    // The backend cannot answer (down, 5xx), or the start page could not bind: the popup, maybe
    // on the browser's error page, closes.
    if (failures >= MAX_FAILURES || progress.failed !== undefined)
      await giveUp(popup, progress, failures >= MAX_FAILURES ? lastProblem : undefined);

    const now = Date.now();
    if (!arrived && now - opened > ARRIVAL_WAIT_MS) blocked();
    const severed = isSevered();
    hooks.waiting?.(severed);
    if (now > timeLimit(opened, closedAt, waitUntil, severed))
      throw timeUp(closedAt !== undefined && !severed && now > waitUntil, unavailable);
    // A backend that held the question is asked again at once, as is one interrupted or cut.
    if ((holds && pending !== null) || answer === 'again') continue;
    // Wait for the next poll, waking up early when the popup closes.
    const next = Date.now() + (closedAt !== undefined && !severed ? CLOSED_POLL_MS : arrived ? POLL_MS : CLOSED_POLL_MS);
    while (Date.now() < next && progress.failed === undefined && (closedAt !== undefined || !popup?.closed))
      await new Promise((resolve) => setTimeout(resolve, 50));
    if (signal.aborted) throw abandoned();
  }
}

/** What the backend's 202 says of a popup login that has no outcome yet. */
interface Pending {
  pending?: unknown;
  delivering?: unknown;
  arrived?: unknown;
  confirm?: unknown;
  unavailable?: unknown;
}

/** Until when a popup login is waited for: a closed popup's grace, a severed one's wait, the state's lifetime. */
function timeLimit(opened: number, closedAt: number | undefined, waitUntil: number, severed: boolean): number {
  if (closedAt !== undefined && !severed) return Math.min(waitUntil, opened + STATE_LIFETIME_MS);
  return opened + (severed ? SEVERED_WAIT_MS : STATE_LIFETIME_MS);
}

/** Why a login is given up when its time is up: its popup closed (in an outage of itch.io, or not), or nothing came. */
function timeUp(closed: boolean, unavailable: boolean): ItchOAuthError {
  if (!closed) return new ItchOAuthError('popup_closed', 'no login arrived in time');
  return unavailable
    ? new ItchOAuthError('service_unavailable', 'itch.io could not check the login, and its window was closed')
    : new ItchOAuthError('popup_closed', 'the itch.io window was closed');
}

/** Closes the popup and throws why: the backend cannot answer (`problem`), or the start page could not bind. */
async function giveUp(popup: Window | null, progress: PopupProgress, problem: string | undefined): Promise<never> {
  await closeOnceAsked(popup, progress);
  if (problem !== undefined) throw new ItchOAuthError('service_unavailable', `${problem}; the login could not be collected`);
  // (Said by the popup's start page: the player's words, as nothing there is for a developer to fix.)
  throw new ItchOAuthError(progress.failed!, COOKIES_BLOCKED);
}

/** The backend's refusal (4xx) as the error the login rejects with. */
function refusal(status: number, body: unknown): ItchOAuthError {
  const { errors, code } = (body ?? {}) as { errors?: unknown; code?: unknown };
  const why = Array.isArray(errors) ? errors.join('; ') : `HTTP ${status}`;
  // The token endpoint may name an error code (`not_owner`, `popup_unverified`, …).
  return new ItchOAuthError(isErrorCode(code) ? code : 'backend_rejected', `the backend refused the login: ${why}`);
}

/**
 * Closes the popup once its start page has asked this page to confirm the state, or after a
 * second: a popup closed while its first page loaded was seen to read as closed yet stay open on
 * that page (Chromium: the store down, a login cancelled at once).
 */
export async function closeOnceAsked(popup: Window | null, progress: PopupProgress): Promise<void> {
  for (let wait = 20; wait-- && progress.confirmedAt === undefined && popup?.closed === false;)
    await new Promise((resolve) => setTimeout(resolve, 50));
  closePopup(popup);
}

/** Closes the popup if this page can still reach it. */
export function closePopup(popup: Window | null): void {
  try {
    if (popup && !popup.closed) popup.close();
  } catch {
    // A severed popup cannot be reached.
  }
}
