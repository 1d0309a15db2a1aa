/*
 * The popup relay of `createTokenHandler`: how a login made in a popup reaches the page that
 * opened it when the two cannot talk (a game framed on another site, whose storage is
 * partitioned; an authorization page that severs `window.opener`), and only that page, and only
 * in the browser where it was started.
 *
 * 1. The opener makes a secret `verifier` (256 random bits) and the state
 *    `p." + base64url(SHA-256(verifier))`, and opens the popup on the handler's own start page
 *    (GET on the backend URL with the state). The verifier stays in the opener's memory.
 * 2. The start page asks `window.opener`, by postMessage, to confirm the state. The answer must
 *    come from `window.opener`, on the backend's own origin or an allowed one. Only then the
 *    handler **binds** the state to this browser: a random `HttpOnly` first-party cookie whose
 *    SHA-256 it keeps under the state. The page then goes on to itch.io (the configured
 *    `baseUrl` alone). With no opener at all (severed from the start), the site chooses: the
 *    person confirms a six-digit code that the game shows too, or the login fails.
 * 3. The callback's capture POSTs `{"access_token", "state"}` from the same site, so with the
 *    cookie. A deposit without the cookie of the binding is refused before anything else: no
 *    call to itch.io, nothing stored. One deposit per state wins (atomically), the token is
 *    checked with itch.io, and the outcome waits under the state a few minutes.
 * 4. The opener POSTs `{"popup_verifier"}` about once a second. The handler hashes it, takes the
 *    outcome out of the store (once) and only then calls `onLogin`, with this request.
 *
 * So an attacker who picks a state (and holds its verifier) and gets a victim to approve it, by a
 * link or from a page of their own, collects nothing: the victim's browser holds no binding for
 * that state (RFC 6749 section 10.12, RFC 9700 section 4.7).
 */
import { createStorage, type Storage } from 'unstorage';
import lruCacheDriver from 'unstorage/drivers/lru-cache';
import { popupStateOf } from '../core/state.js';

/** How long a popup login may take, from the start page to the collection. */
export const POPUP_OUTCOME_TTL_S = 10 * 60;

/** `p.` and the base64url SHA-256 of a verifier: the state of a popup login. */
export const POPUP_STATE = /^p\.[A-Za-z0-9_-]{43}$/;
/** 32 random bytes, base64url without padding. */
export const POPUP_VERIFIER = /^[A-Za-z0-9_-]{43}$/;

const KEY_PREFIX = 'itch-oauth:popup:';
const CLAIM_PREFIX = 'itch-oauth:popup-claim:';

/** A verified login, or the answer that refused it: what the opener collects. */
export type PopupResult =
  | { at: number; user: unknown; scopes: string[]; token: string; owns?: Record<string, boolean> | undefined }
  | { at: number; status: number; errors: string[]; code?: string | undefined };

/**
 * What waits in the store under a state, in the order a login goes through them: the start page
 * was opened (`arrived`, with `confirm` while the person is asked to confirm a code), the state
 * is bound to a browser (`bound`: the SHA-256 of its cookie), a deposit is being checked
 * (`delivering`), the result.
 */
export type PopupEntry =
  | { at: number; arrived: true; confirm?: true | undefined }
  | { at: number; bound: string }
  | { at: number; delivering: true; bound: string }
  | PopupResult;

/** What a collection finds. */
export type Collected =
  | { pending: true; arrived?: true | undefined; confirm?: true | undefined; delivering?: true | undefined }
  | PopupResult;

/** An in-memory store for one process: at most 10 000 logins, each for {@link POPUP_OUTCOME_TTL_S}. */
export function memoryPopupStore(): Storage {
  return createStorage({ driver: lruCacheDriver({ max: 10_000, ttl: POPUP_OUTCOME_TTL_S * 1000 }) });
}

/** The part of ioredis the relay uses for its one atomic step. */
interface RedisLike {
  set(key: string, value: string, ex: 'EX', seconds: number, nx: 'NX'): Promise<'OK' | null>;
  del(key: string): Promise<number>;
}

/**
 * "First deposit wins" as one atomic step. On a Redis store (unstorage's `redis` driver) it is a
 * `SET NX` on the server that every instance shares; on any other store it is a lock in this
 * process, which is exact for the in-memory store (one process) and for a store that one
 * single-threaded owner serves (a Durable Object).
 */
