/*
 * The one atomic step the popup relay needs from its store: "set this key if it is absent", so
 * that of two deposits (or two collections) of one login, on one instance or on several, exactly
 * one goes on.
 */
import type { Storage } from 'unstorage';

/**
 * A store's atomic "set if absent, with an expiry": `set` is `true` for exactly one caller per key
 * until the key expires or is deleted, however many instances share the store. The token
 * handler's `storeSetIfAbsent` option.
 * @group Token endpoint
 */
export interface SetIfAbsent {
  /** Sets `key` for `ttlSeconds` if no one holds it: `true` for the caller that set it. */
  set(key: string, ttlSeconds: number): Promise<boolean>;
  /** Frees `key` (a deposit that failed half-way lets the capture's retry try again). */
  delete(key: string): Promise<void>;
}

/** The part of ioredis that a `SET NX` needs. */
interface RedisLike {
  set(key: string, value: string, ex: 'EX', seconds: number, nx: 'NX'): Promise<'OK' | null>;
  del(key: string): Promise<number>;
}

/** The name of `itch-oauth-widget/cloudflare`'s driver, whose `getInstance()` is its {@link SetIfAbsent}. */
export const DURABLE_OBJECT_DRIVER = 'itch-oauth-durable-object';

/**
 * The default for `store`: a `SET NX` on the Redis server when `store` is mounted on unstorage's
 * `redis` driver (every instance shares it); the Durable Object's own when `store` is
 * `durableObjectStore()`; otherwise {@link inProcessSetIfAbsent}.
 *
 * @param mount a key under which the store's relevant mount is found.
 */
export function setIfAbsentOf(store: Storage, mount: string): SetIfAbsent {
  const { driver } = store.getMount(mount);
  if (driver.name === DURABLE_OBJECT_DRIVER) return driver.getInstance!() as SetIfAbsent;
  const redis = driver.name === 'redis' ? (driver.getInstance?.() as RedisLike | undefined) : undefined;
  if (redis === undefined) return inProcessSetIfAbsent();
  const base = String((driver.options as { base?: string } | undefined)?.base ?? '').replace(/:$/, '');
  const prefixed = (key: string) => (base ? `${base}:` : '') + key;
  return {
    set: async (key, ttlSeconds) => (await redis.set(prefixed(key), '1', 'EX', ttlSeconds, 'NX')) === 'OK',
    delete: async (key) => void (await redis.del(prefixed(key))),
  };
}

/**
 * A lock in this process: exact for the in-memory store (one process) and for a store that one
 * single-threaded owner serves (a Durable Object), not across instances that share an eventually
 * consistent store.
 */
export function inProcessSetIfAbsent(): SetIfAbsent {
  const held = new Map<string, number>();
  return {
    set: async (key, ttlSeconds) => {
      const now = Date.now();
      for (const [other, until] of held) if (until < now) held.delete(other);
      if (held.has(key)) return false;
      held.set(key, now + ttlSeconds * 1000);
      return true;
    },
    delete: async (key) => void held.delete(key),
  };
}
