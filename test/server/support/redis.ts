// Debian's redis-server for the tests that need a real one: started on a free loopback port,
// without persistence, and stopped by the test. Tests that need it skip, saying why, on a machine
// without redis-server; ITCH_REQUIRE_REDIS=1 (set by .ci/run) makes its absence a failure.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { after, before } from 'node:test';
import type { Redis } from 'ioredis';
import { createStorage, type Storage } from 'unstorage';
import redisDriver from 'unstorage/drivers/redis';
import { freePort } from '../../e2e/support/free-port.js';

/** Why to skip a Redis test here, or `false` to run it. */
export const redisMissing: string | false =
  spawnSync('redis-server', ['--version']).error !== undefined && process.env['ITCH_REQUIRE_REDIS'] !== '1'
    ? 'redis-server is not installed (apt-get install redis-server, brew install redis)'
    : false;

export { freePort } from '../../e2e/support/free-port.js';

/** redis-server on `port`; resolves when it accepts connections. */
export async function startRedis(port: number): Promise<ChildProcess> {
  const redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    redis.once('error', reject);
    redis.once('exit', (code) => reject(new Error(`redis-server exited with ${code}`)));
    redis.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('Ready to accept connections')) resolve();
    });
  });
  return redis;
}

export async function stopRedis(redis: ChildProcess): Promise<void> {
  if (redis.exitCode !== null) return;
  const exited = new Promise((resolve) => redis.once('exit', resolve));
  redis.kill('SIGTERM');
  await exited;
}

/**
 * For the tests of a `describe`: a redis-server started before them and stopped after, and
 * unstorage stores on it (under `base`), disposed after. The stores fail at once while Redis is
 * down instead of queueing commands until it returns (the handler then answers 503).
 */
export function useRedis(base: string) {
  let port = 0;
  let redis: ChildProcess | undefined;
  const stores: Storage[] = [];
  before(async () => {
    port = await freePort();
    redis = await startRedis(port);
  });
  after(async () => {
    await Promise.all(stores.map((store) => store.dispose()));
    if (redis !== undefined) await stopRedis(redis);
  });
  return {
    /** Stops the server before the tests end (Redis down). */
    stop: () => stopRedis(redis!),
    async store(): Promise<{ store: Storage; client: Redis }> {
      const driver = redisDriver({ host: '127.0.0.1', port, base, preConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false });
      const client = driver.getInstance!() as Redis;
      client.on('error', () => undefined); // reported as 503 answers, not as unhandled events
      if (client.status !== 'ready') await new Promise((resolve) => client.once('ready', resolve));
      const store = createStorage({ driver });
      stores.push(store);
      return { store, client };
    },
  };
}
