// Cookie tossing against the popup binding, in real Chromium on https. The app is served on
// https://app.test (a self-signed certificate made here; the browser maps app.test and
// *.app.test to 127.0.0.1), the emulator plays itch.io.
//
// The attacker makes a popup pair of its own (verifier v, binding b, state S), binds S from its
// own client as curl would, and so holds a binding-cookie VALUE the server itself issued for S.
// It then tosses that value into the victim's browser under the plain name
// `itch-oauth-popup-<tag>`, from the places that can set cookies for app.test without owning it:
// a sibling subdomain (Domain=app.test), plain http on the same host, and another https port of
// the same host. The victim is then sent to itch.io's authorization page with S and approves.
// On https only the `__Host-` cookie may count: the deposit must be refused although the
// planted cookie reached the backend (the server records the cookie names of every deposit,
// and each test asserts the plant was sent, so that a refusal proves the server, not the
// browser, closed the attack). A positive control logs in for real with the package's button.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import {
  createServer as createHttpServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer, request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getRequestListener } from '@hono/node-server';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { popupBindingOf, popupStateOfBinding } from '../../src/core/state.js';
import { DEFAULT_SEED_CREDENTIALS as C, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { createSessions, createTokenHandler, type LoginContext, type Sessions } from '../../src/server/index.js';
import { requireBrowser } from '../../scripts/find-browser.mjs';
import { callback } from '../../src/i18n/locales/en.js';

/** What <itch-oauth-callback> says for state_mismatch (src/elements/itch-oauth-callback.ts). */
// A refused popup state says what such a link does (it works once, where the login started), as
// redirect mode does, and never that the player is logged in.
const STATE_MISMATCH_WORDS = callback.state_used;
const root = fileURLToPath(new URL('../../', import.meta.url));

// Each test walks a browser through several servers and a TLS handshake per origin: give it room on a busy machine.
test.describe.configure({ timeout: 60_000 });
test.use({
  ignoreHTTPSErrors: true,
  launchOptions: {
    executablePath: requireBrowser(),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--host-resolver-rules=MAP app.test 127.0.0.1,MAP *.app.test 127.0.0.1',
      '--ignore-certificate-errors',
    ],
  },
});

/** A deposit (`{access_token, state}`) the backend received: the cookie NAMES it carried, and the answer. */
interface Deposit {
  state: string;
  origin: string | null;
  cookieNames: string[];
  status: number;
}

interface World {
  emulator: RunningEmulator;
  /** The app: callback page, token endpoint, the login-button page (https://app.test:<port>). */
  app: string;
  /** A sibling subdomain the attacker controls (https://evil.app.test:<port>). */
  sibling: string;
  /** Plain http on the app's host, another port (http://app.test:<port>). */
  plainHttp: string;
  /** Another https port of the app's host (https://app.test:<port>). */
  otherPort: string;
  deposits: Deposit[];
  /** The app's sessions (origin: the app's https origin), at /me and /logout. */
  sessions: Sessions;
  /** What the handler asked itch.io (its `fetch`). */
  itchCalls: string[];
  refusals: string[];
  logins: LoginContext[];
  close(): Promise<void>;
}

let world: World;
let certDir: string;

function send(res: ServerResponse, status: number, type: string, body: string, headers: Record<string, string | string[]> = {}): void {
  res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store', ...headers });
  res.end(body);
}

async function listen(server: Server, name: string, scheme: 'http' | 'https'): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `${scheme}://${name}:${(server.address() as AddressInfo).port}`;
}

/**
 * The attacker's servers: `/plant?cookie=<Set-Cookie line>` answers a page with that
 * `Set-Cookie` (the victim only has to visit it).
 */
function planter(req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://x');
  if (url.pathname === '/plant') {
    return send(res, 200, 'text/html', '<!doctype html><title>Free gems</title><h1>Free gems</h1>', {
      'Set-Cookie': url.searchParams.get('cookie') ?? '',
    });
  }
  send(res, 404, 'text/plain', 'not found');
}

