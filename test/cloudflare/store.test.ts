// itch-oauth-widget/cloudflare in workerd (Miniflare, from the examples' install of wrangler:
// `npm run examples:install`): its objects shared by two Worker instances, its expiry (and the
// rows its alarms read to expire 1,000 entries), and its contents after workerd restarts on the
// same storage.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { bundleWorker } from './support/bundle-worker.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
/** The part of Miniflare's API used here (its types are in examples/node_modules). */
type Workerd = {
  getWorker(name: string): Promise<{ fetch(url: string, init?: RequestInit): Promise<Response> }>;
  dispose(): Promise<void>;
};
let Miniflare: (new (options: object) => Workerd) | undefined;
try {
  ({ Miniflare } = createRequire(path.join(root, 'examples/package.json'))('miniflare') as { Miniflare: typeof Miniflare });
} catch {
  // Skipped below.
}
// npm test installs the examples before the node tests; with CI=true a missing Miniflare fails the run.
const skip = Miniflare === undefined && process.env['CI'] !== 'true' ? 'miniflare is not installed: npm run examples:install' : false;

/** A Worker (as wrangler bundles one) over src/: the store's object, and routes that use the store as the handler and the sessions do. */
const APP = `
import { durableObjectStore, ItchOAuthStore as Store } from './src/cloudflare/index.ts';
import { SHARDS, shardName } from './src/cloudflare/shards.ts';
import { setIfAbsentOf } from './src/server/popup/set-if-absent.ts';

/** The package's class, its storage's reads counted (a row per key asked or listed), by its alarm apart. */
export class ItchOAuthStore extends Store {
  #raw; #counts;
  constructor(state, env) {
    const counts = { read: 0, alarmRead: 0, inAlarm: false };
    const count = (rows) => { counts.read += rows; if (counts.inAlarm) counts.alarmRead += rows; };
    const storage = state.storage;
    const counted = {
      get: async (keys) => (count(Array.isArray(keys) ? keys.length : 1), storage.get(keys)),
      list: async (options) => { const found = await storage.list(options); count(found.size); return found; },
      put: (...args) => storage.put(...args),
      delete: (keys) => storage.delete(keys),
      getAlarm: () => storage.getAlarm(),
      setAlarm: (time) => storage.setAlarm(time),
    };
    super({ storage: counted }, env);
    this.#raw = storage;
    this.#counts = counts;
  }
  async fetch(request) {
    if (new URL(request.url).hostname !== 'rows') return super.fetch(request);
    const { read, alarmRead } = this.#counts;
    return Response.json({ read, alarmRead, keys: (await this.#raw.list()).size });
  }
  async alarm() {
    this.#counts.inAlarm = true;
    try { await super.alarm(); } finally { this.#counts.inAlarm = false; }
  }
}

let store; // made once, used by every request, as an app keeps its handler
export default {
  async fetch(request, env) {
    store ??= durableObjectStore(env.ITCH_OAUTH_STORE);
    const url = new URL(request.url);
    const key = url.searchParams.get('key');
    if (url.pathname === '/set') await store.setItem(key, JSON.parse(await request.text()), { ttl: Number(url.searchParams.get('ttl')) || undefined });
    if (url.pathname === '/claim') return Response.json(await setIfAbsentOf(store, key).set(key, 60));
    if (url.pathname === '/keys') return Response.json(await store.getKeys());
    if (url.pathname === '/fill') {
      // Entries with distinct expiries, 1 ms apart from \`at\` on, 50 set at once.
      const [count, at] = [Number(url.searchParams.get('count')), Number(url.searchParams.get('at'))];
      for (let i = 0; i < count; i += 50)
        await Promise.all(Array.from({ length: Math.min(50, count - i) }, (_, j) => store.setItem('fill:' + (i + j), i + j, { ttl: (at + i + j - Date.now()) / 1000 })));
      return Response.json(count);
    }
    if (url.pathname === '/rows') {
      // Every object's counts, added up.
      const rows = await Promise.all(Array.from({ length: SHARDS }, async (_, shard) =>
        (await env.ITCH_OAUTH_STORE.get(env.ITCH_OAUTH_STORE.idFromName(shardName('itch-oauth', shard))).fetch('https://rows/')).json()));
      return Response.json(rows.reduce((sum, one) => ({ read: sum.read + one.read, alarmRead: sum.alarmRead + one.alarmRead, keys: sum.keys + one.keys })));
    }
    return Response.json(await store.getItem(key));
  },
};`;

