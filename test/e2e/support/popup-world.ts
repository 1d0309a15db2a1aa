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
import { createTokenHandler, type LoginContext, type TokenHandlerOptions } from '../../../src/server/index.js';
import { readBody, send } from './site.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const probe = readFileSync(new URL('./opener-probe.js', import.meta.url), 'utf8');

export interface PopupWorldOptions {
  /** The authorization page severs the popup's opener (`Cross-Origin-Opener-Policy: same-origin`). */
  coop?: boolean;
  /** The callback page sends `Cross-Origin-Opener-Policy: same-origin` too. */
  callbackCoop?: boolean;
  /**
   * The top-level page is cross-origin isolated as itch.io serves "SharedArrayBuffer" games
   * (COOP `same-origin`, COEP `require-corp`; the game frame sends COEP and CORP): the framed
   * game's `window.open` returns null although the popup opens, without an opener.
   */
  isolated?: boolean;
  /** Attributes of the callback page's `<itch-oauth-callback>` (e.g. `store-url="…"`). */
  callbackAttributes?: string;
  /** The script-tag file the framed game loads (default the full one, `itch-oauth.iife.js`). */
  gameScript?: 'itch-oauth.iife.js' | 'itch-oauth-button.iife.js';
  /** The `lang` of the framed game's page (default `en`). */
  gameLang?: string;
  /** More options of the token handler (e.g. `popup: { severedOpener: 'confirm' }`). */
  handler?: Partial<TokenHandlerOptions>;
  /**
   * The token endpoint as a server from before held collections: it never sees `Prefer`, never
   * says `Preference-Applied`, and its CORS preflight allows `Content-Type` only.
   */
  oldServer?: boolean;
  /** A proxy in front of the token endpoint that cuts every request after this many ms (504). */
  cutAfterMs?: number;
}

export interface PopupWorld {
  emulator: RunningEmulator;
  /** The app: callback page, token endpoint and SPA page (`localhost`). */
  app: string;
  /** The page that frames the game (`127.0.0.1`). */
  top: string;
  /** The game, framed (`127.0.0.2`). */
  game: string;
  /**
   * A site the app does not list (`127.0.0.3`): `/open.html` opens the app's popup start page
   * itself and answers its check; `/login.html` uses the package's own login() pointed at the
   * app's backend; `/link.html` opens itch.io's authorization page with a state of its own.
   */
  evil: string;
  /** Refusals the handler reported through onError. */
  refusals: string[];
  /** Logins the backend made (onLogin calls), in order. */
  logins: LoginContext[];
  /** Popup deposits the backend received, with their status. */
  deposits: number[];
  /** When (Date.now()) the backend answered each deposit. */
  depositedAt: number[];
  /** When (Date.now()) each collection reached the backend. */
  collections: number[];
  /** Collections the backend has not answered yet (held). */
  holding: number;
  /** What the hostile probes on every site reported. */
  collected: string[];
  /** Markup of the button in the game and SPA pages; `{backend}` etc. are filled in. */
  buttonAttributes: string;
  /** While true, the token endpoint drops every connection (the site's server is down). */
  backendDown: boolean;
  close(): Promise<void>;
}

async function listen(server: Server, host: string, name = host): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return `http://${name}:${(server.address() as AddressInfo).port}`;
}

/** A page that opens the popup: the full script-tag file, the button, the probe, and its events in `window.events`. */
function openerPage(kind: string, button: string, script = 'itch-oauth.iife.js', lang = 'en'): string {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>${kind}</title>
<script>${probe.replace("'KIND'", JSON.stringify(kind))}</script>
<script src="/dist/${script}"></script></head><body>
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
  const refusals: string[] = [];
  const world = { emulator, logins, deposits, collected, refusals, depositedAt: [], collections: [], holding: 0 } as unknown as PopupWorld;

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
      send(res, 204, 'text/plain', '');
      return true;
    }
    return false;
  };

  let handleToken: (request: Request) => Promise<Response>;
  const tokenListener = getRequestListener((request) => handleToken(request));

  const appServer = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (await common(req, res, path)) return;
    if (path === '/auth/itch') return world.backendDown ? void req.socket.destroy() : tokenListener(req, res);
    if (path === '/callback.html') {
      return send(
        res,
        200,
        'text/html',
        `<!doctype html><html lang="en"><head><meta name="color-scheme" content="light dark"><script src="/dist/itch-oauth-capture.iife.js" data-backend="/auth/itch"></script>
<meta charset="utf-8"><title>Callback</title>
<script>${probe.replace("'KIND'", '"callback"')}</script>
<script src="/dist/itch-oauth.iife.js"></script></head><body><itch-oauth-callback ${options.callbackAttributes ?? ''}></itch-oauth-callback></body></html>`,
        options.callbackCoop
          ? { 'Cross-Origin-Opener-Policy': 'same-origin', 'Referrer-Policy': 'no-referrer' }
          : { 'Referrer-Policy': 'no-referrer' },
      );
    }
    if (path === '/spa.html')
      return send(
        res,
        200,
        'text/html',
        openerPage('spa', `<itch-login-button ${world.buttonAttributes} mode="popup"></itch-login-button>`),
      );
    send(res, 404, 'text/plain', 'not found');
  });
  const gameServer = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (await common(req, res, path)) return;
    if (path === '/game.html') {
      const isolation = options.isolated
        ? { 'Cross-Origin-Embedder-Policy': 'require-corp', 'Cross-Origin-Resource-Policy': 'cross-origin' }
        : undefined;
      return send(
        res,
        200,
        'text/html',
        openerPage('game', `<itch-login-button ${world.buttonAttributes}></itch-login-button>`, options.gameScript, options.gameLang),
        isolation,
      );
    }
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
        options.isolated ? { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' } : undefined,
      );
    }
    send(res, 404, 'text/plain', 'not found');
  });
  const evilServer = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (await common(req, res, path)) return;
    const client = C.clients.demo;
    const redirectUri = `${world.app}/callback.html`;
    const query = `client_id=${client.clientId}&redirect_uri=${encodeURIComponent(redirectUri)}&scope=profile%3Ame&state=`;
    const page = (script: string, head = '') =>
      send(
        res,
        200,
        'text/html',
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Free gems</title>${head}</head><body>
<h1>Free gems</h1><button id="go">Claim</button><output id="result"></output><script>${script}</script></body></html>`,
      );
    // The attacker's state, made from a verifier the attacker keeps (`?verifier=`).
    const stateScript = `const verifier = new URLSearchParams(location.search).get('verifier');
const sha256 = async (text) => btoa(String.fromCharCode(...new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))))).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
let state, binding; sha256(verifier).then(async (b) => { binding = b; state = 'p.' + await sha256(b); document.body.dataset.ready = 'yes'; });`;
    if (path === '/open.html') {
      // Opens the app's own start page with its state, and confirms it when asked.
      return page(`${stateScript}
