/*
 * How a held collection learns that its login changed (a deposit landed, a notice was written),
 * from the store the relay writes to:
 *
 * - **In this process**, always: every write of the relay wakes the collections this process
 *   holds for that state. With the default in-memory store nothing else can write, so that is
 *   all (`process`).
 * - **Redis** (unstorage's `redis` driver): each write is also a `PUBLISH` on one channel, and
 *   every instance that holds collections listens on one `SUBSCRIBE` connection of its own (a
 *   duplicate of the driver's client, opened on the first held collection, closed two seconds
 *   after the last one ended). Until that subscription is up, the store is checked as below.
 * - **The Durable Object** (`durableObjectStore()` from `itch-oauth-widget/cloudflare`): the object
 *   holds the waiting request itself and answers it when one of the login's keys is written.
 * - **Any other store**: the store is checked every {@link CHECK_INTERVAL_MS} inside the held
 *   request (two reads each time: the login and its notice).
 */
import type { Storage } from 'unstorage';
import { DURABLE_OBJECT_DRIVER } from './set-if-absent.js';

/** How often a held collection reads the store when no wake-up can reach it from another instance. */
export const CHECK_INTERVAL_MS = 500;
/** How long the Redis subscription stays open after the last held collection ended. */
const SUBSCRIPTION_LINGER_MS = 2000;

/** Where the wake-ups come from (see the top of this file). */
export type WakeKind = 'process' | 'redis' | 'durable-object' | 'interval';

/** One held collection's wake-ups, armed before it reads the store so that no write is missed. */
export interface Armed {
  /**
   * Resolves when the login may have changed since it was armed (or since the last call), after
   * `ms`, or when the request ends. Then the caller reads the store again.
   */
  woken(ms: number): Promise<void>;
  /** Ends the wake-ups (the collection answered). */
  disarm(): void;
}

/** The wake-ups of one store. */
export interface Wake {
  readonly kind: WakeKind;
  /** Arms the wake-ups of `state`, whose store entries are `keys`. */
  arm(state: string, keys: readonly string[], signal: AbortSignal): Armed;
  /** Says that the relay wrote an entry of `state`. */
  changed(state: string): void;
}

/** The part of ioredis the wake-ups use. */
interface RedisLike {
  publish(channel: string, message: string): Promise<number>;
  duplicate(override?: Record<string, unknown>): RedisSubscriber;
}
interface RedisSubscriber {
  status: string;
  subscribe(channel: string): Promise<unknown>;
  on(event: 'message', listener: (channel: string, message: string) => void): unknown;
  on(event: 'error', listener: (error: unknown) => void): unknown;
  disconnect(): void;
}

/**
 * What the Durable Object's driver offers besides its set-if-absent: `mark(keys)` names the
 * moment now of the objects that hold `keys`; `wait(keys, mark, ms)` resolves once one of `keys` was written after `mark` (at
 * once if it was already), after `ms`, or `false` when the object holds too many waiters.
 */
export interface DurableObjectWaits {
  mark(keys: readonly string[]): Promise<string>;
  wait(keys: readonly string[], mark: string, ms: number, signal: AbortSignal): Promise<boolean>;
}

const wakes = new WeakMap<Storage, Wake>();

/** The wake-ups of `store` (one per store, shared by every handler on it). */
export function wakeOf(store: Storage, mount: string): Wake {
  let wake = wakes.get(store);
  if (wake === undefined) wakes.set(store, (wake = createWake(store, mount)));
  return wake;
}

