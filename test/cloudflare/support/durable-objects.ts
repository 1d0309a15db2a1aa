// In-process stand-ins for Cloudflare's Durable Objects, as the store uses them: a storage that
// keeps its keys in order and counts the rows it reads and writes (as Cloudflare bills a
// SQLite-backed object's key-value API: a row per key asked or listed), one alarm per object,
// and a namespace that makes an object per name on first use, runs one request at a time on each
// (as the input gate does for requests that await only storage) and counts the requests to each.
import type { DurableObjectStorageLike } from '../../../src/cloudflare/index.js';

export class MemoryStorage implements DurableObjectStorageLike {
  readonly #data = new Map<string, unknown>();
  /** The keys, in order. */
  #sorted: string[] = [];
  alarm: number | null = null;
  rowsRead = 0;
  rowsWritten = 0;

  get<T>(key: string): Promise<T | undefined>;
  get<T>(keys: string[]): Promise<Map<string, T>>;
  async get<T>(keys: string | string[]): Promise<T | undefined | Map<string, T>> {
    if (typeof keys === 'string') {
      this.rowsRead++;
      return structuredClone(this.#data.get(keys)) as T | undefined;
    }
    if (keys.length > 128) throw new RangeError('get() takes at most 128 keys');
    this.rowsRead += keys.length;
    return new Map(keys.filter((key) => this.#data.has(key)).map((key) => [key, structuredClone(this.#data.get(key)) as T]));
  }

  put<T>(key: string, value: T): Promise<void>;
  put<T>(entries: Record<string, T>): Promise<void>;
  async put<T>(key: string | Record<string, T>, value?: T): Promise<void> {
    const entries = typeof key === 'string' ? { [key]: value } : key;
    if (Object.keys(entries).length > 128) throw new RangeError('put() takes at most 128 entries');
    for (const [name, stored] of Object.entries(entries)) {
      if (!this.#data.has(name)) this.#sorted.splice(this.#at(name), 0, name);
      this.#data.set(name, structuredClone(stored));
      this.rowsWritten++;
    }
  }

  delete(key: string): Promise<boolean>;
  delete(keys: string[]): Promise<number>;
  async delete(keys: string | string[]): Promise<boolean | number> {
    const list = typeof keys === 'string' ? [keys] : keys;
    if (list.length > 128) throw new RangeError('delete() takes at most 128 keys');
    let deleted = 0;
    for (const key of list) {
      if (!this.#data.delete(key)) continue;
      this.#sorted.splice(this.#at(key), 1);
      this.rowsWritten++;
      deleted++;
    }
    return typeof keys === 'string' ? deleted === 1 : deleted;
  }

  async list<T>(options: { prefix?: string; start?: string; end?: string; limit?: number } = {}): Promise<Map<string, T>> {
    const { prefix = '', start = '', end, limit = Infinity } = options;
    const found = new Map<string, T>();
    for (let at = this.#at(start > prefix ? start : prefix); at < this.#sorted.length && found.size < limit; at++) {
      const key = this.#sorted[at]!;
      if (!key.startsWith(prefix) || (end !== undefined && key >= end)) break;
      found.set(key, structuredClone(this.#data.get(key)) as T);
    }
    this.rowsRead += found.size;
    return found;
  }

  async getAlarm(): Promise<number | null> {
    return this.alarm;
  }

  async setAlarm(scheduledTime: number): Promise<void> {
    this.alarm = scheduledTime;
  }

  /** Every key, in order, without counting a read. */
  keys(): string[] {
    return [...this.#sorted];
  }

  /** Where `key` is, or would go, in the ordered keys. */
  #at(key: string): number {
    let [low, high] = [0, this.#sorted.length];
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.#sorted[middle]! < key) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

/** What a store's Durable Object class offers its runtime. */
export interface StoreObject {
  fetch(request: Request): Promise<Response>;
  alarm(): Promise<void>;
}
export type StoreClass = new (state: { storage: MemoryStorage }, env?: unknown) => StoreObject;

/** A namespace of `Store` objects, each made on its first request, with what each was asked. */
export function memoryNamespace(Store: StoreClass) {
  const objects = new Map<string, { object: StoreObject; storage: MemoryStorage; queue: Promise<unknown> }>();
  /** Each request, in order: the object's name and the operation it carried. */
  const requests: { name: string; operation: { op: string; key?: string; keys?: string[] } }[] = [];
  const objectOf = (name: string) => {
    let found = objects.get(name);
    if (found === undefined) {
      const storage = new MemoryStorage();
      found = { object: new Store({ storage }), storage, queue: Promise.resolve() };
      objects.set(name, found);
    }
    return found;
  };
  return {
    objects,
    requests,
    idFromName: (name: string) => ({ name }),
    get: (id: never) => ({
      fetch: async (input: string, init?: RequestInit) => {
        const { name } = id as { name: string };
        requests.push({ name, operation: JSON.parse(String(init?.body)) });
        // One request at a time per object: what a Durable Object's input gate guarantees of
        // requests that await only its storage, as the store's do.
        const found = objectOf(name);
        const answer = found.queue.then(() => found.object.fetch(new Request(input, init)));
        found.queue = answer.catch(() => undefined);
        return answer;
      },
    }),
    /** Runs the alarm of every object whose alarm is due (as the runtime does, clearing it first). */
    async runAlarms(now = Date.now()): Promise<number> {
      let ran = 0;
      for (const { object, storage } of objects.values()) {
        if (storage.alarm === null || storage.alarm > now) continue;
        storage.alarm = null;
        await object.alarm();
        ran++;
      }
      return ran;
    },
    rowsRead: () => [...objects.values()].reduce((sum, { storage }) => sum + storage.rowsRead, 0),
  };
}
