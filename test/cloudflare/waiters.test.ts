// The Durable Object's waiters, in Node: the object's class behind a namespace stand-in that hands
// every stub's fetch to the object of its name (as Cloudflare routes every Worker's stub), and two
// token handlers on durableObjectStore() over it: the deposit through one wakes the collection
// held by the other through a wait the object holds. (test/cloudflare/store.test.ts runs the
// object in workerd.)
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DEFAULT_SEED_CREDENTIALS as C, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { durableObjectStore, ItchOAuthStore, type DurableObjectNamespaceLike } from '../../src/cloudflare/index.js';
import { MAX_WAITERS, Waiters } from '../../src/cloudflare/waiters.js';
import { createTokenHandler } from '../../src/server/index.js';
import { wakeOf } from '../../src/server/popup/wake.js';
import { MemoryStorage } from './support/durable-objects.js';
import { popupSecrets, popupStartUrl } from '../server/support/popup-login.js';

const APP = 'http://127.0.0.1:5173';
let emulator: RunningEmulator;
before(async () => {
  emulator = await startEmulator();
});
after(() => emulator.close());

/**
 * ItchOAuthStore objects, one per name, reached through a namespace stand-in. (Unlike
 * ./support/durable-objects.ts it lets a request that waits on no storage run beside others, as
 * the input gate does: a held wait must not hold up the deposit that ends it.)
 */
function namespace(): { namespace: DurableObjectNamespaceLike; requests: () => number } {
  const objects = new Map<string, ItchOAuthStore>();
  let requests = 0;
  const objectOf = (name: string) => {
    let object = objects.get(name);
    if (object === undefined) objects.set(name, (object = new ItchOAuthStore({ storage: new MemoryStorage() })));
    return object;
  };
  return {
    namespace: {
      idFromName: (name) => name,
      get: (id: never) => ({
        fetch: (input: string, init?: RequestInit) => {
          requests++;
          return objectOf(id as string).fetch(new Request(input, init));
        },
      }),
    },
    requests: () => requests,
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Durable Object waiters', () => {
  it('answers a wait for a key written after its mark, at once for one written before, and after its time otherwise', async () => {
    const waiters = new Waiters();
    const mark = waiters.mark();
    waiters.written('a');
    assert.equal(await waiters.wait(['a'], mark, 10_000), true, 'written since the mark: at once');
    const later = waiters.mark();
    const started = performance.now();
    const held = waiters.wait(['a', 'b'], later, 10_000);
    setTimeout(() => waiters.written('c'), 50);
    setTimeout(() => waiters.written('b'), 200);
    assert.equal(await held, true);
    assert.ok(performance.now() - started >= 190, 'another key did not wake it');
    const timed = performance.now();
    await waiters.wait(['z'], waiters.mark(), 100);
    assert.ok(performance.now() - timed >= 95);
  });

  it('answers at once a mark of another run of the object (a restarted object counts from 0 again)', async () => {
    const before = new Waiters().mark();
    assert.equal(await new Waiters().wait(['a'], before, 10_000), true);
  });

  it(`holds at most ${MAX_WAITERS} waits: the next is answered false at once`, async () => {
    const waiters = new Waiters();
    const mark = waiters.mark();
    const held = Array.from({ length: MAX_WAITERS }, (_, i) => waiters.wait([`k${i}`], mark, 60_000));
    assert.equal(await waiters.wait(['x'], mark, 60_000), false);
    for (let i = 0; i < MAX_WAITERS; i++) waiters.written(`k${i}`);
    assert.ok((await Promise.all(held)).every(Boolean));
  });

  it('wakes a collection held by one Worker when the deposit lands through another, with one held request to the object', async () => {
    const { namespace: ns, requests } = namespace();
    const handler = () =>
      createTokenHandler({
        baseUrl: emulator.url,
        apiBaseUrl: emulator.apiUrl,
        applicationId: C.clients.demo.id,
        popup: true,
        store: durableObjectStore(ns),
        onError: () => undefined,
        onLogin: () => ({}),
      });
    const [a, b] = [handler(), handler()];
    const post = (body: unknown, headers: Record<string, string> = {}, url = `${APP}/auth/itch`) =>
      new Request(url, {
        method: 'POST',
        body: JSON.stringify(body),
        headers: { 'Content-Type': 'application/json', Origin: APP, 'Sec-Fetch-Site': 'same-origin', ...headers },
      });
    const { verifier, binding, state } = await popupSecrets();
    await a(new Request(popupStartUrl(APP, state)));
    const bound = await a(post({ popup_bind: state, opener: APP, binding }, {}, popupStartUrl(APP, state)));
    const cookie = bound.headers.get('set-cookie')!.split(';')[0]!;
    assert.equal(wakeOf(durableObjectStore(ns), 'itch-oauth:popup:').kind, 'durable-object');

    let answeredAt = 0;
    const held = b(post({ popup_verifier: verifier }, { Prefer: 'wait=10' })).then((answer) => {
      answeredAt = performance.now();
      return answer;
    });
    await sleep(500);
    const before = requests();
    await sleep(1000);
    assert.equal(requests() - before, 0, 'no request to the object while the wait is held (the object holds it)');
    assert.equal(answeredAt, 0);
    const token = emulator.issueToken({ userId: C.users.gamer, clientId: C.clients.demo.clientId, scopes: 'profile:me' });
    assert.equal((await a(post({ access_token: token, state }, { Cookie: cookie }))).status, 202);
    const depositedAt = performance.now();
    // Told "being checked" first (as an opener is), then asked again telling that: the outcome.
    let answer = await held;
    if (answer.status === 202) {
      assert.deepEqual(await answer.json(), { pending: true, arrived: true, delivering: true });
      answer = await b(post({ popup_verifier: verifier, popup_seen: 'arrived,delivering' }, { Prefer: 'wait=10' }));
      answeredAt = performance.now();
    }
    assert.equal(answer.status, 200, await answer.clone().text());
    assert.ok(answeredAt - depositedAt < 100, `answered ${(answeredAt - depositedAt).toFixed(0)} ms after the deposit`);
  });
});
