// One server instance of a site, as a separate process: the token handler and createSessions
// with the secret it is given, `/me` and `/logout`, on a free loopback port (printed as
// `listening <port>`). Sessions with Redis as `store` when REDIS_PORT is set.
import { createServer } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { createStorage } from 'unstorage';
import redisDriver from 'unstorage/drivers/redis';
import { createSessions, createTokenHandler } from '../../../src/server/index.js';

const env = process.env;
const store =
  env['REDIS_PORT'] === undefined
    ? undefined
    : createStorage({
        driver: redisDriver({ host: '127.0.0.1', port: Number(env['REDIS_PORT']), base: 'itch-instances', maxRetriesPerRequest: 0 }),
      });
// The site's public origin (a proxy's, as browsers see it), never the loopback address this listens on.
const sessions = createSessions({ secrets: [env['SESSION_SECRET']!], store, origin: env['SITE'] });
const handleToken = createTokenHandler({
  applicationId: Number(env['APPLICATION_ID']),
  baseUrl: env['ITCH_URL'],
  apiBaseUrl: env['ITCH_API_URL'],
  origin: env['SITE'],
  onLogin: sessions.onLogin,
});

const server = createServer(
  getRequestListener(async (request) => {
    const { pathname } = new URL(request.url);
    if (pathname === '/auth/itch') return handleToken(request);
    if (pathname === '/logout') return sessions.logout(request);
    if (pathname === '/me') {
      const session = await sessions.get(request);
      return session ? Response.json({ id: session.user.id, instance: process.pid }) : new Response(null, { status: 401 });
    }
    return new Response('Not found', { status: 404 });
  }),
);
server.listen(0, '127.0.0.1', () => console.log(`listening ${(server.address() as { port: number }).port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
