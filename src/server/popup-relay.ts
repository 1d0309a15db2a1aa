/*
 * The popup relay of `createTokenHandler`: how a login made in a popup reaches the page that
 * opened it when the two cannot talk (a game framed on another site, whose storage is
 * partitioned; an authorization page that severs `window.opener`).
 *
 * 1. The opener makes a secret `verifier` (256 random bits) and starts the login with
 *    `state = "p." + base64url(SHA-256(verifier))`. The verifier never leaves the opener's memory
 *    until step 3: it is in no URL and no storage.
 * 2. The popup's capture POSTs `{"access_token", "state"}`. The handler checks the token with
 *    itch.io, keeps the outcome (the user, or why the token was refused) in the store under the
 *    state for a few minutes, first deposit wins, and answers 202. `onLogin` is not called.
 * 3. The opener POSTs `{"popup_verifier"}` about once a second. The handler hashes it, takes the
 *    outcome out of the store (once) and only then calls `onLogin`, with this request, so that a
 *    session cookie or token goes to the page that started the login; until then it answers 202
 *    `{"pending": true}`.
 *
 * Only the holder of the verifier can collect, so a callback an attacker opens with their own
 * token and any state logs no one in (RFC 6749 section 10.12, RFC 9700 section 4.7); the token
 * stays on the server.
 */
import { createStorage, type Storage } from 'unstorage';
import lruCacheDriver from 'unstorage/drivers/lru-cache';
import { popupStateOf } from '../core/state.js';

/** How long a popup outcome waits to be collected. */
export const POPUP_OUTCOME_TTL_S = 5 * 60;

/** `p.` and the base64url SHA-256 of a verifier: the state of a popup login. */
export const POPUP_STATE = /^p\.[A-Za-z0-9_-]{43}$/;
/** 32 random bytes, base64url without padding. */
export const POPUP_VERIFIER = /^[A-Za-z0-9_-]{43}$/;

const KEY_PREFIX = 'itch-oauth:popup:';

/**
 * What waits in the store: a verified login, the answer that refused the token, or (while the
 * handler asks itch.io about the token) the mark that a deposit is being made.
 */
export type PopupOutcome =
  | { at: number; user: unknown; scopes: string[]; token: string }
  | { at: number; status: number; errors: string[] }
  | { at: number; delivering: true };

/** An in-memory store for one process: at most 10 000 outcomes, each for {@link POPUP_OUTCOME_TTL_S}. */
export function memoryPopupStore(): Storage {
  return createStorage({ driver: lruCacheDriver({ max: 10_000, ttl: POPUP_OUTCOME_TTL_S * 1000 }) });
}


export class PopupRelay {
  constructor(private readonly store: Storage) {}

  /** Whether an outcome already waits under this state. */
  async has(state: string): Promise<boolean> {
    return this.store.hasItem(KEY_PREFIX + state);
  }

  async deposit(state: string, outcome: PopupOutcome): Promise<void> {
    await this.store.setItem(KEY_PREFIX + state, outcome, { ttl: POPUP_OUTCOME_TTL_S });
  }

  /**
   * Takes out the outcome of the login whose state the verifier stands for, once: it is removed
   * before it is returned. `undefined` while there is none (or it is older than the TTL, for a
   * store that does not expire items itself); `'delivering'` while a deposit is being made (the
   * opener then waits longer for a popup it saw close: it closed after posting the token).
   */
  async collect(verifier: string): Promise<Exclude<PopupOutcome, { delivering: true }> | 'delivering' | undefined> {
    const key = KEY_PREFIX + (await popupStateOf(verifier));
    const outcome = await this.store.getItem<PopupOutcome>(key);
    if (outcome === null || typeof outcome !== 'object' || Date.now() - outcome.at > POPUP_OUTCOME_TTL_S * 1000) return undefined;
    if ('delivering' in outcome) return 'delivering';
    await this.store.removeItem(key);
    return outcome;
  }
}
