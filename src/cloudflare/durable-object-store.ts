/*
 * The Worker side of the store: an unstorage driver that sends each operation to the object of
 * its key's shard (./shards.ts), one request each; several keys read together (`getItems`) go
 * as one request per object; a listing asks every object.
 */
import { createStorage, defineDriver, type Storage } from 'unstorage';
import { DURABLE_OBJECT_DRIVER, type SetIfAbsent } from '../server/popup/set-if-absent.js';
import type { DurableObjectWaits } from '../server/popup/wake.js';
import type { DurableObjectNamespaceLike, Operation } from './operations.js';
import { SHARDS, shardName, shardOf } from './shards.js';

/**
 * An unstorage `Storage` over the `ItchOAuthStore` Durable Objects of `namespace` (its binding,
 * e.g. `env.ITCH_OAUTH_STORE`): every Worker instance that makes one reaches the same objects, so
 * the popup relay's "first deposit wins" and the sessions' "log out everywhere" hold across them.
 * Keys are spread over 16 objects, `<name>:0` to `<name>:15`, each key always on the same one.
 *
 * @param options.name which objects of the namespace (default `itch-oauth`): one name per app.
 * @example
 * const origin = new URL(env.PUBLIC_ORIGIN).origin; // the site as browsers see it, e.g. https://your.site
 * const store = durableObjectStore(env.ITCH_OAUTH_STORE);
 * const sessions = createSessions({ secrets: [env.SESSION_SECRET], origin, store });
 * const handleToken = createTokenHandler({ applicationId, origin, popup: true, store, onLogin: sessions.onLogin });
 */
export function durableObjectStore(namespace: DurableObjectNamespaceLike, options: { name?: string } = {}): Storage {
  if (typeof namespace?.idFromName !== 'function')
    throw new TypeError('durableObjectStore: pass the Durable Object binding of ItchOAuthStore, e.g. env.ITCH_OAUTH_STORE');
  const name = options.name ?? 'itch-oauth';
  const call = async <T>(shard: number, operation: Operation, signal: AbortSignal | null = null): Promise<T> => {
    // A stub per call: one made while another request ran cannot be used in this one (workerd
    // ties I/O objects to the request that made them), and the Storage lives across requests.
    const stub = namespace.get(namespace.idFromName(shardName(name, shard)) as never);
    const answer = await stub.fetch('https://itch-oauth-store/', { method: 'POST', body: JSON.stringify(operation), signal });
    if (!answer.ok) throw new Error(`ItchOAuthStore answered ${answer.status}`);
    return ((await answer.json()) as { result: T }).result;
  };
  const onKey = <T>(operation: Operation & { key: string }) => call<T>(shardOf(operation.key), operation);
  const everyShard = <T>(operation: Operation) => Promise.all(Array.from({ length: SHARDS }, (_, shard) => call<T>(shard, operation)));

  /** `keys`' values, one request per object that holds some of them. */
  const getItems = async (items: { key: string }[]) => {
    const byShard = new Map<number, string[]>();
    for (const { key } of items) byShard.set(shardOf(key), [...(byShard.get(shardOf(key)) ?? []), key]);
    const answers = await Promise.all(
      [...byShard].map(async ([shard, keys]) => {
        const values = await call<unknown[]>(shard, { op: 'getMany', keys });
        return keys.map((key, at) => ({ key, value: values[at] ?? null }));
      }),
    );
    return answers.flat();
  };
  const setIfAbsent: SetIfAbsent = {
    set: (key, ttl) => onKey<boolean>({ op: 'setIfAbsent', key, ttl }),
    delete: (key) => onKey<null>({ op: 'remove', key }).then(() => undefined),
  };
  const driver = defineDriver(() => ({
    name: DURABLE_OBJECT_DRIVER, // by which the token handler finds its atomic set-if-absent and its held collections' waits
    // …and the rate limits their atomic count (one request per count, on the key's object).
    getInstance: () => ({
      ...setIfAbsent,
      ...durableObjectWaits(call),
      increment: (key: string, by: number, until: number) => onKey<number>({ op: 'increment', key, by, until }),
    }),
    hasItem: async (key: string) => (await onKey({ op: 'get', key })) !== null,
    getItem: (key: string) => onKey({ op: 'get', key }),
    getItems,
    setItem: (key: string, value: string, opts: { ttl?: number } = {}) =>
      onKey<null>({ op: 'set', key, value, ttl: opts.ttl }).then(() => undefined),
    removeItem: (key: string) => onKey<null>({ op: 'remove', key }).then(() => undefined),
    getKeys: async (base: string) => (await everyShard<string[]>({ op: 'keys', prefix: base ?? '' })).flat(),
    clear: (base: string) => everyShard<null>({ op: 'clear', prefix: base ?? '' }).then(() => undefined),
  }));
  return createStorage({ driver: driver(undefined) });
}

/**
 * The waits of held popup collections (../server/popup/wake.ts), on the objects that hold their
 * keys: a mark of each, and a wait on each, answered at the first write.
 */
function durableObjectWaits(call: <T>(shard: number, operation: Operation, signal?: AbortSignal) => Promise<T>): DurableObjectWaits {
  const byShard = (keys: readonly string[]) => {
    const shards = new Map<number, string[]>();
    for (const key of keys) shards.set(shardOf(key), [...(shards.get(shardOf(key)) ?? []), key]);
    return shards;
  };
  return {
    mark: async (keys) =>
      JSON.stringify(
        Object.fromEntries(
          await Promise.all([...byShard(keys).keys()].map(async (shard) => [shard, await call<string>(shard, { op: 'mark' })])),
        ),
      ),
    async wait(keys, mark, ms, signal) {
      const marks = JSON.parse(mark) as Record<number, string>;
      const ended = new AbortController();
      const waits = [...byShard(keys)].map(([shard, held]) =>
        call<boolean>(shard, { op: 'wait', keys: held, mark: marks[shard] ?? '', ms }, AbortSignal.any([signal, ended.signal])),
      );
      try {
        // The first write on any of them; false when every object was full.
        return await new Promise<boolean>((resolve) => {
          let left = waits.length;
          for (const wait of waits)
            wait.then(
              (held) => (held ? resolve(true) : --left === 0 && resolve(false)),
              () => --left === 0 && resolve(false),
            );
        });
      } finally {
        ended.abort();
      }
    },
  };
}
