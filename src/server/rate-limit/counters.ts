/*
 * The counts the rate limits keep: one number per key, each living until a given time (the end
 * of its window). In this process's memory by default, bounded; in the handler's `store` when it
 * has one (see store-counters.ts).
 */

/** Counts by key, each until the end of its window. */
export interface Counters {
  /**
   * Adds `by` to `key`'s count, which lasts until `until` (ms since the epoch), and answers the
   * count after. A negative `by` gives back what was taken, and only to a count that is still
   * there: it never starts one.
   */
  add(key: string, by: number, until: number): Promise<number>;
}

/** How many counts memory holds at most: some megabytes. */
export const MAX_COUNTS = 50_000;

/**
 * Counts in this process's memory: at most `max` keys. Past that, the counts that ended go
 * first, then the oldest ones (a flood from more clients than that makes the oldest clients'
 * counts start again; the limits that count all clients together still hold).
 */
export function memoryCounters(max = MAX_COUNTS): Counters {
  const counts = new Map<string, { count: number; until: number }>();
  const add = (key: string, by: number, until: number): number => {
    const now = Date.now();
    const entry = counts.get(key);
    if (entry !== undefined && entry.until > now) return (entry.count = Math.max(0, entry.count + by));
    if (entry !== undefined) counts.delete(key);
    if (by <= 0) return 0;
    counts.set(key, { count: by, until });
    if (counts.size > max) {
      // Keys come in roughly in time order: the first ones are the ones that end first.
      for (const [other, { until: ends }] of counts) {
        if (counts.size <= max && ends > now) break;
        counts.delete(other);
      }
    }
    return by;
  };
  return { add: async (key, by, until) => add(key, by, until) };
}
