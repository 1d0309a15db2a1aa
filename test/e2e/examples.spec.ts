// Every project in examples/ as a newcomer runs it, against the packed tarball (installed into
// examples/node_modules by `npm run test:examples`), each in its own runtime: Node, Express, Hono,
// Vite, workerd (wrangler dev, no account), Deno and Bun. One emulator for all; each example's
// server on a free port. For each: a redirect login, a popup login, a refusal that leaves one line
// naming the reason in the server's log, the callback page's headers, pages that never repeat the
// Host header, the session (createSessions: /me, the page's Log out, a logout another origin POSTs
// refused, a session that outlives a restart with the same SESSION_SECRET), the framed game of
// static-node and cloudflare-worker (another origin, its popup login's game token, its saves,
// renewal and reloads), and (started again with an https PUBLIC_ORIGIN, as behind a proxy that
// ends TLS) a Secure __Host- cookie though the request is http. (examples/phaser-game, a game
// built with Vite and played on its canvas, has its own spec: phaser-game.spec.ts.)
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { popupBindingOf, popupStateOfBinding } from '../../src/core/state.js';
import { DEFAULT_SEED, DEFAULT_SEED_CREDENTIALS as C, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { dpopKey, dpopProof, serverNonce } from '../support/dpop.js';
import { freePort } from './support/free-port.js';
import { startServer, stopServer, type RunningServer } from './support/server-process.js';
import { userEnvironment } from './support/user-env.js';
import { STRICT_CSP } from './support/site.js';

const examples = fileURLToPath(new URL('../../examples/', import.meta.url));
const bin = (name: string): string => path.join(examples, 'node_modules', '.bin', name);
const press = DEFAULT_SEED.users.find((user) => user.id === C.users.press)!;
/** The user of C.oauthToken, the token the tests POST to /auth/itch themselves. */
const gamer = DEFAULT_SEED.users.find((user) => user.id === C.users.gamer)!;
/**
 * A fixed SESSION_SECRET for the examples' servers, so that one started again reads the sessions
 * of the one before (cloudflare-worker's comes from its wrangler.jsonc, the same every start).
 */
const SESSION_SECRET = 'examples-e2e-session-secret-0123456789abcdef';

interface Example {
  name: string;
  /** The command of the example's README, with the port to listen on. */
  command: (port: number, itchUrl: string, publicOrigin: string) => string[];
  /** Where the example says it is ready: its first capture group is the site's origin. */
  ready: RegExp;
}

const EXAMPLES: Example[] = [
  { name: 'static-node', command: () => [process.execPath, 'server.js'], ready: /listening on (http:\/\/\S+)/ },
  { name: 'express', command: () => [process.execPath, 'server.js'], ready: /listening on (http:\/\/\S+)/ },
  { name: 'hono', command: () => [process.execPath, 'server.js'], ready: /listening on (http:\/\/\S+)/ },
  {
    name: 'vite-spa',
    command: (port) => [process.execPath, bin('vite'), '--host', '127.0.0.1', '--port', String(port), '--strictPort'],
    ready: /Local:\s+(http:\/\/127\.0\.0\.1:\d+)/,
  },
  {
    name: 'cloudflare-worker',
    // wrangler.jsonc's vars are the Worker's settings: the test's emulator replaces the default one.
    command: (port, itchUrl, publicOrigin) => [
      ...[
        process.execPath,
        bin('wrangler'),
        'dev',
        '--ip',
        '127.0.0.1',
        '--port',
        String(port),
        '--inspector-port',
        '0',
        '--show-interactive-dev-session=false',
      ],
      ...['--var', `ITCH_BASE_URL:${itchUrl}`, '--var', `PUBLIC_ORIGIN:${publicOrigin}`, '--var', `GAME_ORIGIN:http://localhost:${port}`],
    ],
    ready: /Ready on (http:\/\/\S+)/,
  },
  {
    name: 'deno',
    command: () => [bin('deno'), 'run', '--allow-net', '--allow-env', '--allow-read', 'main.ts'],
    ready: /listening on (http:\/\/\S+)/,
  },
  { name: 'bun', command: () => [bin('bun'), 'run', 'server.ts'], ready: /listening on (http:\/\/\S+)/ },
];

/**
 * With `publicOrigin`, the example's PUBLIC_ORIGIN; without, its default (its own address). With
 * `sessionSecret`, its SESSION_SECRET; without, the random one it makes up. With `stateDir`, the
 * Worker's Durable Objects keep their state there instead of the example's .wrangler/ (which every
 * start of the Worker shares).
 */
async function start(
  example: Example,
  itch: RunningEmulator,
  { publicOrigin, sessionSecret, stateDir }: { publicOrigin?: string; sessionSecret?: string; stateDir?: string } = {},
): Promise<RunningServer> {
  const port = await freePort();
  const command = example.command(port, itch.url, publicOrigin ?? `http://127.0.0.1:${port}`);
  if (stateDir !== undefined && example.name === 'cloudflare-worker') command.push('--persist-to', stateDir);
  return startServer({
    name: example.name,
    command,
    cwd: path.join(examples, example.name),
    env: {
      ...userEnvironment(),
      ...(publicOrigin === undefined ? {} : { PUBLIC_ORIGIN: publicOrigin }),
      ...(sessionSecret === undefined ? {} : { SESSION_SECRET: sessionSecret }),
      PORT: String(port),
      ITCH_BASE_URL: itch.url,
      VITE_ITCH_BASE_URL: itch.url,
      NO_COLOR: '1',
      FORCE_COLOR: '0',
      WRANGLER_SEND_METRICS: 'false',
      DENO_NO_UPDATE_CHECK: '1',
    },
    ready: example.ready,
  });
}

async function approve(page: Page): Promise<void> {
  await page.getByLabel('Log in as').selectOption(String(C.users.press));
  await page.getByRole('button', { name: 'Approve' }).click();
}

/** Logs in `page`'s browser context by POSTing C.oauthToken as its page would (redirect mode): the session cookie lands in the context. */
async function logInDirectly(page: Page, origin: string): Promise<void> {
  const answer = await page.request.post(`${origin}/auth/itch`, { data: { access_token: C.oauthToken }, headers: { Origin: origin } });
  expect(answer.status(), await answer.text()).toBe(200);
}

/** The `name=value` of the session cookie a login answer sets, and its whole `Set-Cookie`. */
function sessionCookieOf(answer: Response): { cookie: string; setCookie: string } {
  const setCookie = answer.headers.getSetCookie().find((value) => /^(__Host-)?itch-session=/.test(value)) ?? '';
  return { cookie: setCookie.split(';')[0]!, setCookie };
}

/** The resident memory of a process group (the example's server and what it started), in MB. */
function groupRssMb(group: number): number {
  const ps = spawnSync('ps', ['-o', 'rss=', '-g', String(group)], { encoding: 'utf8' });
  return ps.stdout.split('\n').reduce((sum, line) => sum + (Number(line.trim()) || 0), 0) / 1024;
}

/**
 * PUTs `size` bytes of JSON-looking filler to `url` in 64 KiB chunks, announced by Content-Length
 * or chunked, stopping once an answer comes; samples the server group's memory meanwhile.
 */
async function putHuge(
  url: string,
  headers: Record<string, string>,
  size: number,
  chunked: boolean,
  group: number,
): Promise<{ status: number; sentMb: number; peakMb: number }> {
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  let peakMb = groupRssMb(group);
  const sampler = setInterval(() => {
    peakMb = Math.max(peakMb, groupRssMb(group));
  }, 50);
  try {
    return await new Promise((resolve, reject) => {
      let sent = 0;
      let answered = false;
      const request = httpRequest(url, {
        method: 'PUT',
        headers: {
          ...headers,
          'Content-Type': 'application/json',

          ...(chunked ? {} : { 'Content-Length': String(size) }),
        },
      });
      request.on('response', (response) => {
        answered = true;
        const sentMb = sent / 2 ** 20;
        response.resume();
        resolve({ status: response.statusCode!, sentMb, peakMb });
        request.destroy();
      });
      // A server may end the connection rather than answer (wrangler dev does, to a chunked body):
      // status 0 then, the body unread as well.
      request.on('error', (error) => {
        if (answered) return;
        answered = true;
        if ((error as NodeJS.ErrnoException).code === 'ECONNRESET' || (error as NodeJS.ErrnoException).code === 'EPIPE')
          resolve({ status: 0, sentMb: sent / 2 ** 20, peakMb });
        else reject(error);
      });
      const pump = (): void => {
        while (!answered && sent < size) {
          sent += chunk.length;
          if (!request.write(chunk)) return void request.once('drain', pump);
        }
        if (!answered) request.end();
      };
      request.write('{"stars":1,"x":"');
      pump();
    });
  } finally {
    clearInterval(sampler);
  }
}

/** The callback page's headers (README, Security), as every example sends them. */
const CALLBACK_HEADERS = { 'referrer-policy': 'no-referrer', 'cache-control': 'no-store', 'cross-origin-opener-policy': 'same-origin' };
/**
 * Its Content-Security-Policy: the one Security recommends (the e2e suite's STRICT_CSP), which the
 * examples' hand-written servers send; vite-spa's is the Vite plugin's default (the capture inline,
 * by its hash).
 */
const callbackCsp = (example: Example): string | RegExp =>
  example.name === 'vite-spa' ? /^script-src 'self' 'sha256-[\w+/]+=*'; object-src 'none'; base-uri 'none'$/ : STRICT_CSP;

/**
 * The errors and warnings a page logs, as a person with the console open sees them; but for the
 * app's own "signed out" (/me answers 401), which Chromium logs as an error. A page without an icon
 * would log /favicon.ico's 404 here: every example's pages name a data: icon.
 */
function consoleOf(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error' && message.type() !== 'warning') return;
    const resource = message.location().url;
    if (message.text().startsWith('Failed to load resource') && new URL(resource || 'about:blank').pathname === '/me') return;
    seen.push(`${message.type()}: ${message.text()} (${resource})`);
  });
  page.on('pageerror', (error) => seen.push(error.message));
  return seen;
}

