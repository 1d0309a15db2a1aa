/*
 * itch.io is asked about a token once: checks of one token under way at the same time share one
 * call, and a token itch.io refused is refused again from memory for a minute. Tokens are kept by
 * their SHA-256 only, so this memory never holds one.
 */
import { sha256Base64url } from '../../core/state.js';
import { boundedCache } from '../bounded-cache.js';

/** How many refused tokens are remembered at most (some hundred kilobytes). */
export const MAX_REFUSED = 10_000;
/**
 * How long a refused token is remembered. A token itch.io refuses (unknown, expired, revoked, of
 * another application, short of a scope) never becomes good; a short time keeps the memory small
 * and bounds what a mistaken refusal costs.
 */
export const REFUSED_TTL_MS = 60_000;

export interface TokenChecks<Outcome> {
  /**
   * The outcome of `ask` for `token`: joined to a check of the same token under way, or a refusal
   * remembered (`asked: false`), else asked now (`asked: true`).
   */
  check(token: string, ask: () => Promise<Outcome>): Promise<{ outcome: Outcome; asked: boolean }>;
}

/**
 * @param refused whether an outcome is a refusal to remember (a refusal that may change, such as
 *   "does not own the game", is not).
 */
export function tokenChecks<Outcome>(refused: (outcome: Outcome) => boolean): TokenChecks<Outcome> {
  const remembered = boundedCache<Outcome>(MAX_REFUSED, REFUSED_TTL_MS);
  // At most one entry per check under way: as many as the calls itch.io is being asked at once.
  const underWay = new Map<string, Promise<Outcome>>();
  return {
    async check(token, ask) {
      const key = await sha256Base64url(token);
      const known = remembered.get(key) ?? underWay.get(key);
      if (known !== undefined) return { outcome: await known, asked: false };
      const asking = ask();
      underWay.set(key, asking);
      try {
        const outcome = await asking;
        if (refused(outcome)) remembered.set(key, outcome);
        return { outcome, asked: true };
      } finally {
        underWay.delete(key);
      }
    },
  };
}
