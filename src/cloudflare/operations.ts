/*
 * What the store's Worker side and its Durable Object say to each other, and the parts of
 * Cloudflare's Durable Object API they use (typed here so the package needs no
 * `@cloudflare/workers-types`).
 */

/** The part of a Durable Object's storage the store uses (Cloudflare's `DurableObjectStorage`, its key-value API). */
export interface DurableObjectStorageLike {
  get<T = unknown>(key: string): Promise<T | undefined>;
  /** At most 128 keys; the map holds those found. */
  get<T = unknown>(keys: string[]): Promise<Map<string, T>>;
  put<T>(key: string, value: T): Promise<void>;
  /** At most 128 entries, written together. */
  put<T>(entries: Record<string, T>): Promise<void>;
  delete(key: string): Promise<boolean>;
  /** At most 128 keys; how many were there. */
  delete(keys: string[]): Promise<number>;
  /** Keys in order, from `start` (included) to `end` (excluded), at most `limit`. */
  list<T = unknown>(options?: { prefix?: string; start?: string; end?: string; limit?: number }): Promise<Map<string, T>>;
  getAlarm(): Promise<number | null>;
  setAlarm(scheduledTime: number): Promise<void>;
}

/** The part of a Durable Object's state the store uses (Cloudflare's `DurableObjectState`). */
export interface DurableObjectStateLike {
  storage: DurableObjectStorageLike;
}

/** A Durable Object namespace binding (Cloudflare's `DurableObjectNamespace`), as `env.ITCH_OAUTH_STORE`. */
export interface DurableObjectNamespaceLike {
  idFromName(name: string): unknown;
  get(id: never): { fetch(input: string, init?: RequestInit): Promise<Response> };
}

/** One stored value, with when it expires (ms since the epoch; `null`: never). */
export interface Entry {
  value: unknown;
  expires: number | null;
}

/** What a Worker asks one of the store's objects, as the JSON body of a POST (one request per operation). */
export type Operation =
  | { op: 'get'; key: string }
  /** Several keys of one object at once, read from its storage in one step (`null` for each one absent). */
  | { op: 'getMany'; keys: string[] }
  | { op: 'set'; key: string; value: unknown; ttl?: number | undefined }
  | { op: 'setIfAbsent'; key: string; ttl: number }
  /** Adds `by` to a count that lasts until `until` (ms since the epoch), and answers it; a negative `by` never starts one. */
  | { op: 'increment'; key: string; by: number; until: number }
  | { op: 'remove'; key: string }
  | { op: 'keys'; prefix: string }
  | { op: 'clear'; prefix: string }
  // A held popup collection's wake-ups (see waiters.ts).
  | { op: 'mark' }
  | { op: 'wait'; keys: string[]; mark: string; ms: number };

/** Storage's batch limit: `get`, `put` and `delete` take at most 128 keys at once. */
export const BATCH = 128;
