/*
 * The opener's side of a popup login after the popup opened: it asks the backend for the
 * outcome (`{ popup_verifier }`, about once a second) until it comes, the popup is known to be
 * gone, or time is up. What it knows about the popup, besides `closed`: when the start page asked
 * it to confirm the state, and when the start page left for itch.io (both by `postMessage`).
 */
import { ItchOAuthError, isErrorCode, type ItchOAuthErrorCode } from './errors.js';
import { STATE_LIFETIME_MS, popupCodeOf } from './state.js';

/** How often the opener asks the backend for the popup's outcome. */
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
  code(code: string | undefined): void;
  /** Whether the popup's state is hidden (severed opener), after every answer: the caller then offers to cancel. */
  waiting?: ((hidden: boolean) => void) | undefined;
  /** A DPoP proof for each collection (`gameSession()`'s key, which the answer's game token is bound to). */
  proof?: ((url: string) => Promise<string>) | undefined;
}

const abandoned = () => new ItchOAuthError('popup_closed', 'the login was abandoned');

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
): Promise<{ response: unknown }> {
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
  for (;;) {
    if (closedAt === undefined && popup?.closed) {
      closedAt = Date.now();
      // Closed before it left for itch.io: no outcome but a refusal of the start page can come.
      waitUntil = closedAt + (progress.leftAt === undefined ? CLOSED_POLL_MS : CLOSED_GRACE_MS);
    }
    const answer = await ask(backend, verifier, signal, hooks.proof);
    const body: unknown = await answer?.json().catch(() => null);
    // Aborted while the answer's body was read: the body reads as null, and a pending answer
    // (202, ok) would otherwise pass for the outcome.
    if (signal.aborted) throw abandoned();
    const pending = answer?.status === 202 ? (body as Pending | null) : null;
    if (answer === undefined) {
      failures++;
      lastProblem = 'the backend could not be reached';
    } else if (pending?.pending === true) {
      failures = 0;
      unavailable = pending.unavailable === true;
      if (pending.arrived === true && !arrived) {
        arrived = true;
        // A popup this page cannot see: the person ties the two together by a code.
        if (pending.confirm === true) hooks.code(popupCodeOf(state));
      }
      if (pending.delivering === true && closedAt !== undefined)
        waitUntil = Math.min(Date.now() + CLOSED_GRACE_MS, closedAt + DELIVERING_MAX_MS);
    } else if (answer.status < 300) {
      closePopup(popup);
      return { response: body };
    } else if (answer.status < 500) {
      closePopup(popup);
      throw refusal(answer.status, body);
    } else {
      failures++;
      lastProblem = `the backend answered HTTP ${answer.status}`;
      // Unavailable (the relay's store is down) before the popup left for itch.io: stop now,
      // before the player approves on itch.io a login that could not be collected.
      if (answer.status == 503 && progress.leftAt === undefined) failures = MAX_FAILURES;
    }
    // The backend cannot answer (down, 5xx), or the start page could not bind: the popup, maybe
    // on the browser's error page, closes.
    if (failures >= MAX_FAILURES || progress.failed !== undefined) {
      // A popup closed while its first page loaded was seen to read as closed yet stay open on its
      // start page (Chromium, the store down): that page is given a second to ask this one first.
      for (let wait = 20; wait-- && progress.confirmedAt === undefined && popup?.closed === false;)
        await new Promise((resolve) => setTimeout(resolve, 50));
      closePopup(popup);
      if (failures >= MAX_FAILURES) throw new ItchOAuthError('service_unavailable', `${lastProblem}; the login could not be collected`);
      throw new ItchOAuthError(progress.failed!, "the browser refuses the cookies the login needs (said by the popup's start page)");
    }

    const now = Date.now();
    if (!arrived && now - opened > ARRIVAL_WAIT_MS) blocked();
    // Severed: it could never be seen, or it read as closed after it left for an itch.io page
    // that severs popups (or soon after, when the backend could not tell whether it does).
    const { leftAt, severs } = progress;
    const severed = popup === null || (closedAt !== undefined && leftAt !== undefined && (severs ?? closedAt - leftAt < SEVERED_WITHIN_MS));
    hooks.waiting?.(severed);
    if (closedAt !== undefined && !severed && now > waitUntil) {
      if (unavailable) throw new ItchOAuthError('service_unavailable', 'itch.io could not check the login, and its window was closed');
      throw new ItchOAuthError('popup_closed', 'the itch.io window was closed');
    }
    if ((severed && now - opened > SEVERED_WAIT_MS) || now - opened > STATE_LIFETIME_MS) {
      throw new ItchOAuthError('popup_closed', 'no login arrived in time');
    }
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

/** One question to the backend: its answer, or `undefined` when it could not be asked. */
async function ask(backend: URL, verifier: string, signal: AbortSignal, proof: CollectHooks['proof']): Promise<Response | undefined> {
  try {
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    if (proof) headers.DPoP = await proof(backend.href);
    return await fetch(backend, {
      method: 'POST',
      headers,
      body: JSON.stringify({ popup_verifier: verifier }),
      credentials: 'same-origin',
      cache: 'no-store',
      redirect: 'error',
      referrerPolicy: 'no-referrer',
      signal,
    });
  } catch {
    if (signal.aborted) throw abandoned();
    return undefined;
  }
}

/** The backend's refusal (4xx) as the error the login rejects with. */
function refusal(status: number, body: unknown): ItchOAuthError {
  const { errors, code } = (body ?? {}) as { errors?: unknown; code?: unknown };
  const why = Array.isArray(errors) ? errors.join('; ') : `HTTP ${status}`;
  // The token endpoint may name an error code (`not_owner`, `popup_unverified`, …).
  return new ItchOAuthError(isErrorCode(code) ? code : 'backend_rejected', `the backend refused the login: ${why}`);
}

/** Closes the popup if this page can still reach it. */
export function closePopup(popup: Window | null): void {
  try {
    if (popup && !popup.closed) popup.close();
  } catch {
    // A severed popup cannot be reached.
  }
}
