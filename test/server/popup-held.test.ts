// The held collection (RFC 7240 `Prefer: wait=N`): the handler answers a held collection the
// moment its login changes, from the store it has: the default in-memory store (in this process),
// a store it can only read (every half second), and a real Redis shared by two instances (a
// deposit on one wakes the collection held on the other). And what a held collection must not
// cost: a collection without `Prefer` is answered at once (an opener from before), a client
// that goes away ends its hold, and no number of held collections holds more than MAX_HELD.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createStorage } from 'unstorage';
import { DEFAULT_SEED_CREDENTIALS as C, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { MAX_HELD, MAX_HELD_PER_CLIENT, MAX_HOLD_S, preferredWait } from '../../src/server/popup/held-collection.js';
import { CHECK_INTERVAL_MS } from '../../src/server/popup/wake.js';
import { createTokenHandler, type TokenHandlerOptions } from '../../src/server/index.js';
import { redisMissing, useRedis } from './support/redis.js';
import { popupSecrets, popupStartUrl } from './support/popup-login.js';

const APP = 'http://127.0.0.1:5173';
const GAME = 'http://localhost:8123';

let emulator: RunningEmulator;
before(async () => {
  emulator = await startEmulator();
});
after(() => emulator.close());

function handlerWith(options: Partial<TokenHandlerOptions> = {}) {
  return createTokenHandler({
    baseUrl: emulator.url,
    apiBaseUrl: emulator.apiUrl,
    applicationId: C.clients.demo.id,
    allowedOrigins: [GAME],
    popup: true,
    onError: () => undefined,
    ...options,
    onLogin: () => ({}),
  });
}

function post(body: unknown, headers: Record<string, string> = {}, url = `${APP}/auth/itch`, signal?: AbortSignal): Request {
  return new Request(url, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'Content-Type': 'application/json', Origin: APP, 'Sec-Fetch-Site': 'same-origin', ...headers },
    signal: signal ?? null,
  });
}

/** A login bound in this browser up to itch.io: its verifier, state and binding cookie. */
async function begun(handler: (request: Request) => Promise<Response>) {
  const { verifier, binding, state } = await popupSecrets();
  const start = popupStartUrl(APP, state);
  assert.equal((await handler(new Request(start, { headers: { 'Sec-Fetch-Site': 'cross-site' } }))).status, 200);
  const bind = await handler(post({ popup_bind: state, opener: APP, binding }, {}, start));
  const cookie = bind.headers.get('set-cookie')!.split(';')[0]!;
  return { verifier, state, cookie };
}

const token = () => emulator.issueToken({ userId: C.users.gamer, clientId: C.clients.demo.clientId, scopes: 'profile:me' });
const deposit = (state: string, cookie: string) => post({ access_token: token(), state }, { Cookie: cookie });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Holds a collection on `collector` as an opener does (asked again at once, telling what it read,
 * until the outcome), deposits through `depositor` after 300 ms, and resolves with the outcome
 * and how long after the deposit's answer it came.
 */
async function depositWhileHeld(collector: (request: Request) => Promise<Response>, depositor: (request: Request) => Promise<Response>) {
  const { verifier, state, cookie } = await begun(depositor);
  let answeredAt = 0;
  let questions = 0;
  const opener = (async () => {
    for (let seen: string | undefined; ;) {
      questions++;
      const answer = await collector(
        post(seen === undefined ? { popup_verifier: verifier } : { popup_verifier: verifier, popup_seen: seen }, { Prefer: 'wait=10' }),
      );
      if (answer.status !== 202) {
        answeredAt = performance.now();
        return answer;
      }
      const body = (await answer.json()) as Record<string, unknown>;
      seen = ['arrived', 'confirm', 'delivering', 'unavailable'].filter((flag) => body[flag] === true).join(',');
    }
  })();
  await sleep(300);
  assert.equal(questions, 1, 'the collection is held while nothing happened');
  const deposited = await depositor(deposit(state, cookie));
  const depositedAt = performance.now();
  assert.equal(deposited.status, 202);
  const answer = await opener;
  return { answer, lag: answeredAt - depositedAt, questions };
}

