// Sessions across server instances that share nothing but the secret: two separate processes
// (test/server/support/session-instance.ts) taking requests in turn, as behind a round-robin
// proxy: 1,000 logins, every session read on both, one instance restarted, every session still
// read. With a real Redis as `store`: a logout on one instance ends the session on the other at
// its next request.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { DEFAULT_SEED_CREDENTIALS as C, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { freePort, redisMissing, startRedis, stopRedis } from './support/redis.js';

/** The site's public origin, as browsers see it (the proxy's). */
const SITE = 'https://starfall.example';
const SECRET = randomBytes(32).toString('base64url');

let emulator: RunningEmulator;
before(async () => {
  emulator = await startEmulator();
});
after(() => emulator.close());

interface Instance {
  process: ChildProcess;
  url: string;
}

async function startInstance(extra: Record<string, string> = {}): Promise<Instance> {
  const child = spawn(process.execPath, ['--import', 'tsx', new URL('./support/session-instance.ts', import.meta.url).pathname], {
    env: {
      ...process.env,
      SESSION_SECRET: SECRET,
      APPLICATION_ID: String(C.clients.demo.id),
      ITCH_URL: emulator.url,
      ITCH_API_URL: emulator.apiUrl,
      SITE,
      ...extra,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the instance exited with ${code}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      const match = /listening (\d+)/.exec(chunk.toString());
      if (match) resolve(match[1]!);
    });
  });
  return { process: child, url: `http://127.0.0.1:${port}` };
}

async function stopInstance(instance: Instance): Promise<void> {
  if (instance.process.exitCode !== null) return;
  const exited = new Promise((resolve) => instance.process.once('exit', resolve));
  instance.process.kill('SIGTERM');
  await exited;
}

/** What the browser sends to the site behind the proxy. */
const browser = (cookie?: string): Record<string, string> => ({
  Origin: SITE,
  'Sec-Fetch-Site': 'same-origin',
  ...(cookie ? { Cookie: cookie } : {}),
});

/** A login through `instance`: the session cookie it set (name=value). */
async function logIn(instance: Instance, userId: number): Promise<string> {
  const accessToken = emulator.issueToken({ userId, clientId: C.clients.demo.clientId, scopes: 'profile:me' });
  const answer = await fetch(`${instance.url}/auth/itch`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...browser() },
    body: JSON.stringify({ access_token: accessToken }),
  });
  assert.equal(answer.status, 200, await answer.clone().text());
  return answer.headers.get('set-cookie')!.split(';')[0]!;
}

async function me(instance: Instance, cookie: string): Promise<number | undefined> {
  const answer = await fetch(`${instance.url}/me`, { headers: browser(cookie) });
  return answer.status === 200 ? ((await answer.json()) as { id: number }).id : undefined;
}

/** Runs `work` over `items`, `limit` at a time. */
async function inTurns<T, R>(items: T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index]!, index);
      }
    }),
  );
  return results;
}

const USERS = [C.users.gamer, C.users.press, C.users.developer];

describe('sessions shared by two processes that share only the secret', () => {
  it('1,000 logins in turn: every session is read on both instances, and still after one restarts', async () => {
    let instances = [await startInstance(), await startInstance()];
    try {
      const logins = await inTurns(
        Array.from({ length: 1000 }, (_, i) => USERS[i % USERS.length]!),
        16,
        async (userId, i) => ({
          userId,
          cookie: await logIn(instances[i % 2]!, userId),
        }),
      );
      assert.equal(new Set(logins.map((login) => login.cookie)).size, 1000, 'a new session at every login');
      const readAll = async () => {
        const read = await inTurns(logins, 16, async ({ userId, cookie }) => [
          await me(instances[0]!, cookie),
          await me(instances[1]!, cookie),
          userId,
        ]);
        return read.filter(([first, second, userId]) => first !== userId || second !== userId).length;
      };
      assert.equal(await readAll(), 0, 'every session read on both');
      await stopInstance(instances[0]!);
      instances = [await startInstance(), instances[1]!];
      assert.equal(await readAll(), 0, 'every session read on both after a restart');
    } finally {
      await Promise.all(instances.map(stopInstance));
    }
  });

  describe('with Redis as the store', { skip: redisMissing }, () => {
    it('a logout on one instance ends the session on the other at its next request', async () => {
      const redisPort = await freePort();
      const redis = await startRedis(redisPort);
      const instances = [await startInstance({ REDIS_PORT: String(redisPort) }), await startInstance({ REDIS_PORT: String(redisPort) })];
      try {
        const cookie = await logIn(instances[0]!, C.users.gamer);
        const other = await logIn(instances[1]!, C.users.press);
        assert.equal(await me(instances[1]!, cookie), C.users.gamer);
        const out = await fetch(`${instances[0]!.url}/logout`, { method: 'POST', headers: browser(cookie) });
        assert.equal(out.status, 204);
        assert.equal(await me(instances[1]!, cookie), undefined, 'ended on the other instance');
        assert.equal(await me(instances[0]!, cookie), undefined);
        assert.equal(await me(instances[1]!, other), C.users.press, 'another session goes on');
      } finally {
        await Promise.all(instances.map(stopInstance));
        await stopRedis(redis);
      }
    });
  });
});
