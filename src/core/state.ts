import { ItchOAuthError } from './errors.js';

/** How long a started login may take before its `state` is refused (10 minutes). */
export const STATE_LIFETIME_MS = 10 * 60 * 1000;

/** Bytes of randomness in a `state`: 32 bytes = 256 bits (the contract asks for at least 128). */
const STATE_BYTES = 32;

/** The storage key prefix under which flow records live. */
export const STATE_KEY_PREFIX = 'itch-oauth:state:';

/** How the login was started, so the callback knows how to return. */
export type FlowMode = 'redirect' | 'popup';

/** What is remembered about a started login, keyed by its `state`. */
export interface FlowRecord {
  /** Same-origin path+query the user goes back to after the login. */
  returnTo: string;
  mode: FlowMode;
  clientId: string;
  redirectUri: string;
  /** Space-separated scopes asked for. */
  scope: string;
  /** `Date.now()` when the login started. */
  createdAt: number;
}

/**
 * A fresh, unguessable `state`: 256 bits from `crypto.getRandomValues`, base64url without padding.
 * @see RFC 6749 section 10.12 (CSRF) and RFC 9700 section 4.7.1
 */
export function createState(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(STATE_BYTES));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/** The subset of the Web Storage API the store needs (so tests and SSR can inject their own). */
export type StateStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem' | 'key' | 'length'>;

function storageError(action: string, cause: unknown): ItchOAuthError {
  const error = new ItchOAuthError(
    'config_invalid',
    `cannot ${action} the login state: browser storage is unavailable (private mode or storage disabled?)`,
  );
  (error as { cause?: unknown }).cause = cause;
  return error;
}

function isFlowRecord(value: unknown): value is FlowRecord {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record['returnTo'] === 'string' &&
    (record['mode'] === 'redirect' || record['mode'] === 'popup') &&
    typeof record['clientId'] === 'string' &&
    typeof record['redirectUri'] === 'string' &&
    typeof record['scope'] === 'string' &&
    typeof record['createdAt'] === 'number' &&
    Number.isFinite(record['createdAt'])
  );
}

function readRecord(storage: StateStorage, key: string): FlowRecord | undefined {
  const raw = storage.getItem(key);
  if (raw === null) return undefined;
  try {
    const value: unknown = JSON.parse(raw);
    return isFlowRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Removes every record older than the lifetime (or unreadable). Errors are swallowed: pruning is
 * housekeeping and must never break a login.
 */
export function pruneExpired(storage: StateStorage, now = Date.now()): void {
  try {
    const keys: string[] = [];
    for (let i = 0; i < storage.length; i++) {
      const key = storage.key(i);
      if (key?.startsWith(STATE_KEY_PREFIX)) keys.push(key);
    }
    for (const key of keys) {
      const record = readRecord(storage, key);
      if (!record || now - record.createdAt > STATE_LIFETIME_MS || record.createdAt > now + STATE_LIFETIME_MS) {
        storage.removeItem(key);
      }
    }
  } catch {
    // Storage went away between calls: nothing to prune.
  }
}

/**
 * Remembers a started login under its `state`, after pruning expired records.
 * @throws ItchOAuthError `config_invalid` when the storage cannot be written.
 */
export function saveFlow(storage: StateStorage, state: string, record: FlowRecord): void {
  pruneExpired(storage, record.createdAt);
  try {
    storage.setItem(STATE_KEY_PREFIX + state, JSON.stringify(record));
  } catch (cause) {
    throw storageError('save', cause);
  }
}

/**
 * Looks up the record of a returned `state` and deletes it, whether or not the check passes:
 * a state is good for one attempt only.
 *
 * @param storages where to look, in order (sessionStorage for redirect logins, localStorage for popups).
 * @throws ItchOAuthError `state_missing` when no state came back, `state_mismatch` when it is
 *   unknown or already used, `state_expired` when it is older than {@link STATE_LIFETIME_MS},
 *   `config_invalid` when storage cannot be read.
 * @see ../shared/spec/itch-api.md section 5.3, security rule 4; RFC 6749 section 10.12
 */
export function consumeFlow(storages: readonly StateStorage[], state: string | undefined, now = Date.now()): FlowRecord {
  if (state === undefined || state === '') {
    throw new ItchOAuthError('state_missing', 'the itch.io response carries no state: it was not started by this site');
  }
  let record: FlowRecord | undefined;
  for (const storage of storages) {
    try {
      const key = STATE_KEY_PREFIX + state;
      record ??= readRecord(storage, key);
      storage.removeItem(key);
    } catch (cause) {
      throw storageError('read', cause);
    }
  }
  if (!record) {
    throw new ItchOAuthError('state_mismatch', 'the itch.io response carries an unknown or already used state');
  }
  const age = now - record.createdAt;
  if (age > STATE_LIFETIME_MS || age < -STATE_LIFETIME_MS) {
    throw new ItchOAuthError('state_expired', 'the login took longer than 10 minutes: please log in again');
  }
  return record;
}
