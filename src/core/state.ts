import { COOKIES_BLOCKED, ERROR_CODES, ItchOAuthError, STATE_EXPIRED, STATE_MISMATCH, STATE_MISSING } from './errors.js';

/**
 * How long a started login may take before its `state` is refused (10 minutes).
 * @group State and flow record
 */
export const STATE_LIFETIME_MS = 10 * 60 * 1000;

/** Bytes of randomness in a `state`: 32 bytes = 256 bits (at least 128 are needed against guessing, RFC 6749 section 10.10). */
const STATE_BYTES = 32;

/**
 * The storage key prefix under which flow records live.
 * @group State and flow record
 */
export const STATE_KEY_PREFIX = 'itch-oauth:state:';

/**
 * How a login opens itch.io's page: the page goes there and back, or a popup opens it.
 * @group Log in from code
 */
export type LoginMode = 'redirect' | 'popup';

/**
 * The former name of {@link LoginMode}, kept while the elements move to it.
 * @deprecated use `LoginMode`.
 * @internal
 */
export type FlowMode = LoginMode;

/**
 * What is remembered about a started login, keyed by its `state`.
 * @group State and flow record
 */
export interface FlowRecord {
  /** Same-origin path+query the user goes back to after the login. */
  returnTo: string;
  mode: LoginMode;
  clientId: string;
  redirectUri: string;
  /** Space-separated scopes asked for. */
  scope: string;
  /** The authorization server the login went to, so a failed login can be started again. */
  baseUrl: string;
  /** `Date.now()` when the login started. */
  createdAt: number;
}

/**
 * A fresh, unguessable `state`: 256 bits from `crypto.getRandomValues`, base64url without padding.
 * @see RFC 6749 section 10.12 (CSRF) and RFC 9700 section 4.7.1
 * @group State and flow record
 */
export function createState(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(STATE_BYTES)));
}

/** Bytes as base64url without padding (RFC 4648 section 5), as states and verifiers are written. */
export function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/**
 * The binding of a popup login whose verifier is `verifier`: the base64url SHA-256 of it. The
 * opener hands it to its popup's start page (by `postMessage`, to the token endpoint's origin only),
 * which has the token endpoint set it as a first-party cookie: the proof, at the deposit, that the token
 * comes from the browser whose opener started the login. It cannot collect the login.
 * @see RFC 7636 section 4.2 (the same S256 transform)
 */
export async function popupBindingOf(verifier: string): Promise<string> {
  return sha256Base64url(verifier);
}

/**
 * The state of a popup login whose verifier is `verifier`: `p.` and the base64url SHA-256 of its
 * binding. The opener sends this state to itch.io; the token endpoint checks a binding against it, and
 * computes it again from the verifier the opener collects with, so that only the holder of the
 * verifier gets the login.
 */
export async function popupStateOf(verifier: string): Promise<string> {
  return popupStateOfBinding(await popupBindingOf(verifier));
}

/** The state a popup binding stands for (see {@link popupStateOf}). */
export async function popupStateOfBinding(binding: string): Promise<string> {
  return `p.${await sha256Base64url(binding)}`;
}

/** The SHA-256 of a text, base64url without padding. */
export async function sha256Base64url(text: string): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))));
}

/**
 * The short code that ties a popup to the page that opened it when no browser channel can (an
 * opener severed from the start): six digits from the state, which the opening page and the
 * popup both show, so that the person confirms they belong together (the defence of the OAuth
 * device flow).
 * @see https://www.rfc-editor.org/rfc/rfc8628#section-5.4
 */
export function popupCodeOf(state: string): string {
  const bytes = atob(state.slice(2, 8).replace(/-/g, '+').replace(/_/g, '/'));
  const value = [...bytes].reduce((sum, char) => sum * 256 + char.charCodeAt(0), 0) % 1_000_000;
  return String(value)
    .padStart(6, '0')
    .replace(/^(\d{3})/, '$1 ');
}

/**
 * The subset of the Web Storage API the store needs (so tests and SSR can inject their own).
 * @group State and flow record
 */
export type StateStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem' | 'key' | 'length'>;

/**
 * The browser refuses this site's storage (cookies and site data blocked, or storage disabled):
 * nothing a developer can fix, so the message is the player's sentence, for a page to show.
 */
