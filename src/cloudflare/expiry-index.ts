/*
 * The store's expiry index: beside each entry that expires, a key `x:<when, in ms, 15 digits>:<the
 * entry's key>`. Storage keeps keys in order, so what is due is a range of the index, from its
 * start to `x:<now + 1>`, and the next expiry is its first key. The object's one alarm is set to
 * that expiry; at each wake it reads the due range and those entries only, so expiring N entries
 * reads about 2N rows, however many wakes it takes, where listing every entry at every wake read
 * N²/2.
 *
 * An index key is written with its entry (one `put`, so both or neither) and never looked up
 * again until it is due: setting a key again (a new expiry, or none) or removing it leaves the
 * old index key, which, when due, finds its entry gone or not yet expired, and goes alone.
 * @see https://developers.cloudflare.com/durable-objects/api/alarms/
 * @see https://developers.cloudflare.com/durable-objects/api/legacy-kv-storage-api/
 */
import { BATCH, type DurableObjectStorageLike, type Entry } from './operations.js';

const INDEX = 'x:';
/** Enough digits for any time before the year 33658: keys sort as their times do. */
const DIGITS = 15;

/** The index key of `key` expiring at `expires`. */
function indexKey(expires: number, key: string): string {
  return `${INDEX}${String(Math.max(0, expires)).padStart(DIGITS, '0')}:${key}`;
}

/** The expiry an index key names, and its entry's key. */
function parseIndexKey(index: string): { expires: number; key: string } {
  return { expires: Number(index.slice(INDEX.length, INDEX.length + DIGITS)), key: index.slice(INDEX.length + DIGITS + 1) };
}

/**
 * Writes `value` under `key`, expiring after `ttl` seconds (none: never), with its index key, and
 * moves the object's alarm earlier if this entry expires first.
 */
export async function putExpiring(storage: DurableObjectStorageLike, key: string, value: unknown, ttl: number | undefined): Promise<void> {
  // A whole millisecond, the index key's own: an entry that expired later than its index key
  // says would be left behind by the wake that takes the key.
  const expires = ttl === undefined || !(ttl > 0) ? null : Math.ceil(Date.now() + ttl * 1000);
  if (expires === null) return storage.put<Entry>(key, { value, expires });
  await putUntil(storage, key, value, expires);
}

/** Puts `value` under `key` until `expires` (a whole millisecond since the epoch), with its index key. */
export async function putUntil(storage: DurableObjectStorageLike, key: string, value: unknown, expires: number): Promise<void> {
  await storage.put<Entry | 1>({ [key]: { value, expires } satisfies Entry, [indexKey(expires, key)]: 1 });
  const alarm = await storage.getAlarm();
  if (alarm === null || alarm > expires) await storage.setAlarm(expires);
}

/**
 * Deletes the entries due by `now` (and their index keys), a batch of index keys at a time, and
 * sets the alarm to the next expiry, if any. Reads each due index key and its entry once.
 *
 * Only storage calls are awaited here: a Durable Object delivers no other request while one is in
 * flight (its input gate), so an entry set again between this read and this delete cannot be lost.
 * @see https://blog.cloudflare.com/durable-objects-easy-fast-correct-choose-three/
 */
export async function deleteExpired(storage: DurableObjectStorageLike, now = Date.now()): Promise<void> {
  const end = indexKey(now + 1, '');
  for (;;) {
    const due = [...(await storage.list({ start: INDEX, end, limit: BATCH })).keys()];
    if (due.length === 0) break;
    const keys = due.map((index) => parseIndexKey(index).key);
    const entries = await storage.get<Entry>([...new Set(keys)]);
    const expired = keys.filter((key) => {
      const entry = entries.get(key);
      return entry !== undefined && entry.expires !== null && entry.expires <= now;
    });
    await storage.delete(due);
    for (let at = 0; at < expired.length; at += BATCH) await storage.delete(expired.slice(at, at + BATCH));
    if (due.length < BATCH) break;
  }
  const [next] = (await storage.list({ prefix: INDEX, limit: 1 })).keys();
  if (next !== undefined) await storage.setAlarm(parseIndexKey(next).expires);
}