function createWake(store: Storage, mount: string): Wake {
  const { driver } = store.getMount(mount);
  const local = new Map<string, Set<() => void>>();
  const fire = (state: string) => {
    for (const waiter of local.get(state) ?? []) waiter();
  };
  const instance = driver.name === 'redis' || driver.name === DURABLE_OBJECT_DRIVER ? driver.getInstance?.() : undefined;
  const redis = driver.name === 'redis' ? (instance as RedisLike | undefined) : undefined;
  const waits = driver.name === DURABLE_OBJECT_DRIVER ? (instance as Partial<DurableObjectWaits> | undefined) : undefined;
  const durable = typeof waits?.wait === 'function' && typeof waits.mark === 'function' ? (waits as DurableObjectWaits) : undefined;
  const inProcess = driver.name === 'memory-lru' || driver.name === 'memory';
  const subscription = redis === undefined ? undefined : redisSubscription(redis, driver.options, fire);
  const kind: WakeKind = inProcess ? 'process' : subscription ? 'redis' : durable ? 'durable-object' : 'interval';

  return {
    kind,
    changed(state) {
      fire(state);
      subscription?.publish(state);
    },
    arm(state, keys, signal) {
      let fired = false;
      let resolve: (() => void) | undefined;
      const waiter = () => {
        fired = true;
        resolve?.();
      };
      const waiters = local.get(state) ?? new Set();
      local.set(state, waiters.add(waiter));
      subscription?.acquire();
      let mark = durable?.mark(keys).catch(() => undefined);
      const ended = new AbortController();
      const disarm = () => {
        if (ended.signal.aborted) return;
        ended.abort();
        waiters.delete(waiter);
        if (waiters.size === 0) local.delete(state);
        subscription?.release();
      };
      signal.addEventListener('abort', disarm, { once: true });
      return {
        disarm,
        async woken(ms) {
          if (fired || signal.aborted) return void (fired = false);
          const after = AbortSignal.any([signal, ended.signal]);
          const remote = durable === undefined ? undefined : await mark;
          // Only this process can write (the memory store), or the other instances publish: wait
          // for the wake-up; else read again after a short interval.
          const listening = inProcess || subscription?.ready() === true;
          const timeout = listening || remote !== undefined ? ms : Math.min(ms, CHECK_INTERVAL_MS);
          await new Promise<void>((done) => {
            let over = false;
            const timer = setTimeout(finish, timeout);
            function finish() {
              if (over) return;
              over = true;
              clearTimeout(timer);
              after.removeEventListener('abort', finish);
              if (resolve === finish) resolve = undefined;
              done();
            }
            resolve = finish;
            after.addEventListener('abort', finish, { once: true });
            if (fired) finish();
            // The Durable Object holds this wait itself; a full object, or one that failed, leaves
            // the interval.
            if (remote !== undefined)
              void durable!.wait(keys, remote, timeout, after).then(
                (held) => (held ? finish() : setTimeout(finish, CHECK_INTERVAL_MS)),
                () => setTimeout(finish, CHECK_INTERVAL_MS),
              );
          });
          fired = false;
          if (remote !== undefined && !signal.aborted) mark = durable!.mark(keys).catch(() => undefined);
        },
      };
    },
  };
}

/** The Redis channel's subscription, opened while collections are held. */
function redisSubscription(redis: RedisLike, options: unknown, fire: (state: string) => void) {
  const base = String((options as { base?: string } | undefined)?.base ?? '').replace(/:$/, '');
  const channel = `${base ? `${base}:` : ''}itch-oauth:popup-wake`;
  let subscriber: RedisSubscriber | undefined;
  let subscribed = false;
  let users = 0;
  let linger: ReturnType<typeof setTimeout> | undefined;
  return {
    publish(state: string) {
      // Fails while Redis is down; a collection then learns at its next read.
      void redis.publish(channel, state).catch(() => undefined);
    },
    ready: () => subscribed && subscriber?.status === 'ready',
    acquire() {
      users++;
      clearTimeout(linger);
      if (subscriber !== undefined) return;
      // Its own connection (a subscribed one can do nothing else), which keeps trying while
      // Redis is down and subscribes again when it is back.
      const opened = redis.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null, autoResubscribe: true, lazyConnect: false });
      subscriber = opened;
      opened.on('error', () => undefined);
      opened.on('message', (_channel, state) => fire(state));
      opened.subscribe(channel).then(
        () => (subscribed = subscriber === opened),
        () => undefined,
      );
    },
    release() {
      if (--users > 0) return;
      linger = setTimeout(() => {
        subscriber?.disconnect();
        subscriber = undefined;
        subscribed = false;
      }, SUBSCRIPTION_LINGER_MS);
      linger.unref?.();
    },
  };
}