async function startWorld(): Promise<World> {
  certDir = mkdtempSync(join(tmpdir(), 'itch-oauth-tossing-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=app.test',
      '-addext',
      'subjectAltName=DNS:app.test,DNS:*.app.test',
    ].concat(['-keyout', join(certDir, 'key.pem'), '-out', join(certDir, 'cert.pem')]),
    { stdio: 'ignore' },
  );
  const tls = { key: readFileSync(join(certDir, 'key.pem')), cert: readFileSync(join(certDir, 'cert.pem')) };
  const emulator = await startEmulator();
  const client = C.clients.demo;
  const w = { emulator, deposits: [], itchCalls: [], refusals: [], logins: [] } as unknown as World;

  let handleToken: (request: Request) => Promise<Response> = async () => new Response('not ready', { status: 503 });
  const tokenListener = getRequestListener((request) => handleToken(request));
  const appServer = createHttpsServer(tls, (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path.startsWith('/dist/') && path.endsWith('.iife.js')) {
      try {
        return send(res, 200, 'text/javascript', readFileSync(`${root}${path.slice(1)}`, 'utf8'));
      } catch {
        return send(res, 404, 'text/plain', 'not built: run npm run build');
      }
    }
    if (path === '/auth/itch' || path === '/me' || path === '/logout') return void tokenListener(req, res);
    if (path === '/account.html')
      return send(res, 200, 'text/html', '<!doctype html><html lang="en"><title>Account</title><h1>Account</h1>');
    if (path === '/callback.html') {
      return send(
        res,
        200,
        'text/html',
        `<!doctype html><html lang="en"><head><script src="/dist/itch-oauth-capture.iife.js" data-backend="/auth/itch"></script>
<meta charset="utf-8"><title>Callback</title><script src="/dist/itch-oauth.iife.js"></script></head>
<body><itch-oauth-callback></itch-oauth-callback></body></html>`,
        { 'Referrer-Policy': 'no-referrer' },
      );
    }
    if (path === '/spa.html') {
      const attributes = `client-id="${client.clientId}" redirect-uri="${w.app}/callback.html" base-url="${emulator.url}" backend="${w.app}/auth/itch"`;
      return send(
        res,
        200,
        'text/html',
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>App</title><script src="/dist/itch-oauth.iife.js"></script></head>
<body><h1>App</h1><itch-login-button ${attributes} mode="popup"></itch-login-button><output id="result"></output>
<script>
for (const type of ['itch-login-success', 'itch-login-error']) {
  document.addEventListener(type, (event) => { document.getElementById('result').textContent = type + ' ' + JSON.stringify(event.detail); });
}
</script></body></html>`,
      );
    }
    if (path === '/favicon.ico') return send(res, 204, 'text/plain', '');
    send(res, 404, 'text/plain', 'not found');
  });
  const siblingServer = createHttpsServer(tls, planter);
  const otherPortServer = createHttpsServer(tls, planter);
  const plainHttpServer = createHttpServer(planter);
  const servers: Server[] = [appServer, siblingServer, otherPortServer, plainHttpServer];

  w.app = await listen(appServer, 'app.test', 'https');
  w.sibling = await listen(siblingServer, 'evil.app.test', 'https');
  w.otherPort = await listen(otherPortServer, 'app.test', 'https');
  w.plainHttp = await listen(plainHttpServer, 'app.test', 'http');
  emulator.addRedirectUri(client.clientId, `${w.app}/callback.html`);

  const tokenHandler = createTokenHandler({
    baseUrl: emulator.url,
    apiBaseUrl: emulator.apiUrl,
    applicationId: client.id,
    popup: true,
    origin: w.app,
    fetch: (input, init) => {
      w.itchCalls.push(input);
      return fetch(input, init);
    },
    onError: (refusal) => void w.refusals.push(`${refusal.status} ${refusal.code ?? ''} ${refusal.message}`),
    onLogin: (login) => void w.logins.push(login),
  });
  w.sessions = createSessions({ secrets: ['cookie-tossing-test-secret-0123456789abcdef'], origin: w.app });
  handleToken = async (request) => {
    const { pathname } = new URL(request.url);
    if (pathname === '/logout') return w.sessions.logout(request);
    if (pathname === '/me') {
      const session = await w.sessions.get(request);
      return session === undefined ? new Response(null, { status: 401 }) : Response.json({ id: session.user.id });
    }
    const text = request.method === 'POST' ? await request.clone().text() : '';
    const response = await tokenHandler(request);
    let body: { access_token?: unknown; state?: unknown } = {};
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      // not a JSON body: not a deposit
    }
    if (typeof body.access_token === 'string' && typeof body.state === 'string') {
      const cookieNames = (request.headers.get('cookie') ?? '')
        .split(';')
        .map((pair) => pair.split('=', 1)[0]!.trim())
        .filter((name) => name !== '');
      w.deposits.push({ state: body.state, origin: request.headers.get('origin'), cookieNames, status: response.status });
    }
    return response;
  };

  w.close = async () => {
    for (const server of servers) server.closeAllConnections();
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    await emulator.close();
  };
  return w;
}

test.beforeAll(async () => {
  world = await startWorld();
});
test.afterAll(async () => {
  await world?.close();
  if (certDir !== undefined) rmSync(certDir, { recursive: true, force: true });
});
test.beforeEach(() => {
  world.deposits.length = 0;
  world.itchCalls.length = 0;
  world.refusals.length = 0;
  world.logins.length = 0;
});

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A request from the attacker's own machine, as curl would send it (any header it likes, no browser). */
function curl(
  url: string,
  { method = 'GET', headers = {}, body }: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  const target = new URL(url);
  const options = {
    host: '127.0.0.1',
    port: target.port,
    path: target.pathname + target.search,
    method,
    headers: { Host: target.host, ...headers },
  };
  return new Promise((resolve, reject) => {
    const done = (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    };
    const req =
      target.protocol === 'https:'
        ? httpsRequest({ ...options, servername: target.hostname, rejectUnauthorized: false }, done)
        : httpRequest(options, done);
    req.on('error', reject);
    req.end(body);
  });
}

/** The query of the real app's authorization request, with a given state. */
function appQuery(state: string): URLSearchParams {
  return new URLSearchParams({
    client_id: C.clients.demo.clientId,
    redirect_uri: `${world.app}/callback.html`,
    scope: 'profile:me',
    state,
  });
}

interface Attacker {
  verifier: string;
  state: string;
  /** `itch-oauth-popup-<tag>`: the plain name the attacker plants under. */
  plainName: string;
  /** The binding cookie's value, as the server issued it for the attacker's state. */
  value: string;
}

/**
 * The attacker's pair, bound from its own client: the start page's bind request, sent by curl
 * with the `Origin` and `Sec-Fetch-Site` the start page's would have. The server answers with
 * the `__Host-` cookie of that state; its value is what gets tossed.
 */
async function attacker(): Promise<Attacker> {
  const verifier = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url');
  const binding = await popupBindingOf(verifier);
  const state = await popupStateOfBinding(binding);
  const answer = await curl(`${world.app}/auth/itch?${appQuery(state)}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: world.app, 'Sec-Fetch-Site': 'same-origin' },
    body: JSON.stringify({ popup_bind: state, opener: world.app, binding }),
  });
  expect(answer.status, `the attacker's own bind: ${answer.body}`).toBe(200);
  const tag = state.slice(2, 14);
  const setCookie = answer.headers['set-cookie']?.[0] ?? '';
  const match = new RegExp(`^__Host-itch-oauth-popup-${tag}=([^;]+);`).exec(setCookie);
  expect(match, `the server set the __Host- binding cookie: ${setCookie}`).not.toBeNull();
  const value = match![1]!;
  expect(value).toBe(`o.${binding}.${Buffer.from(world.app).toString('base64url')}`);
  return { verifier, state, plainName: `itch-oauth-popup-${tag}`, value };
}

