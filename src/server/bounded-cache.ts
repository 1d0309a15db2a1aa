/*
 * A least-recently-used cache of at most `max` entries, each expiring `ttlMs` after it was last
 * set (0: never): what the server keeps in memory (the default popup store, the verified cache).
 * A Map, whose iteration order is its insertion order, so its first key is the least recently
 * used one: a read moves its key to the end, a write past `max` drops the first. No number of
 * writes grows it past `max` entries; a key is any string (`__proto__` too: a Map has no
 * prototype keys).
 * @see https://tc39.es/ecma262/#sec-map-objects
 */
export interface BoundedCache<Value> {
  get(key: string): Value | undefined;
  has(key: string): boolean;
  set(key: string, value: Value): void;
  delete(key: string): void;
  clear(): void;
  /** The keys not expired, least recently used first. */
  keys(): string[];
}

export function boundedCache<Value>(max: number, ttlMs = 0): BoundedCache<Value> {
  const entries = new Map<string, { value: Value; until: number }>();
  const live = (key: string) => {
    const entry = entries.get(key);
    if (entry && ttlMs && entry.until <= Date.now()) entries.delete(key);
    else return entry;
  };
  return {
    get(key) {
      const entry = live(key);
      if (entry === undefined) return undefined;
      entries.delete(key);
      entries.set(key, entry);
      return entry.value;
    },
    has: (key) => live(key) !== undefined,
    set(key, value) {
      entries.delete(key);
      entries.set(key, { value, until: Date.now() + ttlMs });
      for (const oldest of entries.keys()) {
        if (entries.size <= max) break;
        entries.delete(oldest);
      }
    },
    delete: (key) => void entries.delete(key),
    clear: () => entries.clear(),
    keys: () => [...entries.keys()].filter((key) => live(key) !== undefined),
  };
}
