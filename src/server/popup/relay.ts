/*
 * Where a popup login waits between the popup's deposit and its hand-over to the opener, and what
 * else the handler keeps for popup logins. Two spaces, kept apart:
 *
 * - **Logins** (`itch-oauth:popup:<state>`): a login that itch.io vouched for, under its state,
 *   until it is handed over to the opener or it expires. Written only after a deposit passed its
 *   binding cookie *and* itch.io accepted its token for this application, and at most
 *   {@link MAX_WAITING_PER_USER} per itch.io account at a time: a flood of them needs as many
 *   itch.io accounts, each of which approved this application.
 * - **Notices** (`itch-oauth:popup-notice:<slot>`): what an opener that cannot see its popup may
 *   need before there is a login (the start page asks for a code; a deposit is being checked; a
 *   refusal). Requests without credentials write here, so it is a fixed number of slots: a
 *   state's notice lives in the slot its state hashes to, and a newer state overwrites an older
 *   one there. No number of requests grows it past {@link NOTICE_SLOTS} entries; a flood can only
 *   overwrite notices (an opener then learns less, and waits), never a login.
 * - **Code bindings** (`itch-oauth:popup-code:<slot>`): the binding of a login the person
 *   confirmed by code. Also a fixed number of slots, but a live binding is never overwritten: a
 *   new one takes the first free slot near its own, and when they are all taken the confirmation
 *   is refused (503) until some expire. A flood can delay new code confirmations; it cannot undo
 *   one.
 */
import { createStorage, type Storage } from 'unstorage';
import { boundedCache } from '../bounded-cache.js';
import type { Refusal } from '../http/answers.js';
import { setIfAbsentOf, type SetIfAbsent } from './set-if-absent.js';
import { wakeOf, type Wake } from './wake.js';

/** How long a popup login may take, from the start page to the hand-over. */
export const POPUP_TTL_S = 10 * 60;

/** `p.` and 43 base64url characters (a SHA-256): the state of a popup login. */
export const POPUP_STATE = /^p\.[A-Za-z0-9_-]{43}$/;
/** 32 random bytes or a SHA-256, base64url without padding: a verifier, a binding. */
export const BASE64URL_256 = /^[A-Za-z0-9_-]{43}$/;

/** How many notices the store holds at most. */
export const NOTICE_SLOTS = 1024;
/** How many code-confirmed bindings can wait at once. */
export const CODE_SLOTS = 1024;
/** How many free code slots after its own a new code binding may try. */
const CODE_PROBES = 16;
/** How many logins of one itch.io account may wait for their openers at once. */
export const MAX_WAITING_PER_USER = 5;

const LOGIN_PREFIX = 'itch-oauth:popup:';
const CLAIM_PREFIX = 'itch-oauth:popup-claim:';
const NOTICE_PREFIX = 'itch-oauth:popup-notice:';
const CODE_PREFIX = 'itch-oauth:popup-code:';
const USER_PREFIX = 'itch-oauth:popup-user:';

/** A login itch.io vouched for, waiting for its opener. */
export interface PopupLogin {
  at: number;
  user: unknown;
  scopes: string[];
  token: string;
  owns?: Record<string, boolean> | undefined;
  /** The origin the login was proved to start from at binding, `null` for a confirmed code. */
  startedFrom: string | null;
}

/** What an opener may learn before its login is there (the one notice of a state). */
export interface PopupNotice {
  at: number;
  state: string;
  /** The start page asks the person to confirm a code (the opener shows it too). */
  confirm?: true | undefined;
  /** A deposit's token is being checked with itch.io. */
  delivering?: true | undefined;
  /** itch.io could not check a deposit's token (5xx): a close of the popup now is the outage, not the player. */
  unavailable?: true | undefined;
  /** The login ended without a login (e.g. `popup_unverified`, a token itch.io refused). */
  refusal?: Refusal | undefined;
}

/**
 * The default store: in memory, this process only, at most 10 000 entries, each for
 * {@link POPUP_TTL_S}. Notices take at most {@link NOTICE_SLOTS} of them.
 */
export function memoryPopupStore(): Storage {
  // unstorage's driver over a least-recently-used cache, an entry expiring POPUP_TTL_S after it
  // was last set.
  const cache = boundedCache<unknown>(10_000, POPUP_TTL_S * 1000);
  return createStorage({
    driver: {
      name: 'memory-lru',
      hasItem: (key) => cache.has(key),
      getItem: (key) => cache.get(key) ?? null,
      setItem: (key, value) => cache.set(key, value),
      removeItem: (key) => cache.delete(key),
      getKeys: () => cache.keys(),
      clear: () => cache.clear(),
    },
  });
}

