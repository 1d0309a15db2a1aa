/*
 * The token handler's and the sessions' store on Cloudflare Workers: one Durable Object that
 * holds the popup relay's logins under way and the sessions' revocation list, each entry until
 * its expiry, and an unstorage `Storage` over it that every Worker instance shares.
 *
 * Why a Durable Object: a popup login waits on the server until the page that opened the popup
 * collects it, the first deposit must win and the outcome be collected once. Workers KV is
 * eventually consistent (about 60 s) and has no atomic create; a Durable Object is one
 * single-threaded instance beside strongly consistent storage, so its "set if absent" is exact.
 * @see https://developers.cloudflare.com/durable-objects/
 * @see https://developers.cloudflare.com/kv/concepts/how-kv-works/
 */
import { createStorage, defineDriver, type Storage } from 'unstorage';
import { DURABLE_OBJECT_DRIVER, type SetIfAbsent } from '../server/popup/set-if-absent.js';
import type { DurableObjectWaits } from '../server/popup/wake.js';
import { Waiters } from './waiters.js';

/** The part of a Durable Object's storage the store uses (Cloudflare's `DurableObjectStorage`). */
export interface DurableObjectStorageLike {
  get<T = unknown>(key: string): Promise<T | undefined>;
  put<T>(key: string, value: T): Promise<void>;
  delete(key: string): Promise<boolean>;
  list<T = unknown>(options?: { prefix?: string }): Promise<Map<string, T>>;
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
interface Entry {
  value: unknown;
  expires: number | null;
}

/** What a Worker asks the store, as the JSON body of a POST (one request per operation). */
type Operation =
  | { op: 'get'; key: string }
  | { op: 'set'; key: string; value: unknown; ttl?: number | undefined }
  | { op: 'setIfAbsent'; key: string; ttl: number }
  | { op: 'remove'; key: string }
  | { op: 'keys'; prefix: string }
  | { op: 'clear'; prefix: string }
  // A held popup collection's wake-ups (see waiters.ts).
  | { op: 'mark' }
  | { op: 'wait'; keys: string[]; mark: string; ms: number };

/** The store's keys: values under `v:`, the relay's set-if-absent claims under `c:`. */
const VALUE = 'v:';
const CLAIM = 'c:';

/**
 * The Durable Object that holds the store. Export it from your Worker and bind it in
 * `wrangler.jsonc` (`durable_objects.bindings` with `"class_name": "ItchOAuthStore"`, and a
 * migration with `new_sqlite_classes`); give `durableObjectStore(env.ITCH_OAUTH_STORE)` to
 * `createTokenHandler({ store })` and `createSessions({ store })`. An entry with a TTL is gone once
 * it expires (read as absent at once, deleted by the object's alarm). A whole Worker, with its
 * `wrangler.jsonc`: `examples/cloudflare-worker`, explained in docs/guides/cloudflare-workers.md.
 *
 * @example
 * export { ItchOAuthStore } from 'itch-oauth-widget/cloudflare';
 */
export class ItchOAuthStore {
  readonly #storage: DurableObjectStorageLike;
  readonly #waiters = new Waiters();

  constructor(state: DurableObjectStateLike, _env?: unknown) {
    this.#storage = state.storage;
  }