test.beforeAll(() => {
  if (!existsSync(path.join(examples, 'node_modules', 'itch-oauth-widget', 'dist', 'server.js'))) {
    throw new Error('examples/node_modules has no packed itch-oauth-widget: run npm run test:examples');
  }
});

for (const example of EXAMPLES) {
  test.describe(`examples/${example.name}`, () => {
    test.describe.configure({ timeout: 90_000 });
    let itch: RunningEmulator;
    let running: RunningServer | undefined;

    test.beforeAll(async () => {
      itch = await startEmulator({ port: 0 });
      running = await start(example, itch, { sessionSecret: SESSION_SECRET });
      itch.addRedirectUri(C.clients.demo.clientId, `${running.origin}/callback.html`);
    });

    test.afterAll(async () => {
      await stopServer(running);
      await itch?.close();
    });

    test('logs in through a redirect and comes back signed in, with nothing in the console', async ({ page }) => {
      const logged = consoleOf(page);
      await page.goto(`${running!.origin}/`);
      await expect(page.getByText('Not signed in.')).toBeVisible();
      await page.getByRole('button', { name: 'Log in with itch.io', exact: true }).click();
      await page.waitForURL(`${itch.url}/user/oauth?**`);
      await approve(page);
      await expect(page.getByText(`Signed in as ${press.username}`)).toBeVisible();
      expect(new URL(page.url()).pathname).toBe('/');
      await page.reload();
      await expect(page.getByText(`Signed in as ${press.username}`), 'the session cookie').toBeVisible();
      const me = await page.request.get(`${running!.origin}/me`);
      expect(me.status(), 'GET /me with the session cookie').toBe(200);
      expect(await me.json()).toMatchObject({ id: press.id, username: press.username });
      expect((await fetch(`${running!.origin}/me`)).status, 'GET /me without it').toBe(401);
      expect(logged, 'the console of the site, the emulator and the callback page').toEqual([]);
    });

    test('logs in through a popup and the page stays, with nothing in either console', async ({ page, context }) => {
      const logged = consoleOf(page);
      await page.goto(`${running!.origin}/`);
      const opened = context.waitForEvent('page');
      await page.getByRole('button', { name: 'Log in with itch.io (popup)' }).click();
      const popup = await opened;
      const popupLogged = consoleOf(popup); // (from the emulator's page on: it opened blank)
      await approve(popup);
      await expect(page.getByText(`Signed in as ${press.username}`)).toBeVisible();
      await expect.poll(() => popup.isClosed(), { message: 'the popup closes itself' }).toBe(true);
      await page.reload();
      await expect(page.getByText(`Signed in as ${press.username}`), 'the session cookie').toBeVisible();
      expect(logged, "the site's console").toEqual([]);
      expect(popupLogged, "the popup's console (the emulator, the callback page)").toEqual([]);
    });

    test('a refused token leaves one line naming the reason in the server log, never the token', async ({ request }) => {
      const token = 'not-a-token-itch-io-knows-0123456789abcdef';
      const before = running!.log().length;
      const answer = await request.post(`${running!.origin}/auth/itch`, {
        data: { access_token: token },
        headers: { Origin: running!.origin },
      });
      expect(answer.status()).toBe(401);
      // The handler's onError line (wrangler also logs each request, with its status).
      await expect.poll(() => running!.log().slice(before)).toMatch(/refused \(401\)/);
      const lines = running!
        .log()
        .slice(before)
        .split('\n')
        .filter((line) => /refused \(401\)/.test(line));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/itch\.io did not accept the access token/);
      expect(running!.log()).not.toContain(token);
    });

    test("the page's Log out ends the session: /me answers 401 after", async ({ page }) => {
      const origin = running!.origin;
      await logInDirectly(page, origin);
      await page.goto(`${origin}/`);
      await expect(page.getByText(`Signed in as ${gamer.username}`)).toBeVisible();
      const loggedOut = page.waitForResponse(`${origin}/logout`);
      await page.getByRole('button', { name: 'Log out' }).click();
      expect((await loggedOut).status(), 'a same-origin POST /logout').toBe(204);
      await expect(page.getByText('Not signed in.')).toBeVisible();
      expect((await page.request.get(`${origin}/me`)).status()).toBe(401);
      await page.reload();
      await expect(page.getByText('Not signed in.')).toBeVisible();
    });

    test('refuses a logout that another origin POSTs with the cookie, and the session stays', async ({ page }) => {
      const origin = running!.origin;
      await logInDirectly(page, origin);
      // A page on another origin of the same site (127.0.0.1, another port: a sibling subdomain
      // in production), whose cross-origin form POST carries the SameSite=Lax cookie.
      const sibling = `${itch.url}/not-the-site.html`;
      await page.route(sibling, (route) =>
        route.fulfill({
          contentType: 'text/html',
          body: `<form method="post" action="${origin}/logout"></form><script>document.forms[0].submit()</script>`,
        }),
      );
      const refused = page.waitForResponse(`${origin}/logout`);
      await page.goto(sibling);
      const answer = await refused;
      expect(answer.status()).toBe(403);
      expect((await answer.request().allHeaders())['cookie'], 'the POST carried the session cookie').toMatch(/itch-session=/);
      expect(await answer.headerValue('set-cookie'), 'the cookie is not removed').toBeNull();
      const me = await page.request.get(`${origin}/me`);
      expect(me.status(), 'the session survives').toBe(200);
      expect(await me.json()).toMatchObject({ username: gamer.username });
      await page.goto(`${origin}/`);
      await expect(page.getByText(`Signed in as ${gamer.username}`)).toBeVisible();
    });

    test('serves the callback page with no Referer, no cache, no opener and its CSP', async ({ request }) => {
      const answer = await request.get(`${running!.origin}/callback.html`);
      expect(answer.status()).toBe(200);
      expect(answer.headers()).toMatchObject(CALLBACK_HEADERS);
      expect(answer.headers()['content-security-policy']).toMatch(callbackCsp(example));
    });

    test('the callback page runs under its CSP: its element is defined and nothing is refused', async ({ page }) => {
      // (The logins above go through it under the same policy: the capture's part.)
      await page.addInitScript(() => {
        const seen: string[] = [];
        (window as { violations?: string[] }).violations = seen;
        document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.effectiveDirective} ${event.blockedURI}`));
      });
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(`${running!.origin}/callback.html`);
      await page.waitForFunction(() => customElements.get('itch-oauth-callback') !== undefined);
      expect(await page.evaluate(() => (window as { violations?: string[] }).violations)).toEqual([]);
      expect(errors).toEqual([]);
    });

    if (example.name !== 'vite-spa') {
      // (vite-spa bundles the npm build, whose languages are chunks of its own build.)
      test("speaks the page's language: the script file's locales/ beside it are served", async ({ page, request }) => {
        await page.goto(`${running!.origin}/`);
        await expect(page.getByRole('button', { name: 'Log in with itch.io', exact: true })).toBeVisible();
        await page.evaluate(() => (document.documentElement.lang = 'de'));
        await expect(page.getByRole('button', { name: 'Mit itch.io anmelden', exact: true })).toBeVisible();
        const missing = await request.get(`${running!.origin}/locales/xx.js`);
        expect(missing.status(), 'no such language').toBe(404);
      });
    }

    if (example.name !== 'vite-spa') {
      // (vite-spa's pages hold no address: the app takes location.origin.)
      test('writes its configured origin into the pages, never the Host header', async ({ request }) => {
        for (const page of ['/', '/callback.html']) {
          const answer = await request.get(`${running!.origin}${page}`, { headers: { Host: 'attacker.example' } });
          const html = await answer.text();
          expect(html, page).not.toContain('attacker.example');
          if (page === '/') expect(html).toContain(`redirect-uri="${running!.origin}/callback.html"`);
        }
      });
    }

    if (example.name === 'deno') {
      test('type-checks with deno check against the packed types', () => {
        const checked = spawnSync(bin('deno'), ['check', 'main.ts'], {
          cwd: path.join(examples, 'deno'),
          encoding: 'utf8',
          env: userEnvironment({ NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' }),
        });
        expect(checked.status, checked.stderr).toBe(0);
      });
    }

    if (example.name === 'deno' || example.name === 'bun') {
      // A server that renders an app's pages imports the package's browser entries too: there is
      // no DOM there, and they import, register nothing and leave no DOM global behind (for Node,
      // a browser-condition build and a workerd bundle: test/scripts/browser-imports.test.ts).
      test('imports . and ./define without a DOM: nothing registered, no DOM global left', () => {
        const script = `const names = ['HTMLElement', 'document', 'customElements'];
const index = await import('itch-oauth-widget');
await import('itch-oauth-widget/define');
console.log(JSON.stringify({ classes: [typeof index.ItchLoginButton, typeof index.ItchOAuthCallback], left: names.filter((name) => name in globalThis) }));`;
        const ran = spawnSync(bin(example.name), example.name === 'deno' ? ['eval', script] : ['-e', script], {
          cwd: path.join(examples, example.name),
          encoding: 'utf8',
          env: userEnvironment({ NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' }),
        });
        expect(ran.status, ran.stderr).toBe(0);
        expect(JSON.parse(ran.stdout.trim().split('\n').pop()!)).toEqual({ classes: ['function', 'function'], left: [] });
      });
    }

    if (example.name === 'static-node' || example.name === 'cloudflare-worker') {
      // The framed game: on another site (localhost, the example's GAME_ORIGIN), framed by a
      // third one (as itch.io's page frames html-classic.itch.zone), so the site's cookie is
      // third-party in it. Its popup login answers a game token, with which it saves and loads at
      // the site's /api/progress (CORS), renews it at /api/renew, and keeps it over a reload.
      test('a framed game on another origin logs in with the popup, saves and loads with its game token, renews it, survives a reload', async ({
        page,
        context,
      }) => {
        const origin = running!.origin;
        const gameOrigin = origin.replace('127.0.0.1', 'localhost');
        // A real server on loopback (Chromium's Local Network Access keeps a page of no address,
        // as page.route makes, from framing loopback), on another origin than both.
        const framer = createHttpServer((_request, response) => {
          response
            .writeHead(200, { 'Content-Type': 'text/html' })
            .end(`<iframe src="${gameOrigin}/game/" style="width: 800px; height: 500px"></iframe>`);
        });
        await new Promise<void>((resolve) => framer.listen(0, '127.0.0.1', resolve));
        const framerUrl = `http://127.0.0.1:${(framer.address() as { port: number }).port}/`;
        const calls: { path: string; status: number; authorization?: string | undefined; cookie?: string | undefined }[] = [];
        /** The calls answered 401 use_dpop_nonce (RFC 9449 section 9): the page would send each again, with the nonce. */
        const nonceAsked: { path: string; index: number }[] = [];
        page.on('response', async (response) => {
          const url = new URL(response.url());
          if (url.origin !== origin || !url.pathname.startsWith('/api/') || response.request().method() === 'OPTIONS') return;
          const headers = await response.request().allHeaders();
          if (response.status() === 401 && /use_dpop_nonce/.test(response.headers()['www-authenticate'] ?? ''))
            nonceAsked.push({ path: url.pathname, index: calls.length });
          else
            calls.push({
              path: url.pathname,
              status: response.status(),
              authorization: headers['authorization'],
              cookie: headers['cookie'],
            });
        });

        await page.goto(framerUrl);
        const game = page.frameLocator('iframe');
        const hello = `Hello, ${press.display_name ?? press.username}!`;
        const logIn = async (where: typeof game | Page) => {
          const opened = context.waitForEvent('page');
          await where.getByRole('button', { name: 'Log in with itch.io to save' }).click();
          await approve(await opened);
          await expect(where.getByText(hello)).toBeVisible();
        };
        await logIn(game);
        // What an earlier run saved (wrangler dev keeps the Worker's KV between runs), or nothing.
        await expect(game.locator('#status')).toHaveText(/^(Nothing saved yet\.|Loaded: \d+ stars\.)$/);
        const stars = Number(/\d+/.exec((await game.locator('#status').textContent())!)?.[0] ?? 0) + 3;
        expect(await context.cookies(gameOrigin), 'no cookie for the game').toEqual([]);
        for (let i = 0; i < 3; i++) await game.getByRole('button', { name: 'Catch a star' }).click();
        await game.getByRole('button', { name: 'Save' }).click();
        await expect(game.getByText(`Saved: ${stars} stars.`)).toBeVisible();

        // Playwright starts Chromium with third-party storage partitioning turned off
        // (--disable-features=ThirdPartyStoragePartitioning), and Chromium then refuses a
        // third-party frame its storage, as it does for a player who blocks all site data: the
        // game keeps its token in memory only, so after a reload the player logs in again, and
        // their saves are on the site. (Chromium's default partitions that storage instead.)
        const frame = page.frames().find((candidate) => candidate.url().startsWith(gameOrigin))!;
        expect(
          await frame.evaluate(() => {
            try {
              return typeof sessionStorage.getItem('game-token');
            } catch (error) {
              return (error as Error).name;
            }
          }),
        ).toBe('SecurityError');
        await page.reload();
        await expect(game.getByRole('button', { name: 'Log in with itch.io to save' })).toBeVisible();
        await logIn(game);
        await expect(game.getByText(`Loaded: ${stars} stars.`)).toBeVisible();

        // Where the game's storage is allowed (here, opened as the page itself), it keeps the
        // token over a reload: renewed at once, then its saves load.
        await page.goto(`${gameOrigin}/game/`);
        await logIn(page);
        await expect(page.getByText(`Loaded: ${stars} stars.`)).toBeVisible();
        const renewed = page.waitForResponse(
          (response) =>
            response.url() === `${origin}/api/renew` &&
            response.request().method() === 'POST' &&
            !/use_dpop_nonce/.test(response.headers()['www-authenticate'] ?? ''),
        );
        await page.reload();
        expect((await renewed).status(), 'the kept token, renewed after the reload').toBe(200);
        await expect(page.getByText(hello)).toBeVisible();
        await expect(page.getByText(`Loaded: ${stars} stars.`)).toBeVisible();
        await expect(page.locator('#stars')).toHaveText(String(stars));

        // Every API call carried the game token, none a cookie of the site.
        expect(calls.map((call) => `${call.path} ${call.status}`)).toEqual([
          '/api/progress 200',
          '/api/progress 204',
          '/api/progress 200',
          '/api/progress 200',
          '/api/renew 200',
          '/api/progress 200',
        ]);
        // The page took the site's DPoP nonce from each login's answer and kept it over the reload:
        // never asked for one (which would be a 401 and a resend).
        expect(nonceAsked, 'calls answered 401 use_dpop_nonce').toEqual([]);
        for (const call of calls) {
          expect(call.authorization).toMatch(/^DPoP [\w-]+\.[\w-]+\.[\w-]+$/);
          expect(call.cookie).toBeUndefined();
        }
        const tokens = new Set(calls.map((call) => call.authorization));
        expect(tokens.size, 'three logins and one renewal: four tokens').toBe(4);
        const token = calls.at(-1)!.authorization!.slice('DPoP '.length);
        // A copy of the bound token, without a proof by the game's key, opens nothing.
        expect((await fetch(`${origin}/api/progress`, { headers: { Origin: gameOrigin, Authorization: `Bearer ${token}` } })).status).toBe(
          401,
        );
        // A game token does not open the site's own routes, and its API refuses no token and a forged one.
        expect((await fetch(`${origin}/me`, { headers: { Authorization: `Bearer ${token}` } })).status, '/me is for the cookie').toBe(401);
        expect((await fetch(`${origin}/api/progress`, { headers: { Origin: gameOrigin } })).status).toBe(401);
        const [header, payload, signature] = token.split('.');
        const forged = Buffer.from(
          JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), sub: String(gamer.id) }),
        ).toString('base64url');
        expect(
          (await fetch(`${origin}/api/progress`, { headers: { Authorization: `Bearer ${header}.${forged}.${signature}` } })).status,
        ).toBe(401);
        // Game servers verify it with the site's JWK Set alone.
        const keys = (await (await fetch(`${origin}/.well-known/jwks.json`)).json()) as { keys: { kty: string; crv: string }[] };
        expect(keys.keys[0]).toMatchObject({ kty: 'OKP', crv: 'Ed25519' });
        framer.close();
      });
    }

    if (example.name === 'static-node' || example.name === 'cloudflare-worker') {
      // The game's save API reads its body within 1 KiB: a player with their own game token
      // cannot make the server hold 100 MB (as request.json() would) whether the body says its
      // length or comes chunked.
      test('a 100 MB save is refused with 413 before it is read, and the server memory stays flat', async () => {
        test.setTimeout(120_000);
        const origin = running!.origin;
        const gameOrigin = origin.replace('127.0.0.1', 'localhost');
        // The player's own game, with its key: each request with a DPoP proof of its own (RFC 9449).
        const key = await dpopKey();
        const login = await fetch(`${origin}/auth/itch`, {
          method: 'POST',
          headers: { Origin: gameOrigin, 'Content-Type': 'application/json', DPoP: await dpopProof(key, 'POST', `${origin}/auth/itch`) },
          body: JSON.stringify({ access_token: C.oauthToken }),
        });
        const { gameToken } = (await login.json()) as { gameToken: string };
        expect(gameToken, 'a login the game started: a game token').toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
        const authorized = async () => ({
          Authorization: `DPoP ${gameToken}`,
          // A nonce of this moment (the uploads below take a while): as the game's page keeps the last one.
          DPoP: await dpopProof(key, 'PUT', `${origin}/api/progress`, {
            token: gameToken,
            nonce: await serverNonce(`${origin}/api/progress`, gameOrigin),
          }),
          Origin: gameOrigin,
        });
        const save = async (body: string) =>
          fetch(`${origin}/api/progress`, {
            method: 'PUT',
            headers: { ...(await authorized()), 'Content-Type': 'application/json' },
            body,
          });
        expect((await save(JSON.stringify({ stars: 7 }))).status, 'a save of its size').toBe(204);
        expect((await save(JSON.stringify({ stars: 7, pad: 'x'.repeat(1100) }))).status, 'past 1 KiB').toBe(413);
        expect((await save('{"stars":')).status, 'not JSON').toBe(400);

        const group = running!.child.pid!;
        const before = groupRssMb(group);
        const size = 100 * 2 ** 20;
        const figures: string[] = [];
        for (const chunked of [false, true]) {
          const { status, sentMb, peakMb } = await putHuge(`${origin}/api/progress`, await authorized(), size, chunked, group);
          figures.push(
            `${chunked ? 'chunked' : 'Content-Length'}: ${status} after ${sentMb.toFixed(1)} MB sent, peak ${peakMb.toFixed(0)} MB`,
          );
          // (wrangler dev's local server, when the Worker refuses a chunked upload, passes its 413
          // on, or ends the connection, or answers the rest of the upload 501 or 503: not saved.)
          if (example.name === 'cloudflare-worker' && chunked) expect(status < 200 || status >= 400, figures.at(-1)).toBe(true);
          else expect(status, figures.at(-1)).toBe(413);
          // (wrangler dev's local server takes in the whole upload before it passes the Worker's
          // answer on: there, the figure is the Worker's memory only.)
          if (example.name === 'static-node') expect(sentMb, `refused early: ${figures.at(-1)}`).toBeLessThan(50);
          expect(peakMb - before, `memory flat (${before.toFixed(0)} MB before): ${figures.at(-1)}`).toBeLessThan(50);
        }
        test
          .info()
          .annotations.push({ type: 'memory', description: `${example.name}: ${before.toFixed(0)} MB before; ${figures.join('; ')}` });
        console.log(`${example.name}: ${before.toFixed(0)} MB before; ${figures.join('; ')}`);
        expect((await save(JSON.stringify({ stars: 8 }))).status, 'still serving').toBe(204);
      });
    }

    if (example.name === 'cloudflare-worker') {
      // The popup relay's guarantees in workerd, with the Durable Object's storage as the store.
      test('the first of concurrent deposits wins, and the outcome is collected once', async ({ request }) => {
        const origin = running!.origin;
        const verifier = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url');
        const binding = await popupBindingOf(verifier);
        const state = await popupStateOfBinding(binding);
        const query = new URLSearchParams({
          state,
          client_id: C.clients.demo.clientId,
          redirect_uri: `${origin}/callback.html`,
          scope: 'profile:me',
        });
        // What the popup's start page does: opened (GET), then bound to this browser once its
        // opener confirmed the state (the binding cookie stays in this request context).
        expect((await request.get(`${origin}/auth/itch?${query}`)).status()).toBe(200);
        const bound = await request.post(`${origin}/auth/itch?${query}`, {
          data: { popup_bind: state, opener: origin, binding },
          headers: { Origin: origin },
        });
        expect(bound.status(), await bound.text()).toBe(200);
        const post = (data: object) => request.post(`${origin}/auth/itch`, { data, headers: { Origin: origin } });
        const deposits = await Promise.all(Array.from({ length: 8 }, () => post({ access_token: C.oauthToken, state })));
        expect(deposits.map((answer) => answer.status()).sort()).toEqual([202, 409, 409, 409, 409, 409, 409, 409]);
        const collects = await Promise.all(Array.from({ length: 8 }, () => post({ popup_verifier: verifier })));
        const outcomes = await Promise.all(collects.map(async (answer) => ({ status: answer.status(), body: await answer.json() })));
        // The others find it pending, or already taken (409), as each instance sees the shared store.
        const collected = outcomes.filter((outcome) => outcome.body.pending !== true && outcome.status !== 409);
        expect(collected, 'collected once').toHaveLength(1);
        expect(collected[0]).toMatchObject({ status: 200, body: { user: { username: gamer.username } } });
      });
    }

    // Last: it replaces the running server.
    test('a session outlives a restart of the server with the same SESSION_SECRET', async () => {
      const origin = running!.origin;
      const login = await fetch(`${origin}/auth/itch`, {
        method: 'POST',
        headers: { Origin: origin, 'Content-Type': 'application/json' },
        body: JSON.stringify({ access_token: C.oauthToken }),
      });
      expect(login.status, await login.clone().text()).toBe(200);
      const { cookie, setCookie } = sessionCookieOf(login);
      // A login started from an http page: the plain name, without Secure (browsers refuse Secure on http).
      expect(setCookie).toMatch(/^itch-session=/);
      expect(setCookie).toMatch(/;\s*HttpOnly(;|$)/i);
      expect(setCookie).toMatch(/;\s*SameSite=Lax(;|$)/i);
      expect(setCookie).not.toMatch(/;\s*Secure(;|$)/i);
      expect((await fetch(`${origin}/me`, { headers: { Cookie: cookie } })).status).toBe(200);
      await stopServer(running);
      running = await start(example, itch, { sessionSecret: SESSION_SECRET });
      itch.addRedirectUri(C.clients.demo.clientId, `${running.origin}/callback.html`);
      const me = await fetch(`${running.origin}/me`, { headers: { Cookie: cookie } });
      expect(me.status, 'the same cookie, read by the new process').toBe(200);
      expect(await me.json()).toMatchObject({ id: gamer.id, username: gamer.username });
    });
  });
}