/** What Chromium says about the cookies of one response (set or blocked) and one request (sent or not), by CDP. */
interface CookieFacts {
  setBlocked: string[];
  depositNotSent: string[];
}

async function watchCookies(context: BrowserContext, page: Page, plainName: string): Promise<CookieFacts> {
  const facts: CookieFacts = { setBlocked: [], depositNotSent: [] };
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  cdp.on('Network.responseReceivedExtraInfo', (event) => {
    for (const blocked of event.blockedCookies ?? []) {
      if (blocked.cookieLine.startsWith(`${plainName}=`)) facts.setBlocked.push(blocked.blockedReasons.join(','));
    }
  });
  cdp.on('Network.requestWillBeSentExtraInfo', (event) => {
    for (const associated of event.associatedCookies ?? []) {
      if (associated.cookie.name === plainName && associated.blockedReasons.length > 0)
        facts.depositNotSent.push(associated.blockedReasons.join(','));
    }
  });
  return facts;
}

/** The attacker collects with its verifier, as curl, claiming every Origin it might: none of the answers may be a login. */
async function expectAttackerCollectsNothing(verifier: string): Promise<void> {
  for (const origin of [undefined, world.app, world.sibling, world.plainHttp, world.otherPort, world.emulator.url]) {
    const answer = await curl(`${world.app}/auth/itch`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(origin === undefined ? {} : { Origin: origin, 'Sec-Fetch-Site': 'same-origin' }) },
      body: JSON.stringify({ popup_verifier: verifier }),
    });
    expect.soft(answer.status, `collecting with Origin ${origin}: ${answer.body}`).not.toBe(200);
    expect.soft(answer.body, `collecting with Origin ${origin}`).not.toContain('"user"');
  }
}

