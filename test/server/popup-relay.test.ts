// The popup relay of createTokenHandler against the emulator: the popup deposits, only the holder
// of the verifier collects, once; onLogin runs on the collecting request. Then two handler
// instances sharing a real Redis (Debian's redis-server, started here on a free port), and Redis
// going down.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createStorage } from 'unstorage';
import redisDriver from 'unstorage/drivers/redis';
import { DEFAULT_SEED_CREDENTIALS as C, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { popupStateOf } from '../../src/core/state.js';
import { createTokenHandler, type LoginContext, type TokenHandlerOptions } from '../../src/server/index.js';

const APP = 'http://127.0.0.1:5173';
const GAME = 'http://localhost:8123';

let emulator: RunningEmulator;
before(async () => {
  emulator = await startEmulator();
});
after(() => emulator.close());

const token = (scopes = 'profile:me'): string => emulator.issueToken({ userId: C.users.gamer, clientId: C.clients.demo.clientId, scopes });

function handlerWith(options: Partial<TokenHandlerOptions> = {}) {
  const logins: LoginContext[] = [];
  const handler = createTokenHandler({
    baseUrl: emulator.url,
    apiBaseUrl: emulator.apiUrl,
    applicationId: C.clients.demo.id,
    allowedOrigins: [GAME],
    ...options,
    onLogin: (login) => {
      logins.push(login);
      return { headers: { 'Set-Cookie': `sid=${login.user.id}; HttpOnly; Path=/` } };
    },
  });
  return { handler, logins };
}

function post(body: unknown, origin = APP, site = 'same-origin'): Request {
  return new Request(`${APP}/auth/itch`, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'Content-Type': 'application/json', Origin: origin, 'Sec-Fetch-Site': site },
  });
}

async function pair(): Promise<{ verifier: string; state: string }> {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, state: await popupStateOf(verifier) };
}

describe('popup relay: deposit and collection', () => {
  it('releases the login once, to the verifier, and runs onLogin then with the collecting request', async () => {
    const { handler, logins } = handlerWith();
    const { verifier, state } = await pair();
    assert.deepEqual(await (await handler(post({ popup_verifier: verifier }))).json(), { pending: true });

    const deposit = await handler(post({ access_token: token(), state }));
    assert.equal(deposit.status, 202);
    assert.equal(logins.length, 0, 'onLogin waits for the collection');

    const collect = post({ popup_verifier: verifier }, GAME, 'cross-site');
    const collected = await handler(collect);
    assert.equal(collected.status, 200);
    assert.equal(((await collected.json()) as { user: { username: string } }).user.username, 'mossy');
    assert.equal(collected.headers.get('set-cookie'), `sid=${C.users.gamer}; HttpOnly; Path=/`);
    assert.equal(collected.headers.get('access-control-allow-origin'), GAME);
    assert.equal(logins.length, 1);
    assert.equal(logins[0]?.request, collect);

    assert.deepEqual(await (await handler(post({ popup_verifier: verifier }))).json(), { pending: true }, 'collected once');
    assert.equal(logins.length, 1);
  });

  it('tells the collector that a deposit is being checked, so that it waits for a popup it saw close', async () => {
    const slowFetch = (async (input: string, init: RequestInit) => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      return fetch(input, init);
    }) as TokenHandlerOptions['fetch'];
    const { handler } = handlerWith({ fetch: slowFetch });
    const { verifier, state } = await pair();
    const deposit = handler(post({ access_token: token(), state }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(await (await handler(post({ popup_verifier: verifier }))).json(), { pending: true, delivering: true });
    assert.equal((await deposit).status, 202);
    assert.equal((await handler(post({ popup_verifier: verifier }))).status, 200);
  });

  it('gives nothing to another verifier, even one that knows the state', async () => {
    const { handler, logins } = handlerWith();
    const { state } = await pair();
    assert.equal((await handler(post({ access_token: token(), state }))).status, 202);
    const other = await pair();
    assert.equal((await handler(post({ popup_verifier: other.verifier }))).status, 202);
    assert.equal(logins.length, 0);
  });

  it('keeps the first deposit: a second one for the same state is 409', async () => {
    const { handler } = handlerWith();
    const { verifier, state } = await pair();
    assert.equal((await handler(post({ access_token: token(), state }))).status, 202);
    assert.equal((await handler(post({ access_token: token(), state }))).status, 409);
    assert.equal((await handler(post({ popup_verifier: verifier }))).status, 200);
  });

  it('hands a refused token to both the popup and the collector, never calling onLogin', async () => {
    const { handler, logins } = handlerWith();
    const { verifier, state } = await pair();
    const deposit = await handler(post({ access_token: 'f'.repeat(40), state }));
    assert.equal(deposit.status, 401);
    const collected = await handler(post({ popup_verifier: verifier }));
    assert.equal(collected.status, 401);
    assert.deepEqual(await collected.json(), { errors: ['itch.io did not accept the access token'] });
    assert.equal(logins.length, 0);
  });

  it('answers a CORS preflight of a listed game origin, and refuses one that is not listed', async () => {
    const { handler } = handlerWith();
    const preflight = (origin: string) =>
      handler(
        new Request(`${APP}/auth/itch`, {
          method: 'OPTIONS',
          headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type', 'Sec-Fetch-Site': 'cross-site' },
        }),
      );
    const allowed = await preflight(GAME);
    assert.equal(allowed.status, 204);
    assert.equal(allowed.headers.get('access-control-allow-origin'), GAME);
    assert.match(allowed.headers.get('access-control-allow-headers') ?? '', /content-type/i);
    assert.equal((await preflight('http://127.0.0.9:1')).status, 403);
  });
});

/** A free TCP port on loopback. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Debian's redis-server on a free port, without persistence; resolves when it accepts connections. */
async function startRedis(port: number): Promise<ChildProcess> {
  const redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    redis.once('error', reject);
    redis.once('exit', (code) => reject(new Error(`redis-server exited with ${code}`)));
    redis.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('Ready to accept connections')) resolve();
    });
  });
  return redis;
}