const persist = mkdtempSync(path.join(tmpdir(), 'itch-oauth-store-'));
let script = '';
/** Workers `a` and `b`, each its own script, bound to the one ItchOAuthStore of `a`. */
function start(): Workerd {
  const binding = { ITCH_OAUTH_STORE: { className: 'ItchOAuthStore', scriptName: 'a', useSQLite: true } };
  return new Miniflare!({
    durableObjectsPersist: persist,
    workers: [
      { name: 'a', modules: true, script, compatibilityDate: '2026-04-01', durableObjects: binding },
      { name: 'b', modules: true, script, compatibilityDate: '2026-04-01', durableObjects: binding },
    ],
  });
}
let workerd: Workerd | undefined;
const worker = async (name: 'a' | 'b') => {
  const found = await workerd!.getWorker(name);
  return async (pathAndQuery: string, body?: unknown) =>
    (await found.fetch(`http://worker${pathAndQuery}`, body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) })).json();
};

before(async () => {
  if (skip) return;
  script = await bundleWorker(APP, root);
  workerd = start();
});
after(async () => workerd?.dispose());

test('two Worker instances share what one stored, through one ItchOAuthStore', { skip }, async () => {
  const [a, b] = [await worker('a'), await worker('b')];
  await a('/set?key=popup:login:s1', { user: 7 });
  assert.deepEqual(await b('/get?key=popup:login:s1'), { user: 7 });
  assert.equal(await b('/get?key=popup:login:none'), null);
});

test('of eight claims of one key from two instances at once, exactly one wins', { skip }, async () => {
  const [a, b] = [await worker('a'), await worker('b')];
  const claims = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? a : b)('/claim?key=popup:claim:s2')));
  assert.equal(claims.filter((won: unknown) => won === true).length, 1);
});

test('an entry with a TTL is gone once it expires', { skip }, async () => {
  const [a, b] = [await worker('a'), await worker('b')];
  await a('/set?key=itch-session:revoked:sid1&ttl=1', 1);
  assert.equal(await b('/get?key=itch-session:revoked:sid1'), 1);
  await new Promise((resolve) => setTimeout(resolve, 1500));
  assert.equal(await b('/get?key=itch-session:revoked:sid1'), null);
  assert.ok(!((await a('/keys')) as string[]).some((key) => key.includes('sid1')));
});

test('expiring 1,000 entries with distinct expiries, the alarms read about two rows per entry', { skip, timeout: 90_000 }, async (t) => {
  const a = await worker('a');
  const before = (await a('/rows')) as { read: number; alarmRead: number; keys: number };
  assert.equal(await a(`/fill?count=1000&at=${Date.now() + 12_000}`), 1000);
  const filled = (await a('/rows')) as typeof before;
  assert.ok(filled.keys >= before.keys + 2000, 'each entry and its index key are stored');
  let rows = filled;
  for (const started = Date.now(); Date.now() - started < 30_000 && rows.keys > before.keys;) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    rows = (await a('/rows')) as typeof before;
  }
  assert.equal(rows.keys, before.keys, 'the alarms deleted every entry and index key');
  const read = rows.alarmRead - before.alarmRead;
  t.diagnostic(`the alarms read ${read} rows to expire 1,000 entries`);
  // Each wake reads what is due (an entry and its index key each) and at most one index key beyond,
  // to set the next alarm; there are never more wakes than entries: at most 3 rows per entry, and
  // the count of wakes depends on how fast the machine runs, so that is the bound (a list of every
  // entry at every wake read about 500,000).
  assert.ok(read >= 2000 && read <= 3000, `the alarms read ${read} rows`);
});

test('what was stored outlives a restart of workerd', { skip }, async () => {
  await (
    await worker('a')
  )('/set?key=itch-session:revoked:sid2&ttl=600', 2);
  await workerd!.dispose();
  workerd = start();
  assert.equal(await (await worker('b'))('/get?key=itch-session:revoked:sid2'), 2);
});