async function approve(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Authorize /);
  await page.getByLabel('Log in as').selectOption(String(C.users.gamer));
  await page.getByRole('button', { name: 'Approve' }).click();
}

/** The places that can set a cookie for app.test's https pages without being app.test's https origin. */
const PLANTS = [
  {
    name: 'a sibling subdomain, Domain=app.test, Secure, SameSite=None',
    from: () => world.sibling,
    attributes: 'Domain=app.test; Path=/; Secure; SameSite=None',
  },
  {
    name: 'a sibling subdomain, Domain=app.test, without Secure',
    from: () => world.sibling,
    attributes: 'Domain=app.test; Path=/',
  },
  {
    name: 'plain http on the same host, host-only',
    from: () => world.plainHttp,
    attributes: 'Path=/',
  },
  {
    name: 'another https port of the same host, host-only, Secure',
    from: () => world.otherPort,
    attributes: 'Path=/; Secure; SameSite=None',
  },
] as const;

for (const plant of PLANTS) {
  test(`a binding cookie tossed from ${plant.name} under the plain name does not bind the attacker's state on https`, async ({
    page,
    context,
  }) => {
    const mallory = await attacker();
    const facts = await watchCookies(context, page, mallory.plainName);

    // The victim visits the attacker's page, which tosses the cookie.
    const setCookie = `${mallory.plainName}=${mallory.value}; ${plant.attributes}`;
    await page.goto(`${plant.from()}/plant?${new URLSearchParams({ cookie: setCookie })}`);
    const jar = (await context.cookies(`${world.app}/auth/itch`)).map((cookie) => cookie.name);
    test.info().annotations.push({
      type: 'plant',
      description: `jar for ${world.app}: ${JSON.stringify(jar)}; set-blocked: ${JSON.stringify(facts.setBlocked)}`,
    });

    // …and is then sent to itch.io's authorization page of the real app with the attacker's state.
    const authorize = appQuery(mallory.state);
    authorize.set('response_type', 'token');
    await page.goto(`${world.emulator.url}/user/oauth?${authorize}`);
    await approve(page);
    await page.waitForURL(`${world.app}/callback.html`);
    await expect.poll(() => world.deposits.length, 'the callback page deposited').toBe(1);
    test.info().annotations.push({
      type: 'deposit',
      description: `${JSON.stringify(world.deposits)}; not sent: ${JSON.stringify(facts.depositNotSent)}`,
    });

    // The plant worked: the deposit carried the planted plain-name cookie (and no __Host- one).
    const [deposit] = world.deposits;
    expect(deposit!.state).toBe(mallory.state);
    expect(deposit!.origin).toBe(world.app);
    expect(deposit!.cookieNames, `Chromium sent the planted cookie with the deposit (blocked: ${JSON.stringify(facts)})`).toContain(
      mallory.plainName,
    );
    expect(deposit!.cookieNames.filter((name) => name.startsWith('__Host-'))).toEqual([]);

    // …and counted for nothing (soft: if it ever counts, every consequence is reported).
    expect.soft(deposit!.status, 'the deposit was refused').toBe(403);
    expect.soft(world.refusals.join('\n')).toContain('403 state_mismatch this popup login was not started in this browser');
    expect.soft(world.itchCalls, 'the handler never asked itch.io').toEqual([]);
    await expect.soft(page.locator('itch-oauth-callback')).toContainText(STATE_MISMATCH_WORDS);
    await expectAttackerCollectsNothing(mallory.verifier);
    expect
      .soft(
        world.logins.map((login) => `user ${login.user.id} for ${login.startedFrom}`),
        'onLogin never ran',
      )
      .toEqual([]);
  });
}