async function stopRedis(redis: ChildProcess): Promise<void> {
  if (redis.exitCode !== null) return;
  const exited = new Promise((resolve) => redis.once('exit', resolve));
  redis.kill('SIGTERM');
  await exited;
}

// Skipped, saying why, on a machine without redis-server; .ci/run installs it and sets
// ITCH_REQUIRE_REDIS so that CI never skips it.
const redisMissing = spawnSync('redis-server', ['--version']).error !== undefined && process.env['ITCH_REQUIRE_REDIS'] !== '1';

describe('popup relay in a real Redis shared by two handler instances', { skip: redisMissing && 'redis-server is not installed (apt-get install redis-server, brew install redis)' }, () => {
  let port: number;
  let redis: ChildProcess;
  const stores: ReturnType<typeof createStorage>[] = [];
  // Fail at once when Redis is down instead of queueing commands until it returns.
  const redisStore = async () => {
    const driver = redisDriver({ host: '127.0.0.1', port, base: 'itch-test', preConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false });
    const client = driver.getInstance!() as import('ioredis').Redis;
    client.on('error', () => undefined); // reported as 503 answers, not as unhandled events
    if (client.status !== 'ready') await new Promise((resolve) => client.once('ready', resolve));
    const store = createStorage({ driver });
    stores.push(store);
    return store;
  };

  before(async () => {
    port = await freePort();
    redis = await startRedis(port);
  });
  after(async () => {
    await Promise.all(stores.map((store) => store.dispose()));
    await stopRedis(redis);
  });

  it('deposits through one instance and collects through the other, once', async () => {
    const a = handlerWith({ store: await redisStore() });
    const b = handlerWith({ store: await redisStore() });
    const { verifier, state } = await pair();
    assert.equal((await a.handler(post({ access_token: token(), state }))).status, 202);
    assert.equal((await a.handler(post({ access_token: token(), state }))).status, 409, 'the other instance sees the first deposit too');
    const collected = await b.handler(post({ popup_verifier: verifier }));
    assert.equal(collected.status, 200, await collected.clone().text());
    assert.equal((await a.handler(post({ popup_verifier: verifier }))).status, 202, 'and it is gone for both');
    assert.deepEqual([a.logins.length, b.logins.length], [0, 1]);
  });

  it('answers 503 while Redis is down, never logging anyone in', async () => {
    const a = handlerWith({ store: await redisStore() });
    await stopRedis(redis);
    const { verifier, state } = await pair();
    const deposit = await a.handler(post({ access_token: token(), state }));
    assert.equal(deposit.status, 503);
    assert.deepEqual(await deposit.json(), { errors: ['the login store is unavailable: try again in a moment'] });
    assert.equal((await a.handler(post({ popup_verifier: verifier }))).status, 503);
    assert.equal(a.logins.length, 0);
  });
});