// The token handler's per-client limits need the client's address, which the handler can only be
// given (a Request carries no socket): each example passes the one its server saw, as the deploy
// guide says for its host (Cloudflare's edge sets CF-Connecting-IP, which the handler reads there by
// itself). Made-up tokens from one client, past the 30 a minute itch.io may be asked about, are
// then refused with 429 before itch.io is asked; without the address, every one of them reaches
// itch.io (401) and only the ceiling of every client together (503) would ever stop them. vite-spa is
// left out: Vite's server hands the plugin's handler a Request without its socket. Each example is
// started again for this (the Worker with a store of its own), so that its flooded count does not
// refuse the other tests' logins.
for (const example of EXAMPLES.filter(({ name }) => name !== 'vite-spa')) {
  test.describe(`examples/${example.name} rate limits`, () => {
    test.describe.configure({ timeout: 90_000 });
    let itch: RunningEmulator;
    let running: RunningServer | undefined;
    let stateDir: string | undefined;

    test.beforeAll(async () => {
      itch = await startEmulator({ port: 0 });
      stateDir = mkdtempSync(path.join(tmpdir(), 'itch-oauth-examples-rate-'));
      running = await start(example, itch, { stateDir });
    });

    test.afterAll(async () => {
      await stopServer(running);
      await itch?.close();
      if (stateDir !== undefined) rmSync(stateDir, { recursive: true, force: true });
    });

    test('counts made-up tokens per client address: past the limit, 429 with Retry-After', async () => {
      const origin = running!.origin;
      const statuses: number[] = [];
      let refused: Response | undefined;
      // Twice the limit at most (a count's minute may end on the way), 12 a second: under the ceiling
      // of 20 calls to itch.io a second, which would answer 503 instead.
      for (let sent = 0; sent < 60 && refused === undefined; sent++) {
        const answer = await fetch(`${origin}/auth/itch`, {
          method: 'POST',
          headers: { Origin: origin, 'Content-Type': 'application/json' },
          body: JSON.stringify({ access_token: `made-up-token-${randomUUID().replaceAll('-', '')}` }),
        });
        statuses.push(answer.status);
        if (answer.status === 429) refused = answer;
        else await new Promise((resolve) => setTimeout(resolve, 80));
      }
      expect(refused, `statuses: ${statuses.join(' ')}`).toBeDefined();
      expect(
        statuses.slice(0, -1).every((status) => status === 401),
        `statuses: ${statuses.join(' ')}`,
      ).toBe(true);
      expect(statuses.length).toBeGreaterThan(30);
      expect(Number(refused!.headers.get('Retry-After'))).toBeGreaterThan(0);
    });
  });
}

