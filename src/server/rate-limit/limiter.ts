/*
 * The token handler's rate limits: per client (by `clientAddress`) on each kind of request, on
 * the token checks itch.io has not accepted, and for all clients together on the calls to itch.io.
 * The numbers and their reasons are in options.ts; where the counts live in counters.ts and
 * store-counters.ts.
 */
import { errorResponse } from '../http/answers.js';
import type { FetchFunction } from '../itch-api/request.js';
import { clientKey, type ClientAddress } from './client-address.js';
import type { Counters } from './counters.js';
import type { RateLimits } from './options.js';

/** The kinds of request limited per client (the names of their limits). */
export type LimitedRoute = 'tokens' | 'popupStarts' | 'popupCollections';

const MINUTE_MS = 60_000;
/** How long a call to itch.io may wait for room under the ceiling. */
export const CEILING_WAIT_MS = 5000;

/**
 * One token check a request may make with itch.io, taken from its client's `unverifiedTokens`
 * before anything else is done: given back when the request ends, unless itch.io refused the
 * token when this request asked it ({@link CheckTicket.refused}).
 */
export interface CheckTicket {
  /** itch.io refused the token when this request asked: the check counts against its client. */
  refused(): void;
}

/** itch.io was not asked: this site is at its `itchCallsPerSecond`. */
export class ItchCeilingReached extends Error {
  override name = 'ItchCeilingReached';
}

export interface Limiter {
  /**
   * Counts a request of `route` against its client's limit (for `tokens`, also takes its
   * {@link CheckTicket}): `undefined` to go on, or the 429 that refuses it.
   */
  admit(request: Request, route: LimitedRoute): Promise<Response | undefined>;
  /** The ticket `admit` took for this request, if any. */
  ticket(request: Request): CheckTicket | undefined;
  /** Gives back what the request took and did not spend (call when its answer is made). */
  settle(request: Request): Promise<void>;
  /** `fetch` (or the global one), within `itchCallsPerSecond`: over it, rejects with {@link ItchCeilingReached}. */
  itchFetch(fetch: FetchFunction | undefined): FetchFunction;
}

/** Refuses a request over a per-client limit: 429, `Retry-After`, and the code the browser reports. */
export function tooManyRequests(retryAfterS: number): Response {
  return errorResponse(429, `too many requests from this address: try again in ${retryAfterS} s`, 'service_unavailable', {
    'Retry-After': String(retryAfterS),
  });
}

interface Held {
  key: string;
  until: number;
  refused: boolean;
}

/**
 * @param counters where the counts that protect itch.io live (tokens to check, those not accepted,
 *   the calls): the store's, shared by every instance, when there is one.
 * @param local where the counts of the requests that ask itch.io nothing live (popup start pages,
 *   bindings, collections): this instance's memory. Counting one in a shared store would cost the
 *   store a request for every request it limits, as much as the request itself costs it.
 */
export function createLimiter(limits: RateLimits, counters: Counters, local: Counters, clientAddress: ClientAddress | undefined): Limiter {
  const held = new WeakMap<Request, Held>();
  /** The count of `name` for this minute: its key, its end, and the count after `by`. */
  const count = async (name: string, by: number, where = counters, now = Date.now()) => {
    const until = (Math.floor(now / MINUTE_MS) + 1) * MINUTE_MS;
    const key = `${name}:${Math.floor(now / MINUTE_MS)}`;
    return { key, until, count: await where.add(key, by, until) };
  };
  const retryAfter = (until: number) => Math.max(1, Math.ceil((until - Date.now()) / 1000));

  return {
    async admit(request, route) {
      const limit = limits[route];
      const client = clientAddress === undefined ? undefined : clientKey(clientAddress(request));
      if (client === undefined) return undefined;
      if (limit !== Infinity) {
        const requests = await count(`${route}:${client}`, 1, route === 'tokens' ? counters : local);
        if (requests.count > limit) return tooManyRequests(retryAfter(requests.until));
      }
      if (route !== 'tokens' || limits.unverifiedTokens === Infinity) return undefined;
      const checks = await count(`unverified:${client}`, 1);
      if (checks.count > limits.unverifiedTokens) {
        await counters.add(checks.key, -1, checks.until);
        return tooManyRequests(retryAfter(checks.until));
      }
      held.set(request, { key: checks.key, until: checks.until, refused: false });
      return undefined;
    },
    ticket(request) {
      const ticket = held.get(request);
      return ticket === undefined ? undefined : { refused: () => void (ticket.refused = true) };
    },
    async settle(request) {
      const ticket = held.get(request);
      held.delete(request);
      if (ticket !== undefined && !ticket.refused) await counters.add(ticket.key, -1, ticket.until);
    },
    itchFetch(fetch) {
      const ceiling = limits.itchCallsPerSecond;
      if (ceiling === Infinity) return (...args) => (fetch ?? globalThis.fetch)(...args);
      /**
       * Whether a call fits this second's ceiling (counted); else how long until the next second.
       * A count that ends in a later second than it began (a busy process, a store's round trip)
       * is made again in that second: the call is made in the second it was counted in.
       */
      const fits = async (): Promise<number> => {
        for (;;) {
          const second = Math.floor(Date.now() / 1000);
          const calls = await counters.add(`itch:${second}`, 1, (second + 1) * 1000);
          const now = Date.now();
          if (Math.floor(now / 1000) === second) return calls <= ceiling ? 0 : (second + 1) * 1000 - now;
        }
      };
      return async (...args) => {
        // Over the ceiling: the call waits for a later second, a few at most (a burst of honest
        // logins spreads over them); past that, it is not made.
        const given = Date.now() + CEILING_WAIT_MS;
        for (let wait = await fits(); wait > 0; wait = await fits()) {
          if (Date.now() + wait > given)
            throw new ItchCeilingReached(`itch.io is asked at most ${ceiling} times a second (rateLimit.itchCallsPerSecond)`);
          await new Promise((resolve) => setTimeout(resolve, wait));
        }
        return (fetch ?? globalThis.fetch)(...args);
      };
    },
  };
}