  /** One operation (see `durableObjectStore`): 200 with its JSON result. */
  async fetch(request: Request): Promise<Response> {
    const operation = (await request.json()) as Operation;
    return Response.json({ result: (await this.#run(operation)) ?? null });
  }

  async #run(operation: Operation): Promise<unknown> {
    const storage = this.#storage;
    const now = Date.now();
    const live = (entry: Entry | undefined) => entry !== undefined && (entry.expires === null || entry.expires > now);
    switch (operation.op) {
      case 'get': {
        const entry = await storage.get<Entry>(VALUE + operation.key);
        return live(entry) ? entry!.value : null;
      }
      case 'set':
        await this.#put(VALUE + operation.key, operation.value, operation.ttl);
        return this.#waiters.written(operation.key);
      case 'setIfAbsent': {
        // Exact: no other request reaches the object between this read and this write (a
        // Durable Object's input gate, https://blog.cloudflare.com/durable-objects-easy-fast-correct-choose-three/).
        if (live(await storage.get<Entry>(CLAIM + operation.key))) return false;
        await this.#put(CLAIM + operation.key, true, operation.ttl);
        return true;
      }
      case 'remove':
        await storage.delete(VALUE + operation.key);
        await storage.delete(CLAIM + operation.key);
        return this.#waiters.written(operation.key);
      case 'keys': {
        const entries = await storage.list<Entry>({ prefix: VALUE + operation.prefix });
        return [...entries].filter(([, entry]) => live(entry)).map(([key]) => key.slice(VALUE.length));
      }
      case 'clear':
        for (const key of (await storage.list({ prefix: VALUE + operation.prefix })).keys()) await storage.delete(key);
        return null;
      case 'mark':
        return this.#waiters.mark();
      case 'wait':
        return this.#waiters.wait(operation.keys, operation.mark, operation.ms);
    }
  }

  async #put(key: string, value: unknown, ttl: number | undefined): Promise<null> {
    const expires = ttl === undefined || !(ttl > 0) ? null : Date.now() + ttl * 1000;
    await this.#storage.put<Entry>(key, { value, expires });
    if (expires !== null) {
      const alarm = await this.#storage.getAlarm();
      if (alarm === null || alarm > expires) await this.#storage.setAlarm(expires);
    }
    return null;
  }

  /** Deletes what has expired, and wakes again at the next expiry. */
  async alarm(): Promise<void> {
    const now = Date.now();
    let next = Infinity;
    for (const [key, entry] of await this.#storage.list<Entry>()) {
      if (entry.expires === null) continue;
      if (entry.expires <= now) await this.#storage.delete(key);
      else next = Math.min(next, entry.expires);
    }
    if (next !== Infinity) await this.#storage.setAlarm(next);
  }
}

/**
 * An unstorage `Storage` over the `ItchOAuthStore` Durable Object of `namespace` (its binding,
 * e.g. `env.ITCH_OAUTH_STORE`): every Worker instance that makes one reaches the same object, so
 * the popup relay's "first deposit wins" and the sessions' "log out everywhere" hold across them.
 *
 * @param options.name which object of the namespace (default `itch-oauth`): one per app.
 * @example
 * const origin = new URL(env.PUBLIC_ORIGIN).origin; // the site as browsers see it, e.g. https://your.site
 * const store = durableObjectStore(env.ITCH_OAUTH_STORE);
 * const sessions = createSessions({ secrets: [env.SESSION_SECRET], origin, store });
 * const handleToken = createTokenHandler({ applicationId, origin, popup: true, store, onLogin: sessions.onLogin });
 */
export function durableObjectStore(namespace: DurableObjectNamespaceLike, options: { name?: string } = {}): Storage {
  if (typeof namespace?.idFromName !== 'function')
    throw new TypeError('durableObjectStore: pass the Durable Object binding of ItchOAuthStore, e.g. env.ITCH_OAUTH_STORE');
  const call = async <T>(operation: Operation, signal?: AbortSignal): Promise<T> => {
    // A stub per call: one made while another request ran cannot be used in this one (workerd
    // ties I/O objects to the request that made them), and the Storage lives across requests.
    const stub = namespace.get(namespace.idFromName(options.name ?? 'itch-oauth') as never);
    const answer = await stub.fetch('https://itch-oauth-store/', {
      method: 'POST',
      body: JSON.stringify(operation),
      signal: signal ?? null,
    });
    if (!answer.ok) throw new Error(`ItchOAuthStore answered ${answer.status}`);
    return ((await answer.json()) as { result: T }).result;
  };
  // The relay's atomic step, and the wake-ups of its held collections.
  const setIfAbsent: SetIfAbsent & DurableObjectWaits = {
    set: (key, ttl) => call<boolean>({ op: 'setIfAbsent', key, ttl }),
    delete: (key) => call<null>({ op: 'remove', key }).then(() => undefined),
    mark: () => call<string>({ op: 'mark' }),
    wait: (keys, mark, ms, signal) => call<boolean>({ op: 'wait', keys: [...keys], mark, ms }, signal),
  };
  const driver = defineDriver(() => ({
    name: DURABLE_OBJECT_DRIVER, // by which the token handler finds its atomic set-if-absent
    getInstance: () => setIfAbsent,
    hasItem: async (key: string) => (await call({ op: 'get', key })) !== null,
    getItem: (key: string) => call({ op: 'get', key }),
    setItem: (key: string, value: string, opts: { ttl?: number } = {}) =>
      call<null>({ op: 'set', key, value, ttl: opts.ttl }).then(() => undefined),
    removeItem: (key: string) => call<null>({ op: 'remove', key }).then(() => undefined),
    getKeys: (base: string) => call<string[]>({ op: 'keys', prefix: base ?? '' }),
    clear: (base: string) => call<null>({ op: 'clear', prefix: base ?? '' }).then(() => undefined),
  }));
  return createStorage({ driver: driver(undefined) });
}
