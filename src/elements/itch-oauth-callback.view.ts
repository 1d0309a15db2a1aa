/*
 * What <itch-oauth-callback> shows for the outcome its document's capture left (see
 * itch-oauth-callback.ts): the view, and when the document is ready for its events.
 */
import type { CaptureOutcome } from '../capture/outcome.js';
import { BACKEND_REJECTED, ERROR_CODES, isErrorCode, type ItchOAuthErrorCode } from '../core/errors.js';
import type { FlowRecord } from '../core/state.js';
import type { WidgetMessages } from '../i18n/catalogue.js';
import { documentProperty, listenOnDocument } from '../core/page-document.js';

/**
 * What to do next, said in a popup whose login ended here because the game that opened it could
 * not be told (an authorization page severed the popup from its opener), by the key of its
 * message. Nothing in that window goes on: its one control is Close.
 */
const POPUP_NEXT_STEPS: Partial<Record<ItchOAuthErrorCode, keyof WidgetMessages>> = {
  not_owner: 'next_not_owner',
  backend_rejected: 'next_backend_rejected',
  network_error: 'next_network_error',
};

/**
 * Whether the browser refuses this site's storage (cookies and site data blocked): reading
 * `sessionStorage` then throws, so the capture could neither check the state nor leave an outcome.
 */
export function storageBlocked(): boolean {
  try {
    return !sessionStorage;
  } catch {
    return true;
  }
}

/**
 * What the element shows: no login (a reload of the callback page: its words and a link back), a
 * new attempt starting, the success, or the failure (with, in a popup whose login ended here, the
 * key of what to do next; `message` when a sentence other than the code's says it better).
 */
export type View =
  | { kind: 'idle' }
  | { kind: 'pending' }
  | { kind: 'success'; response: unknown; flow: FlowRecord | undefined }
  | {
      kind: 'error';
      code: ItchOAuthErrorCode;
      flow: FlowRecord | undefined;
      popup?: keyof WidgetMessages | '' | undefined;
      message?: keyof WidgetMessages | undefined;
    };

/**
 * The view of an outcome (none: idle, or `cookies_blocked` when the browser refuses the storage
 * the capture needed to leave one).
 */
export function viewOf(outcome: CaptureOutcome | undefined, blocked = storageBlocked()): View {
  if (!outcome) return blocked ? { kind: 'error', code: 'cookies_blocked', flow: undefined } : { kind: 'idle' };
  const flow = typeof outcome.flow === 'object' && outcome.flow !== null ? outcome.flow : undefined;
  if (outcome.code === undefined) return { kind: 'success', response: outcome.response, flow };
  // A popup login's capture keeps no flow (0): a redirect login's has its record or a problem (> 0).
  const code = refinedCode(outcome) ?? ERROR_CODES[outcome.code] ?? 'invalid_response';
  const next = POPUP_NEXT_STEPS[code] ?? '';
  // An unknown or used state: most often the same answer opened again in another tab, after the
  // tab (or the popup) that started the login used it; else a link someone else made. (A popup
  // login's, whose state only the token endpoint knows, is refused as not started in this browser,
  // or, its login having an outcome already, 409: see the capture.) This document cannot tell
  // which, nor whether a login went through, so the words say what such a link does and never
  // that the player is logged in; in a popup's window, with Close.
  const message = code == 'state_mismatch' ? 'state_used' : undefined;
  return { kind: 'error', code, flow, popup: outcome.flow === 0 ? next : undefined, message };
}

/**
 * The contract's code a refusing backend named (`{ "errors": [...], "code": "not_owner" }`):
 * more precise than `backend_rejected`. createTokenHandler names one for a popup login that was
 * not started in this browser (`state_mismatch`) and a user who does not own the game (`not_owner`).
 */
function refinedCode(outcome: CaptureOutcome): ItchOAuthErrorCode | undefined {
  const code = (outcome.response as { code?: unknown } | null | undefined)?.code;
  return outcome.code === BACKEND_REJECTED && isErrorCode(code) && code !== 'timeout' ? code : undefined;
}

/**
 * Resolves once the document is parsed, so listeners anywhere in the markup (inline scripts and
 * module scripts after the element) are in place. While `readyState` is `interactive` the
 * document may or may not have fired DOMContentLoaded yet, so the first of it and `load` counts.
 */
export function whenParsed(): Promise<void> {
  return new Promise((resolve) => {
    if (documentProperty('readyState') === 'complete') return queueMicrotask(resolve);
    const done = () => {
      listenOnDocument('DOMContentLoaded', done, true);
      removeEventListener('load', done);
      resolve();
    };
    listenOnDocument('DOMContentLoaded', done);
    addEventListener('load', done);
  });
}
