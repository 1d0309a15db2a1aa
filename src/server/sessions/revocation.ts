/*
 * "Log out everywhere": the ids of revoked sessions, in a store that all instances share, each
 * kept until the session it names would have expired anyway. Without a store there is no list:
 * sessions are stateless, and a logout only removes the cookie from the browser that asked.
 */
import type { Storage } from 'unstorage';

const PREFIX = 'itch-session:revoked:';

/**
 * The store failed: said in words that hold no session id nor stored value.
 * @group Sessions
 */
export class SessionStoreError extends Error {
  override name = 'SessionStoreError';
}

export interface Revocations {
  /** Revokes a session id until `exp` (seconds since the epoch). */
  revoke(sid: string, exp: number): Promise<void>;
  /** Whether a session id is revoked. */
  isRevoked(sid: string): Promise<boolean>;
}

/** The revocation list of a store, or one that revokes nothing when there is no store. */
export function createRevocations(store: Storage | undefined): Revocations | undefined {
  if (store === undefined) return undefined;
  if (typeof store.getItem !== 'function' || typeof store.setItem !== 'function') {
    throw new TypeError('store must be an unstorage Storage (createStorage({ driver }))');
  }
  return {
    async revoke(sid, exp) {
      const ttl = Math.max(1, Math.ceil(exp - Date.now() / 1000));
      // `ttl` (seconds) lets drivers that support it (Redis, Cloudflare KV…) drop the entry when
      // the session would have expired; the value says when, for the drivers that keep it longer.
      await guarded(() => store.setItem(PREFIX + sid, exp, { ttl }));
    },
    async isRevoked(sid) {
      const until = await guarded(() => store.getItem<number>(PREFIX + sid));
      return until !== null && until !== undefined;
    },
  };
}

/**
 * Runs a store call, replacing its error with one that names only the error's class and a Redis
 * error's leading word (`OOM`, `READONLY`…): ioredis attaches the command's arguments to its
 * errors, and they hold the session id.
 */
async function guarded<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const name = error instanceof Error && /^\w{1,40}$/.test(error.name) ? error.name : 'unknown error';
    const word = error instanceof Error ? /^[A-Z]{2,20}\b/.exec(error.message)?.[0] : undefined;
    throw new SessionStoreError(`the session store failed (${word === undefined ? name : `${name} ${word}`})`);
  }
}