function storageError(cause: unknown): ItchOAuthError {
  return new ItchOAuthError('cookies_blocked', COOKIES_BLOCKED, { cause });
}

/**
 * The tab's `sessionStorage`, where a redirect login keeps its flow. Reading the property itself
 * throws (a `SecurityError`) where the browser blocks cookies and site data.
 * @throws ItchOAuthError `cookies_blocked` when the browser refuses it.
 */
export function flowStorage(): Storage {
  try {
    return sessionStorage;
  } catch (cause) {
    throw storageError(cause);
  }
}

function isFlowRecord(value: unknown): value is FlowRecord {
  const record = Object(value) as Record<string, unknown>;
  return (
    ['returnTo', 'clientId', 'redirectUri', 'scope', 'baseUrl'].every((key) => typeof record[key] == 'string') &&
    (record['mode'] == 'redirect' || record['mode'] == 'popup') &&
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
 * @group State and flow record
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
 * @throws ItchOAuthError `cookies_blocked` when the storage cannot be written.
 * @group State and flow record
 */
export function saveFlow(storage: StateStorage, state: string, record: FlowRecord): void {
  pruneExpired(storage, record.createdAt);
  try {
    storage.setItem(STATE_KEY_PREFIX + state, JSON.stringify(record));
  } catch (cause) {
    throw storageError(cause);
  }
}

/**
 * Why a returned `state` is refused (see {@link takeFlow}): `state_missing`, `state_mismatch` or
 * `state_expired` by their index in `ERROR_CODES`.
 * @group State and flow record
 */
export type StateProblem = typeof STATE_MISSING | typeof STATE_MISMATCH | typeof STATE_EXPIRED;

/**
 * The lookup behind {@link consumeFlow}, without messages (the capture script uses it and must
 * stay tiny): takes the record of `state` out of the storage and answers it, or what is wrong.
 * Storage errors (DOMException), and the error of a record that is not a JSON object, are thrown
 * as they come.
 * @group State and flow record
 */
export function takeFlow(storage: StateStorage, state: string | undefined, now = Date.now()): FlowRecord | StateProblem {
  if (!state) return STATE_MISSING;
  const key = STATE_KEY_PREFIX + state;
  const raw = storage.getItem(key);
  storage.removeItem(key);
  if (raw == null) return STATE_MISMATCH;
  const record: FlowRecord = JSON.parse(raw);
  // A record from the future counts as expired too, and so does a missing or non-numeric
  // createdAt (NaN fails the comparison).
  return Math.abs(now - record.createdAt) <= STATE_LIFETIME_MS ? record : STATE_EXPIRED;
}

const STATE_PROBLEMS: Record<string, string> = {
  state_missing: 'the itch.io response carries no state: it was not started by this site',
  state_mismatch: 'the itch.io response carries an unknown or already used state',
  state_expired: 'the login took longer than 10 minutes: please log in again',
};

/**
 * Looks up the record of a returned `state` and deletes it, whether or not the check passes:
 * a state is good for one attempt only.
 *
 * @param storage where the button saved the flow: sessionStorage (popup logins keep none).
 * @throws ItchOAuthError `state_missing` when no state came back, `state_mismatch` when it is
 *   unknown or already used, `state_expired` when it is older than {@link STATE_LIFETIME_MS},
 *   `cookies_blocked` when storage cannot be read.
 * @see https://itch.io/docs/api/oauth (RFC 6749 section 10.12)
 * @group State and flow record
 */
export function consumeFlow(storage: StateStorage, state: string | undefined, now = Date.now()): FlowRecord {
  let result: FlowRecord | StateProblem;
  try {
    result = takeFlow(storage, state, now);
  } catch (cause) {
    if (cause instanceof DOMException) throw storageError(cause);
    result = STATE_MISMATCH;
  }
  // Only the capture script reads records without checking them all (it needs createdAt and returnTo).
  if (typeof result !== 'number' && !isFlowRecord(result)) result = STATE_MISMATCH;
  if (typeof result === 'number') {
    const code = ERROR_CODES[result];
    throw new ItchOAuthError(code, STATE_PROBLEMS[code] as string);
  }
  return result;
}
