// loginWithLoopback end to end: the emulator plays itch.io, Playwright's Chromium plays the
// user's system browser, and the listener is the real one on 127.0.0.1.
import assert from 'node:assert/strict';
import { createServer, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { ItchOAuthError, loginWithLoopback, type LoopbackLoginOptions } from '../../src/desktop/index.js';
import {
  assertPortFree,
  browserOpener,
  C,
  closeNet,
  decide,
  emulatorFor,
  freePort,
  holdPort,
  launchBrowser,
  pageOutcome,
  type Browser,
  type BrowserContext,
  type Page,
  type RunningEmulator,
} from './support.js';

let browser: Browser;
let emulator: RunningEmulator;
let denyingEmulator: RunningEmulator;
let context: BrowserContext;
let page: Page;

before(async () => {
  browser = await launchBrowser();
  emulator = await emulatorFor([]);
  denyingEmulator = await emulatorFor([], { onDeny: 'redirect' });
});
after(async () => {
  await browser.close();
  await emulator.close();
  await denyingEmulator.close();
});
beforeEach(async () => {
  context = await browser.newContext();
  page = await context.newPage();
});
afterEach(async () => {
  await context.close();
});

/** A fresh loopback redirect URI on a free port, registered with the emulator(s). */
async function registeredUri(path = '/itch-callback'): Promise<{ redirectUri: string; port: number }> {
  const port = await freePort();
  const redirectUri = `http://127.0.0.1:${port}${path}`;
  emulator.addRedirectUri(C.clients.demo.clientId, redirectUri);
  denyingEmulator.addRedirectUri(C.clients.demo.clientId, redirectUri);
  return { redirectUri, port };
}

function start(redirectUri: string, extra: Partial<LoopbackLoginOptions> = {}, server = emulator) {
  const { openBrowser, opened } = browserOpener();
  const login = loginWithLoopback({
    clientId: C.clients.demo.clientId,
    redirectUri,
    baseUrl: server.url,
    apiBaseUrl: server.apiUrl,
    openBrowser,
    ...extra,
  });
  // Keep an early rejection from counting as unhandled before the test awaits it.
  login.catch(() => undefined);
  return { login, opened };
}

async function whoOwns(token: string): Promise<number> {
  const response = await fetch(`${emulator.apiUrl}/profile`, { headers: { authorization: `Bearer ${token}` } });
  assert.equal(response.status, 200);
  return ((await response.json()) as { user: { id: number } }).user.id;
}

/** A raw request to the listener, with headers a browser would never let a page choose. */
function rawRequest(port: number, options: { path: string; method?: string; headers?: Record<string, string>; body?: string }) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, path: options.path, method: options.method ?? 'GET', headers: options.headers },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

const isCode = (code: string) => (error: unknown) => error instanceof ItchOAuthError && error.code === code;

/** The browser opens the start address: it lands on the authorization page, with the login cookie. */
async function openStart(startAddress: string): Promise<URL> {
  await page.goto(startAddress);
  return new URL(page.url());
}