/** The slot of a state: its first 30 bits, modulo the number of slots. */
function slotOf(state: string, slots = NOTICE_SLOTS): number {
  const bits = [...state.slice(2, 7)].reduce((sum, char) => sum * 64 + BASE64URL_DIGITS.indexOf(char), 0);
  return bits % slots;
}

/**
 * Where a relay key's slot is on the ring of slots, from 0 (the first) to 1 (excluded): a login's
 * or a claim's is its state's, a notice's or a code binding's its own; `undefined` for any other
 * key. A store that spreads keys over several places by this (`durableObjectStore`) keeps a
 * state's login, claims and notice in one, and a collection reads them in one request.
 */
export function relayPlaceOf(key: string): number | undefined {
  const slot = /(?:^|:)popup-(notice|code):(\d{1,9})$/.exec(key);
  if (slot !== null) return (Number(slot[2]) / (slot[1] === 'notice' ? NOTICE_SLOTS : CODE_SLOTS)) % 1;
  const state = /(?:^|:)popup(?:-claim)?:(p\.[A-Za-z0-9_-]{43})(?::collected)?$/.exec(key);
  return state === null ? undefined : slotOf(state[1]!) / NOTICE_SLOTS;
}

/** A code-confirmed binding in its slot. */
interface CodeBinding {
  at: number;
  state: string;
  /** The SHA-256 of the binding cookie's secret. */
  binding: string;
}

/** The logins of one itch.io account that wait for their openers. */
interface Waiting {
  at: number;
  states: { state: string; at: number }[];
}
const BASE64URL_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

const fresh = (at: unknown): boolean => typeof at === 'number' && Date.now() - at <= POPUP_TTL_S * 1000;

/** A stored login, if it is one and young enough. */
const asLogin = (entry: unknown): PopupLogin | undefined =>
  entry !== null && typeof entry === 'object' && fresh((entry as PopupLogin).at) ? (entry as PopupLogin) : undefined;

/** A stored notice, if it is `state`'s and young enough (its slot may hold another state's). */
const asNotice = (state: string, entry: unknown): PopupNotice | undefined =>
  entry !== null && typeof entry === 'object' && (entry as PopupNotice).state === state && fresh((entry as PopupNotice).at)
    ? (entry as PopupNotice)
    : undefined;

/** Reads `keys` with one `getItems` (one request to a store that batches them): a value or `undefined` for each. */
async function readTogether(store: Storage, keys: string[]): Promise<unknown[]> {
  const found = new Map((await store.getItems(keys)).map(({ key, value }) => [key, value]));
  return keys.map((key) => found.get(key) ?? undefined);
}

export class PopupRelay {
  private readonly setIfAbsent: SetIfAbsent;
  /** Wakes the collections held for a state when the relay writes one of its entries. */
  readonly wake: Wake;

  /** @param setIfAbsent the store's atomic step; by default detected from `store` ({@link setIfAbsentOf}). */
  constructor(
    private readonly store: Storage,
    setIfAbsent?: SetIfAbsent,
  ) {
    this.setIfAbsent = setIfAbsent ?? setIfAbsentOf(store, LOGIN_PREFIX);
    this.wake = wakeOf(store, LOGIN_PREFIX);
  }

  /** The store entries a collection of `state` reads: its login and its notice's slot. */
  keysOf(state: string): string[] {
    return [LOGIN_PREFIX + state, NOTICE_PREFIX + slotOf(state)];
  }

  /** Whether this call is the first to claim `claim` (a state, or a state's collection). */
  private claim(claim: string): Promise<boolean> {
    return this.setIfAbsent.set(CLAIM_PREFIX + claim, POPUP_TTL_S);
  }

  /** Reads the login waiting under `state` (left in place) and the state's notice together: what a collection or a deposit needs first. */
  async readLoginAndNotice(state: string): Promise<{ login: PopupLogin | undefined; notice: PopupNotice | undefined }> {
    const [login, notice] = await readTogether(this.store, [LOGIN_PREFIX + state, NOTICE_PREFIX + slotOf(state)]);
    return { login: asLogin(login), notice: asNotice(state, notice) };
  }

  /**
   * Stores a verified login until it is handed over to its opener, if it is the first for its
   * state (atomically: of two deposits at once, one wins) and its account has fewer than
   * {@link MAX_WAITING_PER_USER} logins waiting. `'taken'` when another deposit has the state;
   * `'busy'` when the account has too many logins waiting.
   */
  async storeVerifiedLogin(state: string, login: PopupLogin, account: string): Promise<'stored' | 'taken' | 'busy'> {
    const waiting = await this.waiting(account);
    if (waiting.length >= MAX_WAITING_PER_USER) return 'busy';
    if (!(await this.claim(state))) return 'taken';
    try {
      await this.store.setItem(LOGIN_PREFIX + state, login, { ttl: POPUP_TTL_S });
      await this.setWaiting(account, [...waiting, { state, at: login.at }]);
    } catch (error) {
      // The state is free again: the capture's retry may deposit once the store is back.
      await this.store.removeItem(LOGIN_PREFIX + state).catch(() => undefined);
      await this.setIfAbsent.delete(CLAIM_PREFIX + state).catch(() => undefined);
      throw error;
    }
    this.wake.changed(state);
    return 'stored';
  }