function claimsOf(store: Storage): { claim(state: string): Promise<boolean>; release(state: string): Promise<void> } {
  const { driver } = store.getMount(KEY_PREFIX);
  const redis = driver.name === 'redis' ? (driver.getInstance?.() as RedisLike | undefined) : undefined;
  if (redis !== undefined) {
    const base = String((driver.options as { base?: string } | undefined)?.base ?? '').replace(/:$/, '');
    const key = (state: string) => (base ? `${base}:` : '') + CLAIM_PREFIX + state;
    return {
      claim: async (state) => (await redis.set(key(state), '1', 'EX', POPUP_OUTCOME_TTL_S, 'NX')) === 'OK',
      release: async (state) => void (await redis.del(key(state))),
    };
  }
  const claimed = new Map<string, number>();
  return {
    claim: async (state) => {
      const now = Date.now();
      for (const [key, until] of claimed) if (until < now) claimed.delete(key);
      if (claimed.has(state)) return false;
      claimed.set(state, now + POPUP_OUTCOME_TTL_S * 1000);
      return true;
    },
    release: async (state) => void claimed.delete(state),
  };
}

export class PopupRelay {
  private readonly claims: ReturnType<typeof claimsOf>;

  constructor(private readonly store: Storage) {
    this.claims = claimsOf(store);
  }

  private async read(state: string): Promise<PopupEntry | undefined> {
    const entry = await this.store.getItem<PopupEntry>(KEY_PREFIX + state);
    if (entry === null || typeof entry !== 'object' || !(Date.now() - entry.at <= POPUP_OUTCOME_TTL_S * 1000)) return undefined;
    return entry;
  }

  private async write(state: string, entry: PopupEntry): Promise<void> {
    await this.store.setItem(KEY_PREFIX + state, entry, { ttl: POPUP_OUTCOME_TTL_S });
  }

  /** The start page was opened for this state (told to an opener that could not see the popup open). */
  async arrive(state: string, confirm: boolean): Promise<void> {
    const entry = await this.read(state);
    if (entry === undefined || 'arrived' in entry) await this.write(state, { at: entry?.at ?? Date.now(), arrived: true, confirm: confirm || undefined });
  }

  /**
   * Binds a state to the browser whose cookie hashes to `binding`; `false` when the state is
   * bound already or has gone further (a state is bound once).
   */
  async bind(state: string, binding: string): Promise<boolean> {
    const entry = await this.read(state);
    if (entry !== undefined && !('arrived' in entry)) return false;
    await this.write(state, { at: entry?.at ?? Date.now(), bound: binding });
    return true;
  }

  /** Ends a popup login with a refusal that its opener collects (e.g. `popup_unverified`). */
  async refuse(state: string, refusal: { status: number; errors: string[]; code?: string | undefined }): Promise<boolean> {
    const entry = await this.read(state);
    if (entry !== undefined && !('arrived' in entry)) return false;
    await this.write(state, { at: Date.now(), ...refusal });
    return true;
  }

  /**
   * Whether a deposit for `state` comes from the browser the state was bound to: `'unbound'`
   * when it was never bound (or the cookie is another), `'taken'` when a deposit's result is
   * there already.
   */
  async checkDeposit(state: string, binding: string | undefined): Promise<'ok' | 'unbound' | 'taken'> {
    const entry = await this.read(state);
    if (entry === undefined || 'arrived' in entry) return 'unbound';
    if (!('bound' in entry)) return 'taken';
    if (binding === undefined || entry.bound !== binding) return 'unbound';
    // (A deposit under way, or one whose store write failed and could not be undone: the claim
    // alone says which.)
    return 'ok';
  }

  /**
   * Takes the one deposit of a bound state (atomically: of two at once, one wins) and marks it as
   * being checked. `false` when another deposit has it.
   */
  async claim(state: string, binding: string): Promise<boolean> {
    if (!(await this.claims.claim(state))) return false;
    try {
      await this.write(state, { at: Date.now(), delivering: true, bound: binding });
    } catch (error) {
      await this.claims.release(state).catch(() => undefined);
      throw error;
    }
    return true;
  }

  /**
   * Gives a claimed state back (the store failed while the token was checked or its result
   * written), so that the capture's retry can deposit again.
   */
  async unclaim(state: string, binding: string): Promise<void> {
    try {
      await this.write(state, { at: Date.now(), bound: binding });
    } finally {
      await this.claims.release(state);
    }
  }

  /** Keeps the result of a deposit for the opener. */
  async settle(state: string, result: PopupResult): Promise<void> {
    await this.write(state, result);
  }

  /**
   * Takes out the result of the login whose state the verifier stands for, once: it is removed
   * before it is returned. Until there is one, what the opener may know: whether the popup
   * arrived on the start page (and the person is asked for a code), or its token is being checked.
   */
  async collect(verifier: string): Promise<Collected> {
    const state = await popupStateOf(verifier);
    const entry = await this.read(state);
    if (entry === undefined) return { pending: true };
    if ('arrived' in entry) return { pending: true, arrived: true, confirm: entry.confirm };
    if ('delivering' in entry) return { pending: true, arrived: true, delivering: true };
    if ('bound' in entry) return { pending: true, arrived: true };
    await this.store.removeItem(KEY_PREFIX + state);
    return entry;
  }
}
