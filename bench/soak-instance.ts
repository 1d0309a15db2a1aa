// One server instance of the soak (bench/soak.ts), as a separate process: createTokenHandler with
// the popup relay on and createSessions, both with the Redis the soak started as `store`; the
// site's routes (/auth/itch, /me, /logout, the game's /api/progress and /api/renew) on PORT, and
// /soak/stats: this process's unhandled rejections and, after a full GC, its heap and RSS.
// Every unhandled rejection or uncaught exception is also written to stderr as `UNHANDLED …`.
import { once } from 'node:events';
import { createServer } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import type { Redis } from 'ioredis';
import { createStorage } from 'unstorage';
import redisDriver from 'unstorage/drivers/redis';
import { createSessions, createTokenHandler, SessionStoreError } from '../src/server/index.js';

const env = process.env;
let unhandled = 0;
for (const event of ['unhandledRejection', 'uncaughtException'] as const)
  process.on(event, (error: unknown) => {
    unhandled++;
    process.stderr.write(`UNHANDLED ${event} in ${process.pid}: ${String((error as Error)?.stack ?? error)}\n`);
  });

// Fails at once while Redis is down (no queue of commands waiting for it), and reconnects by
// itself when it is back: the handler answers 503 meanwhile.
const driver = redisDriver({
  host: '127.0.0.1',
  port: Number(env['REDIS_PORT']),
  base: 'soak',
  maxRetriesPerRequest: 0,
  enableOfflineQueue: false,
  retryStrategy: () => 200,
});
const client = driver.getInstance!() as Redis;
client.on('error', () => undefined);
const store = createStorage({ driver });
// Taking requests before the store is connected would answer them 503.
if (client.status !== 'ready') await once(client, 'ready');

const SITE = env['SITE']!;
const GAME = env['GAME']!;
const sessions = createSessions({ secrets: [env['SESSION_SECRET']!], store, origin: SITE, allowedOrigins: [GAME] });
const handleToken = createTokenHandler({
  applicationId: Number(env['APPLICATION_ID']),
  baseUrl: env['ITCH_URL'],
  apiBaseUrl: env['ITCH_API_URL'],
  origin: SITE,
  allowedOrigins: [GAME],
  popup: true,
  clientId: env['CLIENT_ID'],
  redirectUri: `${SITE}/callback.html`,
  store,
  // The soak's simulated client address, one per browser (a header only this bench's clients
  // send: a real server takes the address from its socket or a proxy it trusts).
  clientAddress: (request) => request.headers.get('x-soak-client') ?? undefined,
  // The per-client limits as shipped. The ceiling of calls to itch.io is raised to what the
  // soak's honest load needs: 24 browsers logging in back to back ask about 25 calls a second,
  // more than the default 20 (a site's choice, which the soak is not testing), and a failing
  // share of them is retried.
  rateLimit: { itchCallsPerSecond: 100 },
  onError: () => undefined,
  onLogin: sessions.onLogin,
});

/** The game's saves: a few bytes each, in memory. */
const saves = new Map<string, number>();
const progress = sessions.route({ allow: ['game'] }, async (request, session) => {
  if (request.method === 'PUT') saves.set(String(session.user.id), saves.size);
  return Response.json({ user: session.user.id, progress: saves.get(String(session.user.id)) ?? null });
});

async function stats(): Promise<Response> {
  (globalThis as { gc?: () => void }).gc?.();
  const memory = process.memoryUsage();
  return Response.json({ pid: process.pid, unhandled, heapUsed: memory.heapUsed, rss: memory.rss });
}

const server = createServer(
  getRequestListener(async (request) => {
    const { pathname } = new URL(request.url);
    if (pathname === '/auth/itch') return handleToken(request);
    if (pathname === '/logout') return sessions.logout(request);
    if (pathname === '/api/progress') return progress(request);
    if (pathname === '/api/renew') return sessions.renew(request);
    if (pathname === '/soak/stats') return stats();
    if (pathname === '/me') {
      try {
        const session = await sessions.get(request);
        return session ? Response.json({ id: session.user.id }) : new Response(null, { status: 401 });
      } catch (error) {
        // The store could not say whether the session was revoked: neither yes nor no.
        if (!(error instanceof SessionStoreError)) throw error;
        return Response.json({ errors: ['the session store is unavailable'] }, { status: 503, headers: { 'Retry-After': '1' } });
      }
    }
    return new Response('Not found', { status: 404 });
  }),
);
server.listen(Number(env['PORT']), '127.0.0.1', () => console.log(`listening ${(server.address() as { port: number }).port}`));
// Stops taking requests, answers those under way, then exits.
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeIdleConnections();
});