test('a session cookie tossed from a sibling subdomain under the plain name counts for nothing on the https site, and logout removes it', async ({
  page,
  context,
}) => {
  // A validly sealed plain session, as an http deployment of the same secret seals it (which is
  // what an attacker could once make the https site mint behind a TLS-ending proxy).
  const plainSite = createSessions({ secrets: ['cookie-tossing-test-secret-0123456789abcdef'], origin: 'http://127.0.0.1:3000' });
  const minted = (await plainSite.onLogin({
    user: { id: 66, username: 'mallory', url: 'https://mallory.itch.io' } as LoginContext['user'],
    scopes: ['profile:me'],
    token: 'unused',
    startedFrom: 'http://127.0.0.1:3000',
    request: new Request('http://127.0.0.1:3000/auth/itch'),
  })) as { headers: HeadersInit };
  const value = new Headers(minted.headers).get('set-cookie')!.split(';')[0]!.slice('itch-session='.length);
  await page.goto(
    `${world.sibling}/plant?${new URLSearchParams({ cookie: `itch-session=${value}; Domain=app.test; Path=/; Secure; SameSite=Lax` })}`,
  );
  const jar = async () => (await context.cookies(`${world.app}/`)).map((cookie) => `${cookie.name}@${cookie.domain}`);
  expect(await jar(), 'the plant reached the jar for the app').toContain('itch-session@.app.test');

  await page.goto(`${world.app}/account.html`);
  const me = await page.evaluate(async () => (await fetch('/me')).status);
  expect(me, 'the https site reads no plain cookie').toBe(401);
  const logout = await page.evaluate(async () => (await fetch('/logout', { method: 'POST' })).status);
  expect(logout).toBe(204);
  expect(await jar(), 'logout removed the planted cookie').not.toContain('itch-session@.app.test');
});

test("the control: a real popup login with the package's button on the https app completes with its __Host- cookie", async ({
  page,
  context,
}) => {
  await page.goto(`${world.app}/spa.html`);
  const button = page.getByRole('button', { name: 'Log in with itch.io' });
  await expect(button).toBeEnabled();
  const opened = context.waitForEvent('page');
  await button.click();
  const popup = await opened;
  await approve(popup);
  await expect(page.locator('#result')).toContainText('itch-login-success', { timeout: 15_000 });

  expect(world.deposits).toHaveLength(1);
  const [deposit] = world.deposits;
  expect(deposit!.status).toBe(202);
  expect(deposit!.cookieNames).toContain(`__Host-itch-oauth-popup-${deposit!.state.slice(2, 14)}`);
  expect(world.itchCalls.length, 'the handler asked itch.io about the token').toBeGreaterThan(0);
  expect(world.logins).toHaveLength(1);
  expect(world.logins[0]!.user.id).toBe(C.users.gamer);
  expect(world.logins[0]!.startedFrom).toBe(world.app);
});
