// ItchOAuthStore's expiry, on the storage stand-in (which counts the rows it reads) with a clock
// of the test's own: each wake of the alarm reads what is due and no more, however many entries
// wait; an entry set again or removed before its expiry is kept or stays gone; nothing is left.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { ItchOAuthStore } from '../../src/cloudflare/index.js';
import { MemoryStorage, type StoreClass } from './support/durable-objects.js';

const realNow = Date.now;
let clock = 0;
beforeEach(() => {
  clock = Date.UTC(2026, 10, 28, 12);
  Date.now = () => clock;
});
afterEach(() => {
  Date.now = realNow;
});

/** An object of `Store` on a fresh storage, and its operations. */
function object(Store: StoreClass = ItchOAuthStore as unknown as StoreClass) {
  const storage = new MemoryStorage();
  const store = new Store({ storage });
  const ask = async (operation: object) =>
    (
      (await (await store.fetch(new Request('https://itch-oauth-store/', { method: 'POST', body: JSON.stringify(operation) }))).json()) as {
        result: unknown;
      }
    ).result;
  /** Moves the clock to the alarm, runs it as the runtime does; false when no alarm is set. */
  const wake = async () => {
    if (storage.alarm === null) return false;
    clock = Math.max(clock, storage.alarm);
    storage.alarm = null;
    await store.alarm();
    return true;
  };
  return { storage, ask, wake };
}

describe('ItchOAuthStore: expiry', () => {
  it('expires 1,000 entries with distinct expiries, one wake each, reading about 3 rows per entry (not N²/2)', async () => {
    const { storage, ask, wake } = object();
    for (let i = 0; i < 1000; i++) await ask({ op: 'set', key: `itch-session:revoked:s${i}`, value: i, ttl: 1 + i / 1000 });
    const before = storage.rowsRead;
    let wakes = 0;
    while (await wake()) {
      wakes++;
      // Each wake took exactly the one entry due: the next is still there.
      if (wakes < 1000) assert.equal(await ask({ op: 'get', key: `itch-session:revoked:s${wakes}` }), wakes);
    }
    const read = storage.rowsRead - before - (1000 - 1); // less the test's own reads above
    assert.equal(wakes, 1000);
    assert.ok(read <= 3 * 1000, `the alarm read ${read} rows for 1,000 entries`);
    assert.deepEqual(storage.keys(), [], 'entries and index keys are gone');
  });

  it('deletes more entries than one batch holds (300 due at once) in one wake', async () => {
    const { storage, ask, wake } = object();
    for (let i = 0; i < 300; i++) await ask({ op: 'set', key: `k${i}`, value: i, ttl: 60 });
    await ask({ op: 'set', key: 'later', value: 1, ttl: 120 });
    assert.equal(await wake(), true);
    assert.deepEqual(
      storage.keys().filter((key) => key.startsWith('v:')),
      ['v:later'],
    );
    assert.equal(storage.alarm, clock + 60_000, 'the alarm waits for the next expiry');
  });

  it('keeps an entry set again with a later expiry, or with none, past its first expiry', async () => {
    const { storage, ask, wake } = object();
    await ask({ op: 'set', key: 'later', value: 1, ttl: 10 });
    await ask({ op: 'set', key: 'never', value: 1, ttl: 10 });
    await ask({ op: 'set', key: 'later', value: 2, ttl: 30 });
    await ask({ op: 'set', key: 'never', value: 2 });
    await wake(); // at +10 s
    assert.equal(await ask({ op: 'get', key: 'later' }), 2);
    assert.equal(await ask({ op: 'get', key: 'never' }), 2);
    await wake(); // at +30 s
    assert.equal(await ask({ op: 'get', key: 'later' }), null);
    assert.equal(await ask({ op: 'get', key: 'never' }), 2);
    assert.deepEqual(storage.keys(), ['v:never']);
    assert.equal(storage.alarm, null);
  });

  it('leaves nothing of a removed entry, nor of a claim, once their expiry passed', async () => {
    const { storage, ask, wake } = object();
    await ask({ op: 'set', key: 'gone', value: 1, ttl: 10 });
    assert.equal(await ask({ op: 'setIfAbsent', key: 'claim', ttl: 20 }), true);
    assert.equal(await ask({ op: 'setIfAbsent', key: 'claim', ttl: 20 }), false);
    await ask({ op: 'remove', key: 'gone' });
    while (await wake());
    assert.deepEqual(storage.keys(), []);
    assert.equal(await ask({ op: 'setIfAbsent', key: 'claim', ttl: 20 }), true, 'an expired claim can be made again');
  });

  it('deletes an entry whose TTL ends between two milliseconds, on a clock of whole milliseconds', async () => {
    const { storage, ask, wake } = object();
    await ask({ op: 'set', key: 'k', value: 1, ttl: 1.0005 });
    // The runtime's clock (workerd's Date.now()) counts whole milliseconds.
    storage.alarm = Math.floor(storage.alarm!);
    while (await wake());
    assert.deepEqual(storage.keys(), []);
  });

  it('reads an entry as absent from its expiry on, before the alarm deletes it', async () => {
    const { ask } = object();
    await ask({ op: 'set', key: 'k', value: 1, ttl: 5 });
    clock += 4_999;
    assert.equal(await ask({ op: 'get', key: 'k' }), 1);
    clock += 1;
    assert.equal(await ask({ op: 'get', key: 'k' }), null);
    assert.deepEqual(await ask({ op: 'getMany', keys: ['k', 'other'] }), [null, null]);
  });
});
