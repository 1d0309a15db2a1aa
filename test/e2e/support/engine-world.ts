// The servers an engine's web build logs in against: the emulator as itch.io, the site (its
// callback page and a token endpoint with sessions and an ownership check, on `localhost`) and the
// game's own origin (`127.0.0.2`, as html-classic.itch.zone is to the site), whose pages the caller
// serves. The answer a game gets is `{ user, owns, gameToken }`; with `renew`, the bridge keeps the
// game token and the game calls the site's API (`/api/progress`) through `ItchOAuth.bridge.fetch`. Used by engine-bridges.spec.ts
// (the JavaScript halves under stand-ins) and test/engines/godot.test.ts (Godot's web runtime).
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { getRequestListener } from '@hono/node-server';
import { DEFAULT_SEED_CREDENTIALS as C, startEmulator, type RunningEmulator } from '../../../src/emulator/index.js';
import { createSessions, createTokenHandler, type TokenHandlerOptions } from '../../../src/server/index.js';
import { send } from './site.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));

export interface EngineWorld {
  emulator: RunningEmulator;
  /** The site: callback page and token endpoint (`localhost`). */
  app: string;
  /** The game's origin (`127.0.0.2`). */
  game: string;
  /** `login()`'s options for a game of this world, as the bridge takes them. */
  options: { clientId: string; redirectUri: string; baseUrl: string; backend: string; mode: 'popup' };
  /** The site's `sessions.renew` URL, for a bridge login kept in the page's game session. */
  renew: string;
  /**
   * The site's API for game tokens (`sessions.route({ allow: ['game'] })`): `PUT` keeps the body's
   * JSON for the player and answers 204, `GET` answers `{ user, progress }`, 401 without a token.
   */
  api: string;
  /** What the API saw: each request's method and `Authorization` header. */
  apiCalls: { method: string; authorization: string | null }[];
  /** While true, the token endpoint drops every connection (the site's server is down). */
  backendDown: boolean;
  close(): Promise<void>;
}

export interface EngineWorldOptions {
  /** More options of the token handler (e.g. a `store` that fails, as a store that is down does). */
  handler?: Partial<TokenHandlerOptions>;
  /** `false`: `dist/locales/` answers 404, as where only the script files are served. */
  locales?: false;
}

/** Answers a request to the game's origin; false when it is not the caller's. */
export type GameRoute = (url: URL, req: IncomingMessage, res: ServerResponse) => boolean;

async function listen(server: Server, host: string, name = host): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return `http://${name}:${(server.address() as AddressInfo).port}`;
}

/** Files of the package: the built script-tag files and the engines' halves. */
export function packageFile(path: string): string | undefined {
  if (!/^\/(dist\/(locales\/)?[\w.-]+\.js|engines\/[\w/.-]+\.(js|jslib))$/.test(path) || path.includes('..')) return undefined;
  try {
    return readFileSync(`${root}${path.slice(1)}`, 'utf8');
  } catch {
    return undefined;
  }
}

export async function startEngineWorld(gameRoute: GameRoute, { handler, locales }: EngineWorldOptions = {}): Promise<EngineWorld> {
  const emulator = await startEmulator();
  const client = C.clients.demo;
  const world = { emulator, backendDown: false } as EngineWorld;
  let handleToken: (request: Request) => Promise<Response> = async () => new Response(null, { status: 503 });
  const tokenListener = getRequestListener((request) => handleToken(request));
  let renew: (request: Request) => Promise<Response> = async () => new Response(null, { status: 503 });
  let progressRoute: (request: Request) => Promise<Response> = async () => new Response(null, { status: 503 });
  const renewListener = getRequestListener((request) => renew(request));
  const apiListener = getRequestListener((request) => {
    if (request.method !== 'OPTIONS') world.apiCalls.push({ method: request.method, authorization: request.headers.get('Authorization') });
    return progressRoute(request);
  });
  const serveFile = (path: string, res: ServerResponse): boolean => {
    const body = locales === false && path.startsWith('/dist/locales/') ? undefined : packageFile(path);
    if (body === undefined) return false;
    send(res, 200, 'text/javascript', body);
    return true;
  };
  const app = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (serveFile(path, res)) return;
    if (path === '/auth/itch') return world.backendDown ? void req.socket.destroy() : void tokenListener(req, res);
    if (path === '/api/renew') return void renewListener(req, res);
    if (path === '/api/progress') return void apiListener(req, res);
    if (path === '/callback.html') {
      return send(
        res,
        200,
        'text/html',
        `<!doctype html><html lang="en"><head><script src="/dist/itch-oauth-capture.iife.js" data-backend="/auth/itch"></script>
<meta charset="utf-8"><title>Callback</title><script src="/dist/itch-oauth.iife.js"></script></head>
<body><itch-oauth-callback></itch-oauth-callback></body></html>`,
      );
    }
    send(res, 404, 'text/plain', 'not found');
  });
  const game = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (serveFile(url.pathname, res) || gameRoute(url, req, res)) return;
    send(res, 404, 'text/plain', 'not found');
  });
  world.app = await listen(app, '127.0.0.1', 'localhost');
  world.game = await listen(game, '127.0.0.2');
  world.options = {
    clientId: client.clientId,
    redirectUri: `${world.app}/callback.html`,
    baseUrl: emulator.url,
    backend: `${world.app}/auth/itch`,
    mode: 'popup',
  };
  world.renew = `${world.app}/api/renew`;
  world.api = `${world.app}/api/progress`;
  world.apiCalls = [];
  emulator.addRedirectUri(client.clientId, `${world.app}/callback.html`);
  const sessions = createSessions({ secrets: ['engine-bridges-test-secret-0123456789abcdef'], allowedOrigins: [world.game] });
  renew = (request) => sessions.renew(request);
  const saved = new Map<string, unknown>();
  progressRoute = sessions.route({ allow: ['game'] }, async (request, session) => {
    if (request.method === 'PUT') {
      saved.set(session.user.id.toString(), await request.json());
      return new Response(null, { status: 204 });
    }
    return Response.json({ user: session.user.id, progress: saved.get(session.user.id.toString()) ?? null });
  });
  handleToken = createTokenHandler({
    baseUrl: emulator.url,
    apiBaseUrl: emulator.apiUrl,
    applicationId: client.id,
    popup: true,
    allowedOrigins: [world.game],
    ownership: { gameIds: [C.games.starfallKeep], apiKey: C.apiKeys.developer },
    onLogin: sessions.onLogin,
    ...handler,
  });
  world.close = async () => {
    for (const server of [app, game]) server.closeAllConnections();
    await Promise.all([app, game].map((server) => new Promise((resolve) => server.close(resolve))));
    await emulator.close();
  };
  return world;
}