/** The start address, raw: its 302 answer (status, Location, Set-Cookie, headers). */
async function fetchStart(startAddress: string) {
  const url = new URL(startAddress);
  return new Promise<{
    status: number;
    location: string;
    setCookie: string;
    cookie: string;
    headers: Record<string, unknown>;
    body: string;
  }>((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => {
        const setCookie = res.headers['set-cookie']?.[0] ?? '';
        resolve({
          status: res.statusCode ?? 0,
          location: res.headers.location ?? '',
          setCookie,
          cookie: setCookie.split(';')[0] ?? '',
          headers: res.headers,
          body,
        });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('loginWithLoopback', () => {
  it('Approve: the token comes back, checked, and the listener is gone', async () => {
    const { redirectUri, port } = await registeredUri();
    const { login, opened } = start(redirectUri, { scope: 'profile:me profile:owned' });
    const startAddress = new URL(await opened);
    assert.equal(startAddress.origin, `http://127.0.0.1:${port}`, 'the browser is handed an address on the listener');
    assert.match(startAddress.pathname + startAddress.search, /^\/itch-oauth-start\/[A-Za-z0-9_-]{43}$/);
    const url = await openStart(startAddress.href);
    assert.equal(url.origin + url.pathname, `${emulator.url}/user/oauth`);
    assert.ok(!startAddress.href.includes(url.searchParams.get('state') ?? '?'), 'no state in what the opener gets');
    assert.equal(url.searchParams.get('redirect_uri'), redirectUri);
    assert.ok((url.searchParams.get('state') ?? '').length >= 22, 'state carries at least 128 bits');

    const callback = page.waitForResponse((response) => response.url().startsWith(redirectUri) && response.request().method() === 'GET');
    await decide(page, url.href, 'Approve', C.users.press);
    const served = await callback;
    assert.equal(await pageOutcome(page), 'You are logged in');
    assert.match((await page.locator('#detail').textContent()) ?? '', /close this tab/);
    assert.equal(new URL(page.url()).hash, '', 'the fragment is cleared from the address bar');

    const result = await login;
    assert.match(result.accessToken, /^[0-9a-f]{40}$/);
    assert.deepEqual(result.scopes, ['profile:me', 'profile:owned']);
    assert.equal(await whoOwns(result.accessToken), C.users.press);
    await assertPortFree(port);

    const headers = served.headers();
    assert.match(headers['content-security-policy'] ?? '', /^default-src 'none'; script-src 'sha256-[A-Za-z0-9+/]+=';/);
    assert.match(headers['content-security-policy'] ?? '', /connect-src 'self'/);
    assert.equal(headers['referrer-policy'], 'no-referrer');
    assert.equal(headers['cache-control'], 'no-store');
    // Back in history, the token is gone too.
    await page.goBack().catch(() => undefined);
    assert.ok(!page.url().includes(result.accessToken));
  });

  it('a redirect URI without a path (http://127.0.0.1:PORT, as in itch.io docs) works', async () => {
    const port = await freePort();
    const redirectUri = `http://127.0.0.1:${port}`;
    emulator.addRedirectUri(C.clients.demo.clientId, redirectUri);
    const { login, opened } = start(redirectUri);
    await decide(page, await opened, 'Approve');
    assert.equal(await pageOutcome(page), 'You are logged in');
    assert.deepEqual((await login).scopes, ['profile:me']);
    await assertPortFree(port);
  });

  it('localhost: listens on both loopback families, and lets both go', async () => {
    const port = await freePort();
    const redirectUri = `http://localhost:${port}/cb`;
    emulator.addRedirectUri(C.clients.demo.clientId, redirectUri);
    const { login, opened } = start(redirectUri);
    const url = await opened;
    // A machine without IPv6 has 127.0.0.1 alone, and so has the listener.
    const hosts = (await freePort('::1').then(
      () => true,
      () => false,
    ))
      ? ['127.0.0.1', '::1']
      : ['127.0.0.1'];
    for (const host of hosts) await assert.rejects(assertPortFree(port, host), /EADDRINUSE/, host);
    await decide(page, url, 'Approve');
    assert.equal(await pageOutcome(page), 'You are logged in');
    await login;
    for (const host of hosts) await assertPortFree(port, host);
  });

  it('Deny on itch.io sends nothing back: the login ends with a timeout that says so', async () => {
    const { redirectUri, port } = await registeredUri();
    const { login, opened } = start(redirectUri, { timeoutMs: 1500 });
    await decide(page, await opened, 'Deny');
    await page.getByRole('heading', { name: 'Access denied' }).waitFor();
    await assert.rejects(login, (error: unknown) => {
      assert.ok(isCode('timeout')(error));
      assert.match((error as Error).message, /no answer from itch\.io within 2 seconds: .*Deny/);
      return true;
    });
    await assertPortFree(port);
  });

  it('Deny with an RFC 6749 redirect (#error=access_denied) ends the login at once', async () => {
    const { redirectUri, port } = await registeredUri();
    const { login, opened } = start(redirectUri, {}, denyingEmulator);
    await decide(page, await opened, 'Deny');
    assert.equal(await pageOutcome(page), 'Login cancelled');
    await assert.rejects(login, isCode('access_denied'));
    await assertPortFree(port);
  });

  it('a forged callback with another state (or none) is refused, and the real one still goes through', async () => {
    const { redirectUri, port } = await registeredUri();
    const { login, opened } = start(redirectUri);
    // The browser has the login cookie: the state check itself refuses these.
    const url = (await openStart(await opened)).href;
    const forged = emulator.issueToken({ userId: C.users.developer, clientId: C.clients.demo.clientId, scopes: 'profile:me' });

    const visit = async (fragment: string): Promise<string> => {
      await page.goto('about:blank'); // a fragment-only change would not load the page again
      await page.goto(`${redirectUri}#${fragment}`);
      return pageOutcome(page);
    };
    assert.equal(await visit(`access_token=${forged}&state=${'A'.repeat(43)}`), 'This answer is not for the login in progress');
    assert.equal(await visit(`access_token=${forged}`), 'This answer is not for the login in progress');
    assert.equal(await visit(`access_token=${forged}&access_token=x&state=y`), 'This is not an answer from itch.io');

    await decide(page, url, 'Approve', C.users.gamer);
    assert.equal(await pageOutcome(page), 'You are logged in');
    const result = await login;
    assert.notEqual(result.accessToken, forged);
    assert.equal(await whoOwns(result.accessToken), C.users.gamer);
    await assertPortFree(port);
  });

  /**
   * A login waiting for its answer, with a token and this login's real state in hand: what an
   * attacker would need to deliver. `end()` aborts it and proves the refusals did not end it.
   */
  async function pendingLogin() {
    const { redirectUri, port } = await registeredUri();
    const controller = new AbortController();
    const { login, opened } = start(redirectUri, { signal: controller.signal });
    const startAddress = await opened;
    // The start address answered to this test: the state and the cookie, all a forger could hold.
    const started = await fetchStart(startAddress);
    const state = new URL(started.location).searchParams.get('state') ?? '';
    const token = emulator.issueToken({ userId: C.users.developer, clientId: C.clients.demo.clientId, scopes: 'profile:me' });
    const fragment = `access_token=${token}&state=${state}`;
    const post = (headers: Record<string, string>, path = '/itch-callback') =>
      rawRequest(port, { path, method: 'POST', headers: { cookie: started.cookie, ...headers }, body: JSON.stringify({ fragment }) });
    const end = async (): Promise<void> => {
      assert.equal((await rawRequest(port, { path: '/itch-callback' })).status, 200, 'still listening');
      controller.abort(new Error('test over'));
      await assert.rejects(login, /test over/);
      await assertPortFree(port);
    };
    return { redirectUri, port, origin: `http://127.0.0.1:${port}`, fragment, post, end, login, startAddress, started, token };
  }
  const json = { 'content-type': 'application/json' };

  it('refuses a foreign Host: DNS rebinding in the browser, and raw', async () => {
    const { port, origin, fragment, post, end } = await pendingLogin();
    // rebind.example resolves to 127.0.0.1 in this Chromium (see CHROMIUM_ARGS), as a rebinding attack makes it.
    const rebound = await page.goto(`http://rebind.example:${port}/itch-callback#${fragment}`);
    assert.equal(rebound?.status(), 421);
    assert.equal((await rawRequest(port, { path: '/itch-callback', headers: { host: `evil.example:${port}` } })).status, 421);
    assert.equal((await post({ ...json, host: `localhost:${port}`, origin })).status, 421);
    await end();
  });

  it('refuses a POST from another origin, without an Origin, or not JSON', async () => {
    const { redirectUri, origin, fragment, post, end } = await pendingLogin();
    // A page of another site (here the emulator's origin) POSTs the right state across origins.
    await page.goto(`${emulator.url}/`);
    const crossSite = await page.evaluate(
      async ([target, body]) =>
        fetch(target as string, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body as string }).then(
          (response) => `status ${response.status}`,
          () => 'blocked',
        ),
      [redirectUri, JSON.stringify({ fragment })],
    );
    assert.equal(crossSite, 'blocked');
    // Raw requests, with headers no page can choose.
    assert.equal((await post({ ...json, origin: emulator.url })).status, 403);
    assert.equal((await post({ ...json, origin: 'null' })).status, 403);
    assert.equal((await post(json)).status, 403, 'no Origin');
    assert.equal((await post({ 'content-type': 'text/plain', origin })).status, 415);
    await end();
  });

  it('answers only its own path, with GET and POST', async () => {
    const { port, origin, post, end } = await pendingLogin();
    assert.equal((await post({ ...json, origin }, '/other')).status, 404);
    assert.equal((await post({ ...json, origin }, '/itch-callback?x=1')).status, 404);
    assert.equal((await post({ ...json, origin }, '/itch-callback/')).status, 404);
    assert.equal((await rawRequest(port, { path: '/' })).status, 404);
    assert.equal((await rawRequest(port, { path: '/itch-callback', method: 'PUT' })).status, 405);
    assert.equal((await rawRequest(port, { path: '/itch-callback', method: 'OPTIONS', headers: { origin: emulator.url } })).status, 403);
    await end();
  });

  it("listens on loopback only: not reachable on the machine's other addresses", async (t) => {
    const { port, end } = await pendingLogin();
    const addresses = Object.values(networkInterfaces())
      .flat()
      .filter((address) => address !== undefined && !address.internal && address.family === 'IPv4');
    for (const address of addresses) {
      await assert.rejects(
        new Promise((resolve, reject) => {
          const socket = connect(port, address!.address).once('error', reject);
          socket.once('connect', () => resolve(socket.destroy()));
        }),
        /ECONNREFUSED/,
        `listening on ${address!.address}`,
      );
    }
    if (addresses.length === 0) t.diagnostic('this machine has no other IPv4 address to try');
    await end();
  });

  it('abort stops listening and rejects with the reason', async () => {
    const { redirectUri, port } = await registeredUri();
    const controller = new AbortController();
    const { login, opened } = start(redirectUri, { signal: controller.signal });
    await page.goto(await opened);
    controller.abort();
    await assert.rejects(login, (error: unknown) => (error as Error).name === 'AbortError');
    await assertPortFree(port);
    await assert.rejects(
      loginWithLoopback({
        clientId: C.clients.demo.clientId,
        redirectUri,
        signal: AbortSignal.abort(),
        openBrowser: () => assert.fail('opened'),
      }),
      (error: unknown) => (error as Error).name === 'AbortError',
    );
  });

  it('port in use, no readKey: an error naming the port and the redirect URI', async () => {
    const { redirectUri, port } = await registeredUri();
    const holder = await holdPort(port);
    try {
      await assert.rejects(start(redirectUri, { openBrowser: () => assert.fail('must not open the browser') }).login, (error: unknown) => {
        assert.ok(isCode('network_error')(error));
        assert.match((error as Error).message, new RegExp(`127\\.0\\.0\\.1:${port} \\(EADDRINUSE`));
        assert.ok((error as Error).message.includes(redirectUri));
        return true;
      });
    } finally {
      await closeNet(holder);
    }
  });

  it('port in use, with readKey: falls back to the out-of-band page, and the pasted key is checked', async () => {
    const { redirectUri, port } = await registeredUri();
    const holder = await holdPort(port);
    try {
      let shown = '';
      const result = await start(redirectUri, {
        openBrowser: () => assert.fail('the loopback flow must not start'),
        readKey: async (url) => {
          shown = url;
          await decide(page, url, 'Approve');
          return ` ${(await page.locator('#key').textContent()) ?? ''}\n`;
        },
      }).login;
      assert.equal(new URL(shown).searchParams.get('redirect_uri'), 'urn:ietf:wg:oauth:2.0:oob');
      assert.deepEqual(result.scopes, ['profile:me']);
      assert.equal(await whoOwns(result.accessToken), C.users.gamer);
    } finally {
      await closeNet(holder);
    }
  });

  it('refuses a redirect URI that is not loopback http, before listening', async () => {
    for (const redirectUri of [
      'http://0.0.0.0:4000/cb',
      'http://192.168.1.2:4000/cb',
      'https://127.0.0.1:4000/cb',
      'http://example.com:4000/cb',
      'urn:ietf:wg:oauth:2.0:oob',
    ]) {
      await assert.rejects(
        loginWithLoopback({ clientId: C.clients.demo.clientId, redirectUri, openBrowser: () => assert.fail('opened') }),
        isCode('config_invalid'),
        redirectUri,
      );
    }
  });

  it('a token itch.io does not know is refused after the state check, and shown as a failure', async () => {
    const { redirectUri, port } = await registeredUri();
    const { login, opened } = start(redirectUri);
    const state = (await openStart(await opened)).searchParams.get('state') ?? '';
    await page.goto(`${redirectUri}#access_token=${'0'.repeat(40)}&state=${state}`);
    assert.equal(await pageOutcome(page), 'The login did not complete');
    await assert.rejects(login, isCode('backend_rejected'));
    await assertPortFree(port);
    // The state was used once: a replay finds nobody listening.
    await assert.rejects(rawRequest(port, { path: '/itch-callback' }), /ECONNREFUSED/);
  });
});

describe('loginWithLoopback: the one-time start address', () => {
  const stopped = (error: unknown): boolean => {
    assert.ok(isCode('state_mismatch')(error), String(error));
    assert.match((error as Error).message, /another program opened the login address/);
    return true;
  };

  it('openBrowser gets only the start address: no state, nothing of the authorization URL', async () => {
    const { redirectUri, port } = await registeredUri();
    const controller = new AbortController();
    const { login, opened } = start(redirectUri, { scope: 'profile:me profile:owned', signal: controller.signal });
    const startAddress = await opened;
    const { location } = await fetchStart(startAddress);
    const authorize = new URL(location);
    const state = authorize.searchParams.get('state') ?? '';
    assert.ok(state.length >= 43);
    for (const secret of [
      state,
      'state=',
      emulator.url,
      C.clients.demo.clientId,
      '/user/oauth',
      encodeURIComponent(redirectUri),
      'profile',
    ]) {
      assert.ok(!startAddress.includes(secret), `${JSON.stringify(secret)} in ${startAddress}`);
    }
    assert.match(startAddress, new RegExp(`^http://127\\.0\\.0\\.1:${port}/itch-oauth-start/[A-Za-z0-9_-]{43}$`));
    controller.abort(new Error('test over'));
    await assert.rejects(login, /test over/);
    await assertPortFree(port);
  });

  it('answers once with a 302 to the authorization URL; a second visit is refused and stops the login', async () => {
    const { redirectUri, port } = await registeredUri();
    const { login, opened } = start(redirectUri);
    const startAddress = await opened;
    const first = await fetchStart(startAddress);
    assert.equal(first.status, 302);
    const authorize = new URL(first.location);
    assert.equal(authorize.origin + authorize.pathname, `${emulator.url}/user/oauth`);
    assert.equal(authorize.searchParams.get('redirect_uri'), redirectUri);
    assert.equal(authorize.searchParams.get('client_id'), C.clients.demo.clientId);
    assert.equal(first.headers['cache-control'], 'no-store');
    assert.equal(first.headers['referrer-policy'], 'no-referrer');
    assert.match(
      first.setCookie,
      new RegExp(`^itch-oauth-login-${port}=[A-Za-z0-9_-]{43}; Path=/itch-callback; HttpOnly; SameSite=Lax; Max-Age=300$`),
    );
    assert.ok(!first.setCookie.includes(authorize.searchParams.get('state') ?? '?'), 'the cookie is not the state');
    assert.ok(!startAddress.includes(first.cookie.split('=')[1] ?? '?'), 'nor the nonce');

    const second = await fetchStart(startAddress);
    assert.equal(second.status, 403);
    assert.equal(second.location, '', 'no authorization URL the second time');
    assert.match(second.body, /already opened once.*stopped the login/);
    await assert.rejects(login, stopped);
    await assertPortFree(port);
  });

  it('another program visits it first: the browser is refused and the login stops', async () => {
    const { redirectUri, port } = await registeredUri();
    const { login, opened } = start(redirectUri);
    const startAddress = await opened;
    assert.equal((await fetchStart(startAddress)).status, 302, 'the other program got the state');
    const refused = await page.goto(startAddress);
    assert.equal(refused?.status(), 403);
    assert.match((await page.locator('body').textContent()) ?? '', /already opened once/);
    await assert.rejects(login, stopped);
    await assertPortFree(port);
  });

  it('a forged callback with the right state but without the cookie is refused; the browser logs in', async () => {
    const { redirectUri, port } = await registeredUri();
    const { login, opened } = start(redirectUri);
    const authorize = await openStart(await opened); // the browser: the state and the cookie
    const state = authorize.searchParams.get('state') ?? '';
    const [cookie] = await context.cookies(`http://127.0.0.1:${port}/itch-callback`);
    assert.equal(cookie?.name, `itch-oauth-login-${port}`);
    assert.equal(cookie?.httpOnly, true);
    assert.equal(cookie?.sameSite, 'Lax');

    // The forger: this login's state (read from a screen, a history, a log), its own token.
    const forged = emulator.issueToken({ userId: C.users.developer, clientId: C.clients.demo.clientId, scopes: 'profile:me' });
    const forge = (cookieHeader?: string) =>
      rawRequest(port, {
        path: '/itch-callback',
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          origin: `http://127.0.0.1:${port}`,
          ...(cookieHeader === undefined ? {} : { cookie: cookieHeader }),
        },
        body: JSON.stringify({ fragment: `access_token=${forged}&state=${state}` }),
      });
    for (const cookieHeader of [
      undefined,
      `itch-oauth-login-${port}=${'A'.repeat(43)}`,
      `itch-oauth-login-${port + 1}=${cookie?.value ?? ''}`,
      `itch-oauth-login-${port}=${state}`,
    ]) {
      const refused = await forge(cookieHeader);
      assert.equal(refused.status, 403, String(cookieHeader));
      assert.match(refused.body, /not from the browser the login was opened in/);
    }

    await decide(page, authorize.href, 'Approve', C.users.gamer);
    assert.equal(await pageOutcome(page), 'You are logged in');
    const result = await login;
    assert.notEqual(result.accessToken, forged);
    assert.equal(await whoOwns(result.accessToken), C.users.gamer);
    assert.deepEqual(await context.cookies(`http://127.0.0.1:${port}/itch-callback`), [], 'the cookie is cleared');
    await assertPortFree(port);
    // Over: the start address is gone with the listener.
    await assert.rejects(fetchStart(await opened), /ECONNREFUSED/);
  });

  it('a second visit while the callback is being checked with itch.io stops the login', async () => {
    const { redirectUri, port } = await registeredUri();
    // itch.io's API, slowed down until the test lets it answer.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let asked!: () => void;
    const checking = new Promise<void>((resolve) => (asked = resolve));
    const slowApi = createServer((request, response) => {
      asked();
      void released
        .then(() => fetch(`${emulator.apiUrl}${request.url ?? '/'}`, { headers: { authorization: request.headers.authorization ?? '' } }))
        .then(async (answer) => response.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text()))
        .catch(() => response.destroy());
    });
    await new Promise<void>((resolve) => slowApi.listen(0, '127.0.0.1', resolve));
    try {
      const apiBaseUrl = `http://127.0.0.1:${(slowApi.address() as { port: number }).port}`;
      const { login, opened } = start(redirectUri, { apiBaseUrl });
      const startAddress = await opened;
      await decide(page, startAddress, 'Approve');
      await checking;
      assert.equal((await fetchStart(startAddress)).status, 403);
      await assert.rejects(login, stopped);
      release();
      assert.notEqual(await pageOutcome(page), 'You are logged in');
      await assertPortFree(port);
    } finally {
      release();
      slowApi.closeAllConnections();
      await new Promise((resolve) => slowApi.close(resolve));
    }
  });
});
