// The token handler's rate limits and its economy of calls to itch.io, against the emulator, with
// the calls counted where they leave the handler (its `fetch`). What an attacker cannot get: a
// flood of made-up tokens from one address costs itch.io a few dozen calls, not one each (itch.io
// throttles the site, then no player can log in); a rejected token costs one call however many
// clients send it; the site never asks itch.io more than its ceiling; two instances on one Redis
// count together; a request over a limit stores nothing; and honest players elsewhere still log in.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Storage } from 'unstorage';
import { DEFAULT_SEED_CREDENTIALS as C, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { memoryPopupStore } from '../../src/server/popup/relay.js';
import { clientKey } from '../../src/server/rate-limit/client-address.js';
import { createTokenHandler, type TokenHandlerOptions } from '../../src/server/index.js';
import { DEFAULT_RATE_LIMITS } from '../../src/server/rate-limit/options.js';
import { redisMissing, useRedis } from './support/redis.js';
import { durableObjectStore, ItchOAuthStore } from '../../src/cloudflare/index.js';
import { memoryNamespace, type StoreClass } from '../cloudflare/support/durable-objects.js';
import { popupSecrets, popupStartUrl } from './support/popup-login.js';

const APP = 'http://127.0.0.1:5173';
/** Where the tests' "socket address" travels: the handler reads it through `clientAddress`. */
const CLIENT = 'x-test-client';

let emulator: RunningEmulator;
before(async () => {
  emulator = await startEmulator();
});
after(() => emulator.close());

const honestToken = (): string => emulator.issueToken({ userId: C.users.gamer, clientId: C.clients.demo.clientId, scopes: 'profile:me' });
const madeUp = (): string => randomBytes(24).toString('base64url');

function handlerWith(options: Partial<TokenHandlerOptions> = {}) {
  /** Every call to itch.io's credentials/info, with the second it left in. */
  const checks: number[] = [];
  const handler = createTokenHandler({
    baseUrl: emulator.url,
    apiBaseUrl: emulator.apiUrl,
    applicationId: C.clients.demo.id,
    onError: () => undefined,
    clientAddress: (request) => request.headers.get(CLIENT),
    fetch: (url, init) => {
      if (url.endsWith('/credentials/info')) checks.push(Math.floor(Date.now() / 1000));
      return fetch(url, init);
    },
    onLogin: ({ user }) => ({ headers: { 'Set-Cookie': `sid=${user.id}; HttpOnly; Path=/` } }),
    ...options,
  });
  return { handler, checks };
}

/** A browser's POST of `body` from `client`. */
function post(body: unknown, client?: string, headers: Record<string, string> = {}, url = `${APP}/auth/itch`): Request {
  const sent: Record<string, string> = { 'Content-Type': 'application/json', Origin: APP, 'Sec-Fetch-Site': 'same-origin', ...headers };
  if (client !== undefined) sent[CLIENT] = client;
  return new Request(url, { method: 'POST', body: JSON.stringify(body), headers: sent });
}

const login = (token: string, client?: string) => post({ access_token: token }, client);

/** How many answers had each status. */
function statuses(answers: Response[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const answer of answers) counts[answer.status] = (counts[answer.status] ?? 0) + 1;
  return counts;
}

/** A 429 as the browser reads it: `Retry-After` (seconds, within the minute) and `service_unavailable`. */
async function assertTooMany(answer: Response): Promise<void> {
  assert.equal(answer.status, 429);
  const retryAfter = Number(answer.headers.get('retry-after'));
  assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After: ${answer.headers.get('retry-after')}`);
  assert.equal(((await answer.json()) as { code?: string }).code, 'service_unavailable');
}

describe('rate limits: a flood from one address', () => {
  it('500 made-up tokens in a burst cost itch.io a few dozen calls, the rest 429; another client logs in right after', async (t) => {
    const { handler, checks } = handlerWith();
    const answers = await Promise.all(Array.from({ length: 500 }, () => handler(login(madeUp(), '203.0.113.7'))));
    const counts = statuses(answers);
    assert.ok(checks.length <= DEFAULT_RATE_LIMITS.unverifiedTokens, `${checks.length} calls to itch.io`);
    t.diagnostic(`${checks.length} calls to itch.io for 500 tokens`);
    assert.equal(counts[401], checks.length, 'each call refused one token');
    assert.equal(counts[429], 500 - checks.length, JSON.stringify(counts));
    for (const answer of answers.filter((answer) => answer.status === 429)) await assertTooMany(answer);
    // The flooder's next token is refused too, without a call.
    await assertTooMany(await handler(login(madeUp(), '203.0.113.7')));
    assert.ok(checks.length <= DEFAULT_RATE_LIMITS.unverifiedTokens);

    const honest = await handler(login(honestToken(), '198.51.100.20'));
    assert.equal(honest.status, 200, await honest.clone().text());
  });

  it('30 honest players behind one address, all logging in at once, all log in', async () => {
    const { handler } = handlerWith();
    const answers = await Promise.all(Array.from({ length: 30 }, () => handler(login(honestToken(), '192.0.2.30'))));
    assert.deepEqual(statuses(answers), { 200: 30 });
  });

  it("an accepted token gives its check back: an address's honest logins never run out of checks", async () => {
    const { handler } = handlerWith({ rateLimit: { unverifiedTokens: 2 } });
    for (let i = 0; i < 6; i++) assert.equal((await handler(login(honestToken(), '192.0.2.31'))).status, 200);
  });

  it('counts an IPv6 client by its /64: fresh addresses in it get no fresh count', async () => {
    const { handler, checks } = handlerWith({ rateLimit: { unverifiedTokens: 5 } });
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => handler(login(madeUp(), `2001:db8:0:7::${i.toString(16)}`))));
    assert.equal(checks.length, 5);
    assert.equal(statuses(answers)[429], 35);
  });

  it('says nothing of a client it cannot tell apart: without an address, only the limits of every client together apply', async () => {
    const { handler } = handlerWith({ rateLimit: { tokens: 2 }, clientAddress: () => undefined });
    for (let i = 0; i < 4; i++) assert.equal((await handler(login(honestToken()))).status, 200);
  });

  it('rateLimit: false turns them off', async () => {
    const { handler, checks } = handlerWith({ rateLimit: false });
    const answers = await Promise.all(Array.from({ length: 60 }, () => handler(login(madeUp(), '203.0.113.8'))));
    assert.deepEqual(statuses(answers), { 401: 60 });
    assert.equal(checks.length, 60);
  });
});

describe('itch.io asked once per token', () => {
  it('the same rejected token from ten clients at once is one call', async () => {
    const { handler, checks } = handlerWith();
    const token = madeUp();
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => handler(login(token, `198.51.100.${i + 1}`))));
    assert.deepEqual(statuses(answers), { 401: 10 });
    assert.equal(checks.length, 1);
  });

  it('the same rejected token from ten clients one after another is one call', async () => {
    const { handler, checks } = handlerWith();
    const token = madeUp();
    for (let i = 0; i < 10; i++) assert.equal((await handler(login(token, `198.51.100.${i + 20}`))).status, 401);
    assert.equal(checks.length, 1);
  });

  it('a token of another application is remembered as refused too', async () => {
    const { handler, checks } = handlerWith();
    const token = emulator.issueToken({ userId: C.users.gamer, clientId: C.clients.other.clientId, scopes: 'profile:me' });
    for (let i = 0; i < 3; i++) assert.equal((await handler(login(token, `198.51.100.${i + 40}`))).status, 403);
    assert.equal(checks.length, 1);
  });

  it('ten logins at once with one good token make one check, and each gets its login', async () => {
    const { handler, checks } = handlerWith();
    const token = honestToken();
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => handler(login(token, `198.51.100.${i + 60}`))));
    assert.deepEqual(statuses(answers), { 200: 10 });
    assert.equal(checks.length, 1);
  });

  it('a good token is checked again on its next login (a revoked one then fails)', async () => {
    const { handler, checks } = handlerWith();
    const token = honestToken();
    assert.equal((await handler(login(token, '198.51.100.80'))).status, 200);
    assert.equal((await handler(login(token, '198.51.100.80'))).status, 200);
    assert.equal(checks.length, 2);
  });
});

describe('the ceiling of calls to itch.io', () => {
  it('never asks itch.io more than itchCallsPerSecond, whatever the number of clients; the others get 503 with Retry-After', async () => {
    const { handler, checks } = handlerWith({ rateLimit: { itchCallsPerSecond: 5 } });
    // 5 a second for the 5 seconds a call may wait for room: about 25 of them are made.
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => handler(login(madeUp(), `198.51.100.${i + 100}`))));
    const perSecond = [...new Set(checks)].map((second) => checks.filter((other) => other === second).length);
    assert.ok(Math.max(...perSecond) <= 5, `calls per second: ${perSecond.join(', ')}`);
    const counts = statuses(answers);
    assert.equal(counts[401], checks.length);
    assert.equal(counts[503], 60 - checks.length);
    const refused = answers.find((answer) => answer.status === 503)!;
    assert.equal(refused.headers.get('retry-after'), '1');
    assert.equal(((await refused.json()) as { code?: string }).code, 'service_unavailable');
  });
});

/** A popup login bound in this browser, from `client`: its state and binding cookie. */
async function boundPopup(handler: (request: Request) => Promise<Response>, client: string) {
  const { verifier, binding, state } = await popupSecrets();
  const startUrl = popupStartUrl(APP, state);
  const start = (from = client) => handler(new Request(startUrl, { headers: { 'Sec-Fetch-Site': 'cross-site', [CLIENT]: from } }));
  assert.equal((await start()).status, 200);
  const bind = await handler(post({ popup_bind: state, opener: APP, binding }, client, {}, startUrl));
  assert.equal(bind.status, 200, await bind.clone().text());
  const cookie = bind.headers.get('set-cookie')!.split(';')[0]!;
  return { verifier, state, cookie, start };
}

/** The store's keys but the rate limits' counts. */
async function keptKeys(store: Storage): Promise<string[]> {
  return (await store.getKeys()).filter((key) => !key.startsWith('itch-oauth:rate:')).sort();
}

describe('rate limits: the popup routes', () => {
  it('a deposit over the limit is 429: no call to itch.io, nothing stored', async () => {
    const store = memoryPopupStore();
    const { handler, checks } = handlerWith({ popup: true, store, rateLimit: { tokens: 2 } });
    const client = '203.0.113.50';
    const { state, cookie } = await boundPopup(handler, client);
    const deposit = () => post({ access_token: madeUp(), state }, client, { Cookie: cookie });
    for (let i = 0; i < 2; i++) assert.equal((await handler(deposit())).status, 401);
    const kept = await keptKeys(store);
    const notices = await Promise.all(kept.map((key) => store.getItem(key)));
    const calls = checks.length;
    await assertTooMany(await handler(deposit()));
    assert.equal(checks.length, calls, 'itch.io was not asked');
    assert.deepEqual(await keptKeys(store), kept);
    assert.deepEqual(await Promise.all(kept.map((key) => store.getItem(key))), notices, 'nothing stored');
  });

  it('start pages over the limit get the busy page (429, Retry-After); bindings and collections too', async () => {
    const { handler } = handlerWith({ popup: true, rateLimit: { popupStarts: 4, popupCollections: 3 } });
    const client = '203.0.113.51';
    const { verifier, start } = await boundPopup(handler, client);
    assert.equal((await start()).status, 200);
    assert.equal((await start()).status, 200);
    const page = await start();
    assert.equal(page.status, 429);
    assert.match(page.headers.get('content-type') ?? '', /text\/html/);
    assert.ok(Number(page.headers.get('retry-after')) >= 1);
    assert.equal((await start('203.0.113.52')).status, 200, 'another client is not limited');

    for (let i = 0; i < 3; i++) assert.equal((await handler(post({ popup_verifier: verifier }, client))).status, 202);
    await assertTooMany(await handler(post({ popup_verifier: verifier }, client)));
  });
});

describe('rate limits: where the client address comes from', () => {
  const workers = (run: () => Promise<void>) => async () => {
    const had = Object.getOwnPropertyDescriptor(globalThis, 'navigator');
    Object.defineProperty(globalThis, 'navigator', { value: { userAgent: 'Cloudflare-Workers' }, configurable: true });
    try {
      await run();
    } finally {
      if (had === undefined) delete (globalThis as { navigator?: unknown }).navigator;
      else Object.defineProperty(globalThis, 'navigator', had);
    }
  };
  const cf = (token: string, address: string) => post({ access_token: token }, undefined, { 'CF-Connecting-IP': address });

  it(
    'on Cloudflare Workers, reads CF-Connecting-IP by default',
    workers(async () => {
      const { handler } = handlerWith({ clientAddress: undefined, rateLimit: { tokens: 2 } });
      assert.equal((await handler(cf(honestToken(), '203.0.113.60'))).status, 200);
      assert.equal((await handler(cf(honestToken(), '203.0.113.60'))).status, 200);
      await assertTooMany(await handler(cf(honestToken(), '203.0.113.60')));
      assert.equal((await handler(cf(honestToken(), '203.0.113.61'))).status, 200);
    }),
  );

  it('anywhere else, never reads CF-Connecting-IP, which any client writes', async () => {
    const { handler } = handlerWith({ clientAddress: undefined, rateLimit: { tokens: 2 } });
    for (let i = 0; i < 4; i++) assert.equal((await handler(cf(honestToken(), '203.0.113.60'))).status, 200);
  });

  it('keys an address the way one client holds it', () => {
    assert.equal(clientKey('::ffff:192.0.2.1'), '192.0.2.1');
    assert.equal(clientKey('2001:DB8:0:7:1:2:3:4'), '2001:db8:0:7::/64');
    assert.equal(clientKey('2001:db8::1'), '2001:db8:0:0::/64');
    assert.equal(clientKey('fe80::1%eth0'), 'fe80:0:0:0::/64');
    assert.equal(clientKey(' 192.0.2.1 '), '192.0.2.1');
    assert.equal(clientKey(''), undefined);
    assert.equal(clientKey(null), undefined);
  });

  it('refuses malformed options at creation, naming them', () => {
    const make = (options: Partial<TokenHandlerOptions>) => () => handlerWith(options);
    assert.throws(make({ rateLimit: { tokens: 0 } }), /rateLimit\.tokens must be a positive integer/);
    assert.throws(make({ rateLimit: { tokns: 3 } as never }), /rateLimit has no limit tokns/);
    assert.throws(make({ rateLimit: 'on' as never }), /rateLimit must be false, or an object/);
    assert.throws(make({ clientAddress: 'x-forwarded-for' as never }), /clientAddress must be a function/);
  });
});

describe('rate limits: two instances sharing a real Redis', { skip: redisMissing }, () => {
  const redis = useRedis('itch-rate');

  it('count together: a flood spread over both instances gets no more checks than from one', async () => {
    const { store } = await redis.store();
    const a = handlerWith({ store, rateLimit: { unverifiedTokens: 10 } });
    const b = handlerWith({ store, rateLimit: { unverifiedTokens: 10 } });
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 ? a : b).handler(login(madeUp(), '203.0.113.70'))));
    assert.equal(a.checks.length + b.checks.length, 10, `${a.checks.length} + ${b.checks.length} calls`);
    assert.equal(statuses(answers)[429], 50);
    assert.equal((await b.handler(login(honestToken(), '203.0.113.71'))).status, 200);
  });

  it('count alone, loudly, while Redis is down: neither an open door nor a closed one', async (t) => {
    const { store } = await redis.store();
    const warnings: string[] = [];
    t.mock.method(console, 'warn', (message: string) => void warnings.push(message));
    const a = handlerWith({ store, rateLimit: { unverifiedTokens: 10 } });
    await redis.stop();
    const flood = await Promise.all(Array.from({ length: 30 }, () => a.handler(login(madeUp(), '203.0.113.72'))));
    assert.equal(a.checks.length, 10, 'this instance still limits');
    assert.equal(statuses(flood)[429], 20);
    assert.equal((await a.handler(login(honestToken(), '203.0.113.73'))).status, 200, 'an honest player still logs in');
    assert.equal(warnings.filter((warning) => /the store failed/.test(warning)).length, 1, warnings.join('\n'));
  });
});

describe('rate limits: two Workers instances sharing the Durable Object store', () => {
  it('count together, atomically, one request to the store per count', async () => {
    const namespace = memoryNamespace(ItchOAuthStore as unknown as StoreClass);
    const a = handlerWith({ store: durableObjectStore(namespace as never), rateLimit: { unverifiedTokens: 10 } });
    const b = handlerWith({ store: durableObjectStore(namespace as never), rateLimit: { unverifiedTokens: 10 } });
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).handler(login(madeUp(), '203.0.113.80'))));
    assert.equal(a.checks.length + b.checks.length, 10, `${a.checks.length} + ${b.checks.length} calls`);
    assert.equal(statuses(answers)[429], 30);
    const counts = namespace.requests.filter(({ operation }) => operation.key?.startsWith('itch-oauth:rate:'));
    assert.ok(counts.length > 0 && counts.every(({ operation }) => operation.op === 'increment'), JSON.stringify(counts.slice(0, 3)));
  });
});
