// Three sites and itch.io, for popup mode: a top-level page on 127.0.0.1 that frames a game from
// 127.0.0.2 (as itch.io frames HTML5 games from itch.zone), the app on localhost (the callback
// page with the capture, the token endpoint made by createTokenHandler, and a same-origin SPA
// page), and the emulator as itch.io. Loopback names are different sites: storage and
// BroadcastChannel of the framed game are partitioned from the popup's.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { getRequestListener } from '@hono/node-server';
import { DEFAULT_SEED_CREDENTIALS as C, startEmulator, type RunningEmulator } from '../../../src/emulator/index.js';
import { createTokenHandler, type LoginContext } from '../../../src/server/index.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const probe = readFileSync(new URL('./opener-probe.js', import.meta.url), 'utf8');

export interface PopupWorldOptions {
  /** The authorization page severs the popup's opener (`Cross-Origin-Opener-Policy: same-origin`). */
  coop?: boolean;
  /** The callback page sends `Cross-Origin-Opener-Policy: same-origin` too. */
  callbackCoop?: boolean;
}

export interface PopupWorld {
  emulator: RunningEmulator;
  /** The app: callback page, token endpoint and SPA page (`localhost`). */
  app: string;
  /** The page that frames the game (`127.0.0.1`). */
  top: string;
  /** The game, framed (`127.0.0.2`). */
  game: string;
  /** Logins the backend made (onLogin calls), in order. */
  logins: LoginContext[];
  /** Popup deposits the backend received, with their status. */
  deposits: number[];
  /** What the hostile probes on every site reported. */
  collected: string[];
  /** Markup of the button in the game and SPA pages; `{backend}` etc. are filled in. */
  buttonAttributes: string;
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, type: string, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store', ...headers });
  res.end(body);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function listen(server: Server, host: string, name = host): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return `http://${name}:${(server.address() as AddressInfo).port}`;
}

/** A page that opens the popup: the full script-tag file, the button, the probe, and its events in `window.events`. */
function openerPage(kind: string, button: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${kind}</title>
<script>${probe.replace("'KIND'", JSON.stringify(kind))}</script>
<script src="/dist/itch-oauth.iife.js"></script></head><body>
<h1>${kind}</h1>${button}<output id="result"></output>
<script>
window.events = [];
const query = new URLSearchParams(location.search);
// ?cancel: cancel every itch-login-error (a popup_blocked one keeps the page where it is).
if (query.has('cancel')) document.addEventListener('itch-login-error', (event) => event.preventDefault());

for (const type of ['itch-login-start', 'itch-login-success', 'itch-login-error']) {
  document.addEventListener(type, (event) => {
    window.events.push({ type, detail: JSON.parse(JSON.stringify(event.detail)), at: performance.now() });
    if (type !== 'itch-login-start') document.getElementById('result').textContent = type + ' ' + JSON.stringify(event.detail);
  });
}
</script></body></html>`;
}

export async function startPopupWorld(options: PopupWorldOptions = {}): Promise<PopupWorld> {
  const collected: string[] = [];
  const logins: LoginContext[] = [];
  const deposits: number[] = [];
  const emulator = await startEmulator({ coop: options.coop });
  const client = C.clients.demo;
  const servers: Server[] = [];
  const world = { emulator, logins, deposits, collected } as PopupWorld;

  const common = async (req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> => {
    if (path.startsWith('/dist/')) {
      try {
        send(res, 200, 'text/javascript', readFileSync(`${root}${path.slice(1)}`, 'utf8'));
      } catch {
        send(res, 404, 'text/plain', 'not built: run npm run build');
      }
      return true;
    }
    if (path === '/collect') {
      collected.push(`${req.headers.host} ${await readBody(req)}`);
      send(res, 204, 'text/plain', '');
      return true;
    }
    if (path === '/favicon.ico') {
      send(res, 404, 'text/plain', '');
      return true;
    }
    return false;
  };

  let handleToken: (request: Request) => Promise<Response>;
  const tokenListener = getRequestListener((request) => handleToken(request));

  const appServer = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (await common(req, res, path)) return;
    if (path === '/auth/itch') return tokenListener(req, res);
    if (path === '/callback.html') {
      return send(
        res,
        200,
        'text/html',
        `<!doctype html><html lang="en"><head><script src="/dist/itch-oauth-capture.iife.js" data-backend="/auth/itch"></script>
<meta charset="utf-8"><title>Callback</title>
<script>${probe.replace("'KIND'", '"callback"')}</script>
<script src="/dist/itch-oauth.iife.js"></script></head><body><itch-oauth-callback></itch-oauth-callback></body></html>`,
        options.callbackCoop ? { 'Cross-Origin-Opener-Policy': 'same-origin', 'Referrer-Policy': 'no-referrer' } : { 'Referrer-Policy': 'no-referrer' },
      );
    }
    if (path === '/spa.html') return send(res, 200, 'text/html', openerPage('spa', `<itch-login-button ${world.buttonAttributes} mode="popup"></itch-login-button>`));
    send(res, 404, 'text/plain', 'not found');
  });
  const gameServer = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (await common(req, res, path)) return;
    if (path === '/game.html') return send(res, 200, 'text/html', openerPage('game', `<itch-login-button ${world.buttonAttributes}></itch-login-button>`));
    send(res, 404, 'text/plain', 'not found');
  });
  const topServer = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (await common(req, res, path)) return;
    if (path === '/top.html') {
      return send(
        res,
        200,
        'text/html',
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Game page</title>
<script>${probe.replace("'KIND'", '"top"')}</script></head><body><h1>A game page that embeds the game</h1>
<iframe title="game" src="${world.game}/game.html${new URL(req.url ?? '/', 'http://x').search}" width="640" height="360"></iframe></body></html>`,
      );
    }
    send(res, 404, 'text/plain', 'not found');
  });
  servers.push(appServer, gameServer, topServer);

  world.app = await listen(appServer, '127.0.0.1', 'localhost');
  world.game = await listen(gameServer, '127.0.0.2');
  world.top = await listen(topServer, '127.0.0.1');
  const redirectUri = `${world.app}/callback.html`;
  emulator.addRedirectUri(client.clientId, redirectUri);
  world.buttonAttributes = `client-id="${client.clientId}" redirect-uri="${redirectUri}" base-url="${emulator.url}" backend="${world.app}/auth/itch"`;

  const tokenHandler = createTokenHandler({
    baseUrl: emulator.url,
    apiBaseUrl: emulator.apiUrl,
    applicationId: client.id,
    allowedOrigins: [world.game],
    onLogin: (login) => {
      logins.push(login);
      // A framed game gets no first-party cookie: it gets a session token for its own API calls.
      return new Response(JSON.stringify({ user: login.user, session: `session-for-${login.user.id}` }), {
        headers: { 'Content-Type': 'application/json', 'Set-Cookie': `sid=session-for-${login.user.id}; HttpOnly; SameSite=Lax; Path=/` },
      });
    },
  });
  handleToken = async (request) => {
    const body = request.method === 'POST' ? await request.clone().text() : '';
    const response = await tokenHandler(request);
    if (body.includes('"state"')) deposits.push(response.status);
    return response;
  };

  world.close = async () => {
    for (const server of servers) server.closeAllConnections();
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    await emulator.close();
  };
  return world;
}
