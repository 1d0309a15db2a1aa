/*
 * A login that several calls wait for (a second `login()` while the Continue button shows, a
 * second call of the Phaser plugin while its popup is open): each call gets the one outcome, its
 * own signal ends only its own wait, and the login is cancelled once no call waits for it.
 */
import { ItchOAuthError } from './errors.js';

/** What `aborted` says: the page cancelled, through the signal of its call. */
export const ABORTED = 'the page cancelled the login';

/** A login under way, and how many calls wait for it. */
export interface SharedLogin<T> {
  outcome: Promise<T>;
  waiting: number;
  /** Cancels the login: no call waits for it any more. */
  cancel(reason: unknown): void;
}

/** One more call waiting for `shared`: its outcome, or `aborted` once `signal` aborts (at once if it has). */
export function joinLogin<T>(shared: SharedLogin<T>, signal: AbortSignal | undefined): Promise<T> {
  shared.waiting++;
  return new Promise<T>((resolve, reject) => {
    shared.outcome.then(resolve, reject);
    const abort = () => {
      reject(new ItchOAuthError('aborted', ABORTED, { cause: signal!.reason }));
      if (--shared.waiting == 0) shared.cancel(signal!.reason);
    };
    if (signal?.aborted) abort();
    else signal?.addEventListener('abort', abort, { once: true });
  });
}
