/*
 * The Durable Object's waiters: a Worker that holds a popup collection asks the object to answer
 * it when one of the login's keys is written, instead of reading the store again and again. The
 * object is single-threaded, so "written after" is exact: each write takes the next number of a
 * counter, a mark names the counter now (with the object's run, since a restarted object counts
 * from 0 again), and a wait for a key written after its mark is answered at once.
 * @see https://developers.cloudflare.com/durable-objects/
 */

/** How many waits the object holds at once; beyond, a wait is answered `false` at once (the Worker then reads every half second). */
export const MAX_WAITERS = 10_000;
/** The longest a wait is held, whatever is asked (the held collection's own cap is lower). */
const MAX_WAIT_MS = 60_000;
/** How many keys' last writes are remembered; the oldest go first (a wait older than them is answered at once). */
const REMEMBERED_WRITES = 10_000;

interface Waiter {
  keys: readonly string[];
  done(held: boolean): void;
}

export class Waiters {
  /** This run of the object: marks of another run are answered at once. */
  readonly #run = crypto.randomUUID();
  #count = 0;
  /** The oldest write still remembered (waits from before it may have missed a write). */
  #forgotten = 0;
  readonly #written = new Map<string, number>();
  readonly #waiters = new Set<Waiter>();

  /** The object's moment now. */
  mark(): string {
    return `${this.#run}:${this.#count}`;
  }

  /** Says that `key` was written (set or removed), and answers the waits on it. */
  written(key: string): null {
    const count = ++this.#count;
    this.#written.delete(key);
    this.#written.set(key, count);
    if (this.#written.size > REMEMBERED_WRITES) {
      const [oldest, at] = this.#written.entries().next().value!;
      this.#written.delete(oldest);
      this.#forgotten = at;
    }
    for (const waiter of this.#waiters) if (waiter.keys.includes(key)) waiter.done(true);
    return null;
  }

  /**
   * Resolves `true` once one of `keys` is written after `mark` (at once if it was), or after
   * `ms`; `false` at once when {@link MAX_WAITERS} are held.
   */
  wait(keys: readonly string[], mark: string, ms: number): Promise<boolean> {
    const [run, at] = [mark.slice(0, mark.lastIndexOf(':')), Number(mark.slice(mark.lastIndexOf(':') + 1))];
    if (run !== this.#run || at < this.#forgotten || keys.some((key) => (this.#written.get(key) ?? 0) > at)) return Promise.resolve(true);
    if (this.#waiters.size >= MAX_WAITERS) return Promise.resolve(false);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        keys,
        done: (held) => {
          clearTimeout(timer);
          this.#waiters.delete(waiter);
          resolve(held);
        },
      };
      const timer = setTimeout(() => waiter.done(true), Math.min(Math.max(ms, 0), MAX_WAIT_MS));
      this.#waiters.add(waiter);
    });
  }
}
