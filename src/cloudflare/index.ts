/*
 * The token handler's and the sessions' store on Cloudflare Workers: Durable Objects that hold
 * the popup relay's logins under way and the sessions' revocation list, each entry until its
 * expiry (./expiry-index.ts), keys spread over several objects (./shards.ts), and an unstorage
 * `Storage` over them that every Worker instance shares (./durable-object-store.ts).
 *
 * Why a Durable Object: a popup login waits on the server until the page that opened the popup
 * collects it, the first deposit must win and the outcome be collected once. Workers KV is
 * eventually consistent (about 60 s) and has no atomic create; a Durable Object is one
 * single-threaded instance beside strongly consistent storage, so its "set if absent" is exact.
 * @see https://developers.cloudflare.com/durable-objects/
 * @see https://developers.cloudflare.com/kv/concepts/how-kv-works/
 */
import { deleteExpired, putExpiring, putUntil } from './expiry-index.js';
import { Waiters } from './waiters.js';
import { BATCH, type DurableObjectStateLike, type DurableObjectStorageLike, type Entry, type Operation } from './operations.js';

export { durableObjectStore } from './durable-object-store.js';
export type { DurableObjectNamespaceLike, DurableObjectStateLike, DurableObjectStorageLike } from './operations.js';

/** The store's keys: values under `v:`, the relay's set-if-absent claims under `c:`. */
const VALUE = 'v:';
const CLAIM = 'c:';

/**
 * The Durable Object that holds the store. Export it from your Worker and bind it in
 * `wrangler.jsonc` (`durable_objects.bindings` with `"class_name": "ItchOAuthStore"`, and a
 * migration with `new_sqlite_classes`); give `durableObjectStore(env.ITCH_OAUTH_STORE)` to
 * `createTokenHandler({ store })` and `createSessions({ store })`, which spreads keys over 16
 * objects of the class. An entry with a TTL is gone once it expires (read as absent at once,
 * deleted by the object's alarm, which reads what is due only). A whole Worker, with its
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
      case 'getMany': {
        // One read of storage for them all (a collection's login and notice), 128 keys at most.
        const keys = operation.keys.map((key) => VALUE + key);
        const entries = new Map<string, Entry>();
        for (let at = 0; at < keys.length; at += BATCH)
          for (const found of await storage.get<Entry>(keys.slice(at, at + BATCH))) entries.set(...found);
        return keys.map((key) => {
          const entry = entries.get(key);
          return live(entry) ? entry!.value : null;
        });
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
      case 'increment': {
        // Atomic for the same reason: the rate limits' counts, shared by every Worker instance.
        const entry = await storage.get<Entry>(VALUE + operation.key);
        const had = live(entry) && typeof entry!.value === 'number' ? (entry!.value as number) : undefined;
        if (operation.by < 0 && had === undefined) return 0;
        const count = Math.max(0, (had ?? 0) + operation.by);
        await putUntil(
          storage,
          VALUE + operation.key,
          count,
          had === undefined ? Math.ceil(operation.until) : (entry!.expires ?? Math.ceil(operation.until)),
        );
        return count;
      }
      case 'remove':
        await storage.delete([VALUE + operation.key, CLAIM + operation.key]);
        return this.#waiters.written(operation.key);
      case 'keys': {
        const entries = await storage.list<Entry>({ prefix: VALUE + operation.prefix });
        return [...entries].filter(([, entry]) => live(entry)).map(([key]) => key.slice(VALUE.length));
      }
      case 'clear': {
        const keys = [...(await storage.list({ prefix: VALUE + operation.prefix })).keys()];
        for (let at = 0; at < keys.length; at += BATCH) await storage.delete(keys.slice(at, at + BATCH));
        return null;
      }
      case 'mark':
        return this.#waiters.mark();
      case 'wait':
        return this.#waiters.wait(operation.keys, operation.mark, operation.ms);
    }
  }

  async #put(key: string, value: unknown, ttl: number | undefined): Promise<null> {
    await putExpiring(this.#storage, key, value, ttl);
    return null;
  }

  /** Deletes what has expired (from the expiry index: the due entries only), and wakes again at the next expiry. */
  async alarm(): Promise<void> {
    await deleteExpired(this.#storage);
  }
}
