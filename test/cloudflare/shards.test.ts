// How durableObjectStore spreads keys over its objects: evenly by a hash, a popup login's keys
// together by their state's slot, whatever base the store is mounted under; and the store still
// answers as one: every key found where it was written, one claim of a key wins across Worker
// instances, a listing sees every object.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { prefixStorage } from 'unstorage';
import { durableObjectStore, ItchOAuthStore } from '../../src/cloudflare/index.js';
import { SHARDS, shardOf } from '../../src/cloudflare/shards.js';
import { popupStateOf } from '../../src/core/state.js';
import { setIfAbsentOf } from '../../src/server/popup/set-if-absent.js';
import { memoryNamespace, type StoreClass } from './support/durable-objects.js';

const randomState = () => popupStateOf(randomBytes(32).toString('base64url'));
/** The relay's slot of a state (its first 30 bits, modulo 1,024), as a test computes it. */
const slotOf = (state: string) =>
  [...Buffer.from(state.slice(2, 7) + 'A'.repeat(3), 'base64url')].slice(0, 4).reduce((sum, byte) => sum * 256 + byte, 0) >>> 2;

describe('durableObjectStore: shards', () => {
  it('spreads 16,000 revoked sessions evenly over the 16 objects', () => {
    const counts = new Array<number>(SHARDS).fill(0);
    for (let i = 0; i < 16_000; i++) counts[shardOf(`itch-session:revoked:${randomBytes(16).toString('base64url')}`)]!++;
    assert.ok(
      counts.every((count) => count > 850 && count < 1150),
      String(counts),
    );
  });

  it("keeps a popup login's login, claims, notice and code slot on its state's object, under any base", async () => {
    const seen = new Set<number>();
    for (let i = 0; i < 200; i++) {
      const state = await randomState();
      const slot = slotOf(state) % 1024;
      for (const base of ['', 'my-app:']) {
        const shard = shardOf(`${base}itch-oauth:popup:${state}`);
        seen.add(shard);
        for (const key of [
          `itch-oauth:popup-claim:${state}`,
          `itch-oauth:popup-claim:${state}:collected`,
          `itch-oauth:popup-notice:${slot}`,
          `itch-oauth:popup-code:${slot}`,
        ])
          assert.equal(shardOf(base + key), shard, `${base}${key}`);
      }
    }
    assert.equal(seen.size, SHARDS, 'states reach every object');
  });

  it('finds each key where it was written, lists and clears every object, and lets one claim of a key win across instances', async () => {
    const namespace = memoryNamespace(ItchOAuthStore as unknown as StoreClass);
    const [a, b] = [durableObjectStore(namespace as never), durableObjectStore(namespace as never)];
    const keys = Array.from({ length: 64 }, (_, i) => `itch-session:revoked:s${i}`);
    for (const key of keys) await a.setItem(key, 1);
    assert.ok(namespace.objects.size >= 12, `${namespace.objects.size} objects`);
    for (const key of keys) assert.equal(await b.getItem(key), 1);
    assert.deepEqual((await b.getKeys()).sort(), [...keys].sort());
    const state = await randomState();
    const claims = await Promise.all(
      Array.from({ length: 8 }, (_, i) => setIfAbsentOf(i % 2 ? a : b, 'itch-oauth:popup:').set(`itch-oauth:popup-claim:${state}`, 60)),
    );
    assert.equal(claims.filter(Boolean).length, 1);
    await b.clear();
    assert.deepEqual(await a.getKeys(), []);
  });

  it('reads several keys in one request per object, through a prefixed storage too', async () => {
    const namespace = memoryNamespace(ItchOAuthStore as unknown as StoreClass);
    const store = prefixStorage(durableObjectStore(namespace as never), 'my-app');
    const state = await randomState();
    const [login, notice] = [`itch-oauth:popup:${state}`, `itch-oauth:popup-notice:${slotOf(state) % 1024}`];
    await store.setItem(login, { at: 1 });
    const before = namespace.requests.length;
    const found = await store.getItems([login, notice, 'itch-session:revoked:none']);
    assert.deepEqual(
      new Map(found.map(({ key, value }) => [key, value])),
      new Map([
        [login, { at: 1 }],
        [notice, null],
        ['itch-session:revoked:none', null],
      ]),
    );
    assert.ok(namespace.requests.length - before <= 2);
    assert.equal(namespace.requests.filter(({ operation }) => operation.keys?.includes(`my-app:${login}`)).length, 1);
  });
});