describe('held collection: Prefer, Preference-Applied', () => {
  it('reads the wait preference of a Prefer header (RFC 7240: several preferences, any case, parameters)', () => {
    assert.equal(preferredWait('wait=25'), 25);
    assert.equal(preferredWait('respond-async, WAIT = 10; foo'), 10);
    assert.equal(preferredWait('wait="7"'), 7);
    assert.equal(preferredWait('return=minimal'), undefined);
    assert.equal(preferredWait(null), undefined);
  });

  it('answers a held collection the moment the deposit lands, saying the wait it applied', async () => {
    const handler = handlerWith();
    const { answer, lag, questions } = await depositWhileHeld(handler, handler);
    assert.equal(answer.status, 200, await answer.clone().text());
    assert.equal(answer.headers.get('preference-applied'), 'wait=10');
    assert.ok(lag < 50, `answered ${lag.toFixed(0)} ms after the deposit`);
    // The held one, the one after "being checked", which the outcome answered.
    assert.equal(questions, 2);
  });

  it(`caps the wait at ${MAX_HOLD_S} s and answers the usual 202 when it is over`, async () => {
    const handler = handlerWith();
    const { verifier } = await begun(handler);
    const capped = await handler(post({ popup_verifier: verifier }, { Prefer: 'wait=600' }, undefined, AbortSignal.timeout(200)));
    assert.equal(capped.headers.get('preference-applied'), `wait=${MAX_HOLD_S}`);
    const started = performance.now();
    const over = await handler(post({ popup_verifier: verifier }, { Prefer: 'wait=1' }));
    const took = performance.now() - started;
    assert.equal(over.status, 202);
    assert.deepEqual(await over.json(), { pending: true });
    assert.equal(over.headers.get('preference-applied'), 'wait=1');
    assert.ok(took >= 950 && took < 1500, `held ${took.toFixed(0)} ms`);
  });

  it('answers a collection without Prefer at once, as before (an opener from before holding)', async () => {
    const handler = handlerWith();
    const { verifier, state, cookie } = await begun(handler);
    const started = performance.now();
    const pending = await handler(post({ popup_verifier: verifier }));
    assert.ok(performance.now() - started < 100);
    assert.equal(pending.status, 202);
    assert.equal(pending.headers.get('preference-applied'), null);
    await handler(deposit(state, cookie));
    assert.equal((await handler(post({ popup_verifier: verifier }))).status, 200);
  });

  it('answers at once what changed since the opener last read (popup_seen), and holds while it is what the opener read', async () => {
    const handler = handlerWith({ popup: { severedOpener: 'confirm' } });
    const { verifier } = await begun(handler);
    // The start page noted "confirm a code": an opener that read nothing learns it at once.
    const started = performance.now();
    const news = await handler(post({ popup_verifier: verifier }, { Prefer: 'wait=5' }));
    assert.ok(performance.now() - started < 200);
    assert.deepEqual(await news.json(), { pending: true, arrived: true, confirm: true });
    const known = await handler(post({ popup_verifier: verifier, popup_seen: 'confirm,arrived' }, { Prefer: 'wait=1' }));
    assert.ok(performance.now() - started > 1000, 'what it read is held');
    assert.deepEqual(await known.json(), { pending: true, arrived: true, confirm: true });
  });

  it('answers a held collection when its deposit starts being checked (delivering), not only at the outcome', async () => {
    const slowItch = handlerWith({
      fetch: async (url, init) => {
        await sleep(500);
        return fetch(url, init);
      },
    });
    const { verifier, state, cookie } = await begun(slowItch);
    const held = slowItch(post({ popup_verifier: verifier }, { Prefer: 'wait=10' }));
    await sleep(100);
    const started = performance.now();
    const deposited = slowItch(deposit(state, cookie));
    const answer = await held;
    assert.ok(performance.now() - started < 300, 'before itch.io answered');
    assert.deepEqual(await answer.json(), { pending: true, arrived: true, delivering: true });
    assert.equal((await deposited).status, 202);
  });

  it('ends a hold when the client goes away', async () => {
    const handler = handlerWith();
    const { verifier } = await begun(handler);
    const gone = new AbortController();
    const started = performance.now();
    const held = handler(post({ popup_verifier: verifier }, { Prefer: 'wait=20' }, undefined, gone.signal));
    setTimeout(() => gone.abort(), 200);
    await held;
    assert.ok(performance.now() - started < 500, `ended ${(performance.now() - started).toFixed(0)} ms after`);
  });

  it(`holds at most ${MAX_HELD} collections at once: the next one is answered at once, without Preference-Applied`, async () => {
    const handler = handlerWith();
    const { verifier } = await begun(handler);
    const gone = new AbortController();
    const holding = Array.from({ length: MAX_HELD }, () =>
      handler(post({ popup_verifier: verifier }, { Prefer: 'wait=20' }, undefined, gone.signal)),
    );
    let released = false;
    void Promise.all(holding).then(() => (released = true));
    await sleep(1000);
    const extra = await handler(post({ popup_verifier: verifier }, { Prefer: 'wait=20' }));
    assert.equal(released, false, 'answered while the others are held');
    assert.equal(extra.status, 202);
    assert.equal(extra.headers.get('preference-applied'), null);
    gone.abort();
    await Promise.all(holding);
    const after = await handler(post({ popup_verifier: verifier }, { Prefer: 'wait=1' }));
    assert.equal(after.headers.get('preference-applied'), 'wait=1', 'the held ones were let go');
  });

  it(`holds at most ${MAX_HELD_PER_CLIENT} collections of one client address: another address is still held`, async () => {
    // The address as a proxy of the site's wrote it (clientAddress), and a flood from one of them.
    const handler = handlerWith({ clientAddress: (request) => request.headers.get('x-test-client') });
    const { verifier } = await begun(handler);
    const gone = new AbortController();
    const flood = { Prefer: 'wait=20', 'X-Test-Client': '203.0.113.7' };
    const holding = Array.from({ length: MAX_HELD_PER_CLIENT }, () =>
      handler(post({ popup_verifier: verifier }, flood, undefined, gone.signal)),
    );
    await sleep(500);
    const over = await handler(post({ popup_verifier: verifier }, flood));
    assert.equal(over.status, 202);
    assert.equal(over.headers.get('preference-applied'), null, 'the flooding address held one more');
    const player = await handler(post({ popup_verifier: verifier }, { Prefer: 'wait=1', 'X-Test-Client': '198.51.100.20' }));
    assert.equal(player.headers.get('preference-applied'), 'wait=1', 'another address was not held');
    gone.abort();
    await Promise.all(holding);
    const later = await handler(post({ popup_verifier: verifier }, { ...flood, Prefer: 'wait=1' }));
    assert.equal(later.headers.get('preference-applied'), 'wait=1', 'the address got its places back');
  });

  it('lets a framed game ask to hold (a CORS preflight allows Prefer) and read Preference-Applied', async () => {
    const handler = handlerWith();
    const preflight = await handler(
      new Request(`${APP}/auth/itch`, {
        method: 'OPTIONS',
        headers: { Origin: GAME, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type,prefer' },
      }),
    );
    assert.equal(preflight.status, 204);
    assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /\bPrefer\b/);
    const { verifier } = await begun(handler);
    const answer = await handler(post({ popup_verifier: verifier }, { Origin: GAME, Prefer: 'wait=1', 'Sec-Fetch-Site': 'cross-site' }));
    assert.equal(answer.headers.get('access-control-expose-headers'), 'Preference-Applied, DPoP-Nonce');
  });

  it(`reads a store it cannot be woken by every ${CHECK_INTERVAL_MS} ms: two instances, the deposit on one, the collection held on the other`, async () => {
    // An unstorage driver the handler knows nothing of, shared by two instances.
    const entries = new Map<string, unknown>();
    const driver = {
      name: 'some-kv',
      hasItem: (key: string) => entries.has(key),
      getItem: (key: string) => entries.get(key) ?? null,
      setItem: (key: string, value: unknown) => void entries.set(key, value),
      removeItem: (key: string) => void entries.delete(key),
      getKeys: () => [...entries.keys()],
      clear: () => entries.clear(),
    };
    const a = handlerWith({ store: createStorage({ driver }) });
    const b = handlerWith({ store: createStorage({ driver }) });
    const { answer, lag } = await depositWhileHeld(b, a);
    assert.equal(answer.status, 200);
    assert.ok(lag < CHECK_INTERVAL_MS + 100, `answered ${lag.toFixed(0)} ms after the deposit`);
  });
});

describe('held collection in a real Redis shared by two handler instances', { skip: redisMissing }, () => {
  const redis = useRedis('itch-held');

  it('wakes the collection held on one instance when the deposit lands on the other (PUBLISH/SUBSCRIBE)', async () => {
    const a = handlerWith({ store: (await redis.store()).store });
    const b = handlerWith({ store: (await redis.store()).store });
    // The first hold opens b's subscription; the ones after find it up.
    const lags: number[] = [];
    for (let run = 0; run < 5; run++) {
      const { answer, lag } = await depositWhileHeld(b, a);
      assert.equal(answer.status, 200, await answer.clone().text());
      lags.push(lag);
    }
    assert.ok(Math.max(...lags.slice(1)) < 100, `answered ${lags.map((lag) => lag.toFixed(0)).join(', ')} ms after the deposits`);
  });
});