addEventListener('message', (event) => { if (event.data && event.data.itchOAuth === 'popup-start') event.source.postMessage({ itchOAuth: 'popup-opener', state: event.data.state, binding }, event.origin); });
document.getElementById('go').onclick = () => window.open('${world.app}/auth/itch?${query}' + state, '_blank', 'popup,width=600,height=700');`);
    }
    if (path === '/link.html') {
      // Opens itch.io's real authorization page of the real app, with its own state.
      return page(`${stateScript}
document.getElementById('go').onclick = () => window.open('${emulator.url}/user/oauth?${query.replace('scope', 'response_type=token&scope')}' + state, '_blank', 'popup,width=600,height=700');`);
    }
    if (path === '/login.html') {
      // The package's own login(), pointed at the app's backend.
      return page(
        `document.body.dataset.ready = 'yes';
document.getElementById('go').onclick = () => ItchOAuth.login({ clientId: '${client.clientId}', redirectUri: '${redirectUri}', baseUrl: '${emulator.url}', backend: '${world.app}/auth/itch', mode: 'popup' })
  .then((r) => { document.getElementById('result').textContent = 'success ' + JSON.stringify(r.response); }, (e) => { document.getElementById('result').textContent = 'error ' + e.code; });`,
        '<script src="/dist/itch-oauth.iife.js"></script>',
      );
    }
    send(res, 404, 'text/plain', 'not found');
  });
  servers.push(appServer, gameServer, topServer, evilServer);

  world.app = await listen(appServer, '127.0.0.1', 'localhost');
  world.game = await listen(gameServer, '127.0.0.2');
  world.top = await listen(topServer, '127.0.0.1');
  world.evil = await listen(evilServer, '127.0.0.3');
  const redirectUri = `${world.app}/callback.html`;
  emulator.addRedirectUri(client.clientId, redirectUri);
  world.buttonAttributes = `client-id="${client.clientId}" redirect-uri="${redirectUri}" base-url="${emulator.url}" backend="${world.app}/auth/itch"`;

  const tokenHandler = createTokenHandler({
    baseUrl: emulator.url,
    apiBaseUrl: emulator.apiUrl,
    applicationId: client.id,
    allowedOrigins: [world.game],
    popup: true,
    onError: (refusal) => void refusals.push(`${refusal.status} ${refusal.code ?? ''} ${refusal.message}`),
    ...options.handler,
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
    if (options.oldServer) {
      const headers = new Headers(request.headers);
      headers.delete('prefer');
      request = new Request(request, { headers });
    }
    // The proxy's cut closes its connection to the server too.
    const proxy = new AbortController();
    if (options.cutAfterMs !== undefined) request = new Request(request, { signal: AbortSignal.any([request.signal, proxy.signal]) });
    const collection = body.includes('"popup_verifier"');
    if (collection) {
      world.collections.push(Date.now());
      world.holding++;
    }
    let cut: ReturnType<typeof setTimeout> | undefined;
    const answered = tokenHandler(request).finally(() => collection && world.holding--);
    let response =
      options.cutAfterMs === undefined
        ? await answered
        : await Promise.race([
            answered,
            new Promise<Response>(
              (resolve) =>
                (cut = setTimeout(() => {
                  proxy.abort();
                  resolve(new Response('cut by the proxy', { status: 504 }));
                }, options.cutAfterMs)),
            ),
          ]);
    clearTimeout(cut);
    if (body.includes('"state"')) {
      deposits.push(response.status);
      world.depositedAt.push(Date.now());
    }
    if (options.oldServer) {
      const headers = new Headers(response.headers);
      headers.delete('preference-applied');
      headers.delete('access-control-expose-headers');
      if (headers.has('access-control-allow-headers')) headers.set('access-control-allow-headers', 'Content-Type');
      response = new Response(response.body, { status: response.status, headers });
    }
    return response;
  };

  world.close = async () => {
    for (const server of servers) server.closeAllConnections();
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    await emulator.close();
  };
  return world;
}