// Behind a proxy that ends TLS, the example gets plain http requests (and any Host a client sends):
// the pages' addresses come from PUBLIC_ORIGIN, which the handler accepts as Origin
// (allowedOrigins); createSessions makes the cookie Secure (and __Host-) from the login's https
// Origin (its startedFrom), not from the request's scheme. Started without SESSION_SECRET: the
// random one each example makes up.
for (const example of EXAMPLES) {
  test.describe(`examples/${example.name} behind a proxy that ends TLS`, () => {
    test.describe.configure({ timeout: 90_000 });
    const publicOrigin = 'https://game.example.test';
    let itch: RunningEmulator;
    let running: RunningServer | undefined;

    test.beforeAll(async () => {
      itch = await startEmulator({ port: 0 });
      running = await start(example, itch, { publicOrigin });
    });

    test.afterAll(async () => {
      await stopServer(running);
      await itch?.close();
    });

    test('sets a Secure __Host- cookie for an http request from the PUBLIC_ORIGIN page', async ({ request }) => {
      const answer = await request.post(`${running!.origin}/auth/itch`, {
        data: { access_token: C.oauthToken },
        headers: { Origin: publicOrigin },
      });
      expect(answer.status(), await answer.text()).toBe(200);
      const cookie = answer.headersArray().find(({ name }) => name.toLowerCase() === 'set-cookie')?.value ?? '';
      expect(cookie).toMatch(/^__Host-itch-session=/);
      expect(cookie).toMatch(/;\s*Secure(;|$)/i);
      expect(cookie).toMatch(/;\s*Path=\/(;|$)/i);
      expect(cookie).not.toMatch(/;\s*Domain=/i);
      // The session reads back though the request is http (what a browser sends over https to the proxy).
      const me = await fetch(`${running!.origin}/me`, { headers: { Cookie: cookie.split(';')[0]! } });
      expect(me.status).toBe(200);
      expect(await me.json()).toMatchObject({ username: gamer.username });
      if (example.name !== 'vite-spa') {
        expect(await (await request.get(`${running!.origin}/`)).text()).toContain(`redirect-uri="${publicOrigin}/callback.html"`);
      }
    });
  });
}
