import type { FlowRecord } from '../core/state.js';

/** sessionStorage key under which the capture leaves the outcome for the clean callback document. */
export const OUTCOME_KEY = 'itch-oauth:outcome';

/**
 * What the capture hands to `<itch-oauth-callback>` in the clean document. It never holds the
 * token: only what the page may show (the token endpoint's answer, or an error code), and the flow
 * (client id, scopes, return-to) so that the element can return the user or start a fresh login.
 */
export interface CaptureOutcome {
  /** The error as its index in `ERROR_CODES`, absent on success. */
  code?: number | undefined;
  /** The token endpoint's JSON answer: on success, and on a refusal (whose `code` may name the error). */
  response?: unknown;
  /** The flow, or the state problem (a code index) when there was none. */
  flow: FlowRecord | number;
}

/**
 * Takes the outcome left by the capture in sessionStorage (once: it is deleted), or `undefined` if
 * there is none or the browser refuses the storage.
 */
export function takeOutcome(): CaptureOutcome | undefined {
  try {
    const raw = sessionStorage.getItem(OUTCOME_KEY);
    sessionStorage.removeItem(OUTCOME_KEY);
    return raw === null ? undefined : (JSON.parse(raw) as CaptureOutcome);
  } catch {
    return undefined;
  }
}