  /**
   * Claims the login of `state` for its hand-over to the opener, once: of several collections at
   * once (on several instances), only one gets `true`, and the login is removed from the store
   * before the caller hands it over.
   */
  async claimForHandOver(state: string, account: string): Promise<boolean> {
    if (!(await this.claim(`${state}:collected`))) return false;
    await this.store.removeItem(LOGIN_PREFIX + state);
    await this.setWaiting(
      account,
      (await this.waiting(account)).filter((entry) => entry.state !== state),
    ).catch(() => undefined);
    return true;
  }

  /** The logins of an account still waiting (younger than {@link POPUP_TTL_S}). */
  private async waiting(account: string): Promise<Waiting['states']> {
    const entry = await this.store.getItem<Waiting>(USER_PREFIX + account);
    return entry !== null && typeof entry === 'object' && Array.isArray(entry.states)
      ? entry.states.filter((waiting) => fresh(waiting.at))
      : [];
  }

  private async setWaiting(account: string, states: Waiting['states']): Promise<void> {
    if (states.length === 0) await this.store.removeItem(USER_PREFIX + account);
    else await this.store.setItem(USER_PREFIX + account, { at: Date.now(), states } satisfies Waiting, { ttl: POPUP_TTL_S });
  }

  /**
   * Stores the binding of a code-confirmed login in the first free code slot from its own:
   * `'stored'`, `'taken'` when the state has one already, `'full'` when no slot is free.
   */
  async storeCodeBinding(state: string, binding: string): Promise<'stored' | 'taken' | 'full'> {
    let free: number | undefined;
    for (const { slot, entry } of await this.codeSlots(state)) {
      if (entry?.state === state) return 'taken';
      if (entry === undefined) free ??= slot;
    }
    if (free === undefined) return 'full';
    await this.store.setItem(CODE_PREFIX + free, { at: Date.now(), state, binding } satisfies CodeBinding, { ttl: POPUP_TTL_S });
    return 'stored';
  }

  /** Reads the SHA-256 of the code-confirmed binding of `state`, if there is one. */
  async readCodeBinding(state: string): Promise<string | undefined> {
    return (await this.codeSlots(state)).find(({ entry }) => entry?.state === state)?.entry?.binding;
  }

  /** The {@link CODE_PROBES} code slots from the state's own, read together, with their live bindings. */
  private async codeSlots(state: string): Promise<{ slot: number; entry: CodeBinding | undefined }[]> {
    const first = slotOf(state, CODE_SLOTS);
    const slots = Array.from({ length: CODE_PROBES }, (_, probe) => (first + probe) % CODE_SLOTS);
    const entries = await readTogether(
      this.store,
      slots.map((slot) => CODE_PREFIX + slot),
    );
    return slots.map((slot, at) => {
      const entry = entries[at] as CodeBinding | undefined;
      return { slot, entry: entry !== null && typeof entry === 'object' && fresh(entry.at) ? entry : undefined };
    });
  }

  /** Reads the notice of `state`, if its slot holds one for this state. */
  async readNotice(state: string): Promise<PopupNotice | undefined> {
    return asNotice(state, await this.store.getItem<PopupNotice>(NOTICE_PREFIX + slotOf(state)));
  }

  /** Updates the notice of `state` (`undefined` fields remove), in its slot; `read`: what {@link readLoginAndNotice} just read, not read again. */
  async updateNotice(
    state: string,
    change: Partial<Omit<PopupNotice, 'at' | 'state'>>,
    read?: { notice: PopupNotice | undefined },
  ): Promise<void> {
    const notice: PopupNotice = { ...(read === undefined ? await this.readNotice(state) : read.notice), ...change, at: Date.now(), state };
    await this.store.setItem(NOTICE_PREFIX + slotOf(state), JSON.parse(JSON.stringify(notice)) as PopupNotice, { ttl: POPUP_TTL_S });
    this.wake.changed(state);
  }

  /** Removes the notice of `state` (once its refusal is handed over, or its login stored). */
  async clearNotice(state: string): Promise<void> {
    if ((await this.readNotice(state)) !== undefined) await this.store.removeItem(NOTICE_PREFIX + slotOf(state));
  }
}
