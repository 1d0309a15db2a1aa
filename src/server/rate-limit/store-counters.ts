/*
 * The rate limits' counts in the handler's `store`, so that every instance that shares it counts
 * together: an atomic `INCRBY` on Redis (unstorage's `redis` driver, detected), the store's own
 * `increment` when its driver's instance offers one (`durableObjectStore()`'s: one request to the
 * Durable Object per count), else a read and a write.
 *
 * A store that fails is neither an open door nor a closed one: the counts go on in this
 * instance's memory, so the same limits hold per instance (a client spread over N instances gets
 * at most N times them), and a warning says so, once when the store fails and once when it
 * answers again. The store is asked again a few seconds after it failed.
 */
import type { Storage } from 'unstorage';
import { memoryCounters, type Counters } from './counters.js';

/** The prefix of the counts' keys in the store. */
export const COUNT_PREFIX = 'itch-oauth:rate:';
/** How long a count's store call may take before this instance counts alone. */
const STORE_TIMEOUT_MS = 500;
/** How long after a failure the store is left alone. */
const STORE_RETRY_MS = 5000;

/** A store driver's own atomic increment (see {@link Counters.add}). */
interface Increment {
  increment(key: string, by: number, until: number): Promise<number>;
}

/** The part of ioredis that the counts use. */
interface RedisLike {
  eval(script: string, keys: number, ...args: (string | number)[]): Promise<unknown>;
}

/**
 * Adds to a count, atomically; gives back only to a count that is still there; a new count
 * expires when its window ends, `ARGV[2]` ms from now. The time left, not the window's end: an
 * instance whose clock is behind Redis's would give an end already past, and Redis would delete
 * the count at each addition (every count would read 1).
 */
const REDIS_ADD = `
local by = tonumber(ARGV[1])
if by < 0 and redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local count = redis.call('INCRBY', KEYS[1], by)
if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return count`;

/**
 * The counts as the store keeps them, under `prefix`, shared by every instance that uses it. A
 * store that fails makes `add` reject.
 */
export function sharedCounters(store: Storage, prefix = COUNT_PREFIX): Counters {
  const { driver } = store.getMount(prefix);
  const instance = driver.getInstance?.() as Partial<Increment & RedisLike> | undefined;
  if (driver.name === 'redis' && typeof instance?.eval === 'function') {
    const redis = instance as RedisLike;
    const base = String((driver.options as { base?: string } | undefined)?.base ?? '').replace(/:$/, '');
    return {
      add: async (key, by, until) =>
        Number(await redis.eval(REDIS_ADD, 1, (base ? `${base}:` : '') + prefix + key, by, Math.max(1, Math.ceil(until - Date.now())))),
    };
  }
  if (typeof instance?.increment === 'function') {
    const increment = instance as Increment;
    return { add: (key, by, until) => increment.increment(prefix + key, by, until) };
  }
  // No atomic step: two instances' hits at once may count as one. This instance's own memory
  // (below) still counts every one of its own.
  return {
    async add(key, by, until) {
      const stored = await store.getItem<number>(prefix + key);
      const count = Math.max(0, (typeof stored === 'number' ? stored : 0) + by);
      if (by < 0 && typeof stored !== 'number') return 0;
      await store.setItem(prefix + key, count, { ttl: Math.max(1, Math.ceil((until - Date.now()) / 1000)) });
      return count;
    },
  };
}

/** Rejects after `ms` (the timer does not outlive the call). */
async function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Counts in `store`, shared by every instance, and in this instance's memory: the larger of the
 * two decides (after an outage, this instance's own count may be the larger). While the store
 * fails, memory alone (see the top of this file); `warn` is told when that starts and ends.
 */
export function storeCounters(store: Storage, warn: (message: string) => void): Counters {
  const shared = sharedCounters(store);
  const local = memoryCounters();
  let failedAt: number | undefined;
  return {
    async add(key, by, until) {
      const mine = await local.add(key, by, until);
      if (failedAt !== undefined && Date.now() - failedAt < STORE_RETRY_MS) return mine;
      try {
        const theirs = await within(shared.add(key, by, until), STORE_TIMEOUT_MS);
        if (failedAt !== undefined) warn('itch-oauth-widget: the store answers again: the rate limits count in it again');
        failedAt = undefined;
        return Math.max(mine, theirs);
      } catch (error) {
        if (failedAt === undefined)
          warn(
            `itch-oauth-widget: the store failed (${error instanceof Error ? error.name : 'unknown error'}): ` +
              'the rate limits count in this instance only until it answers',
          );
        failedAt = Date.now();
        return mine;
      }
    },
  };
}
