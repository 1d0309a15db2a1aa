// The demo (`npm run demo`) in real Chromium, through the emulator's real consent page: the
// button on the game site, Approve or Deny on "itch.io", the capture on the callback page, the
// backend's session, the account page, and logging out.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import { DEFAULT_SEED_CREDENTIALS as C } from '../../src/emulator/index.js';
import { startDemo, type RunningDemo } from '../../demo/serve.js';
import { dpopKey, dpopProof } from '../support/dpop.js';
import { gameReady } from './support/demo-game.js';

// createSessions' cookie on http (on https it is `__Host-itch-session`).
const SESSION_COOKIE = 'itch-session';

let demo: RunningDemo;
test.beforeAll(async () => {
  demo = await startDemo({ port: 0, logLevel: 'silent' });
});
test.afterAll(async () => {
  await demo?.close();
});

/** Clicks the hero's login button and waits for the emulator's consent page. */
async function openConsentPage(page: Page): Promise<void> {
  await page.goto(`${demo.url}/`);
  await page.locator('.hero').getByRole('button', { name: 'Log in with itch.io' }).click();
  await page.waitForURL(`${demo.emulator!.url}/user/oauth?**`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Authorize Starfall Keep Companion');
}

/** Approves as `userId` and returns the access token the emulator sent the browser back with. */
async function approveAs(page: Page, userId: number): Promise<string> {
  await page.getByLabel('Log in as').selectOption(String(userId));
  const [answer] = await Promise.all([
    page.waitForResponse((response) => response.url() === `${demo.emulator!.url}/user/oauth` && response.request().method() === 'POST'),
    page.getByRole('button', { name: 'Approve' }).click(),
  ]);
  const location = new URL((await answer.headerValue('location')) ?? '');
  expect(location.origin + location.pathname).toBe(`${demo.url}/callback.html`);
  return new URLSearchParams(location.hash.slice(1)).get('access_token') ?? '';
}

/** Everything the browser keeps for the site, as one string to search. */
async function browserState(page: Page, context: BrowserContext): Promise<string> {
  const storage = await page.evaluate(() =>
    JSON.stringify([document.cookie, location.href, history.state, { ...sessionStorage }, { ...localStorage }]),
  );
  return storage + JSON.stringify(await context.cookies());
}

test('Approve signs the player in with the picked profile, behind an HttpOnly session cookie', async ({ page, context }) => {
  const backendBodies: string[] = [];
  page.on('request', (request) => {
    if (request.url() === `${demo.url}/auth/itch`) backendBodies.push(request.postData() ?? '');
  });
  await openConsentPage(page);
  const token = await approveAs(page, C.users.developer);
  expect(token).toMatch(/^[0-9a-f]{40}$/);

  await page.waitForURL(`${demo.url}/account.html`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Pixel Forge');
  await expect(page.getByText('@pixelforge')).toBeVisible();
  await expect(page.locator('[data-field="id"]')).toHaveText(String(C.users.developer));
  await expect(page.locator('[data-field="scopes"]')).toContainText('profile:me');
  await expect(page.locator('header .session-chip')).toContainText('Pixel Forge');

  expect(backendBodies).toEqual([JSON.stringify({ access_token: token })]);
  const cookies = await context.cookies(demo.url);
  expect(cookies).toEqual([expect.objectContaining({ name: SESSION_COOKIE, httpOnly: true, sameSite: 'Lax', path: '/' })]);
  expect(cookies[0]!.value).not.toContain(token);
  expect(await page.evaluate(() => document.cookie)).toBe('');
  expect(await browserState(page, context)).not.toContain(token);
});

test("the header's Log in on the home page lands on the account page after Approve, as the README says", async ({ page }) => {
  await page.goto(`${demo.url}/`);
  await page.locator('header').getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(`${demo.emulator!.url}/user/oauth?**`);
  await approveAs(page, C.users.gamer);
  await page.waitForURL(`${demo.url}/account.html`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Mossy Pine');
});

test('Deny issues no token, leaves none anywhere, and the player can start again', async ({ page, context }) => {
  const keysBefore = demo.emulator!.store.apiKeys.length;
  await openConsentPage(page);
  await page.getByRole('button', { name: 'Deny' }).click();
  await expect(page.getByRole('heading', { name: 'Access denied' })).toBeVisible();
  expect(demo.emulator!.store.apiKeys).toHaveLength(keysBefore);

  // Like itch.io, the emulator does not send the player back; its link does.
  await page.getByRole('link', { name: `Back to ${new URL(demo.url).host}` }).click();
  await page.waitForURL(`${demo.url}/`);
  await expect(page.locator('html')).toHaveAttribute('data-signed-in', 'false');
  expect(await browserState(page, context)).not.toMatch(/access_token|[0-9a-f]{40}/);
  expect(await context.cookies(demo.url)).toEqual([]);
  // Nobody is signed in: 204, not an error.
  expect((await page.request.get(`${demo.url}/api/session`)).status()).toBe(204);

  await page.locator('.hero').getByRole('button', { name: 'Log in with itch.io' }).click();
  await approveAs(page, C.users.gamer);
  await page.waitForURL(`${demo.url}/account.html`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Mossy Pine');
});

test('Log out ends the session on the server and in the browser', async ({ page, context }) => {
  await openConsentPage(page);
  await approveAs(page, C.users.gamer);
  await page.waitForURL(`${demo.url}/account.html`);
  await expect(page.getByText('@mossy')).toBeVisible();
  const [cookie] = await context.cookies(demo.url);

  await page.getByRole('button', { name: 'Log out' }).click();
  await page.waitForURL(`${demo.url}/`);
  await expect(page.locator('html')).toHaveAttribute('data-signed-in', 'false');
  await expect(page.locator('header').getByRole('button', { name: 'Log in' })).toBeVisible();
  expect(await context.cookies(demo.url)).toEqual([]);
  // The old cookie is worth nothing now.
  const replay = await fetch(`${demo.url}/api/session`, { headers: { cookie: `${SESSION_COOKIE}=${cookie!.value}` } });
  expect(replay.status).toBe(204);

  await page.goto(`${demo.url}/account.html`);
  await expect(page.getByRole('heading', { name: 'You are not signed in' })).toBeVisible();
});

test('a POST from another origin is not signed in, though it carries the session cookie; the same POST from the site is', async ({
  page,
  context,
}) => {
  // A login and three pages: more than the default 30 s on a busy machine.
  test.setTimeout(60_000);
  await openConsentPage(page);
  await approveAs(page, C.users.gamer);
  await page.waitForURL(`${demo.url}/account.html`);
  await expect(page.getByText('@mossy')).toBeVisible();

  // Another origin's page with the site's own logout form. Served on 127.0.0.1 (another port:
  // cross-origin but same-site, so the browser sends the SameSite=Lax cookie along, as to a
  // sibling subdomain) and on localhost (another site: the browser keeps the cookie back).
  const other = createServer((_request, response) => {
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    response.end(
      `<!doctype html><title>Free stars</title><form method="post" action="${demo.url}/logout"><button>Claim your stars</button></form>`,
    );
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  const { port } = other.address() as AddressInfo;
  try {
    for (const [origin, carriesCookie] of [
      [`http://127.0.0.1:${port}`, true],
      [`http://localhost:${port}`, false],
    ] as const) {
      const attacker = await context.newPage();
      await attacker.goto(`${origin}/`);
      const [answer] = await Promise.all([
        attacker.waitForResponse((response) => response.url() === `${demo.url}/logout`),
        attacker.getByRole('button', { name: 'Claim your stars' }).click(),
      ]);
      const sent = await answer.request().allHeaders();
      expect(sent['origin'], origin).toBe(origin);
      expect(sent['cookie']?.includes(`${SESSION_COOKIE}=`) ?? false, `${origin} sends the cookie`).toBe(carriesCookie);
      expect(answer.status(), origin).toBe(403);
      expect(answer.headers()['set-cookie'], origin).toBeUndefined();
      // Closed once the refusal has loaded: Chromium's page close during that navigation can hang.
      await attacker.waitForURL(`${demo.url}/logout`);
      await attacker.close();
      // The player is still signed in, with the same cookie.
      expect((await page.request.get(`${demo.url}/api/session`)).status(), origin).toBe(200);
      expect(await context.cookies(demo.url), origin).toEqual([expect.objectContaining({ name: SESSION_COOKIE })]);
    }
  } finally {
    other.closeAllConnections();
    await new Promise((resolve) => other.close(resolve));
  }

  // The same form POST from the site's own page: 303 back home, signed out.
  await page.reload();
  const [answer] = await Promise.all([
    page.waitForResponse((response) => response.url() === `${demo.url}/logout`),
    page.getByRole('button', { name: 'Log out' }).click(),
  ]);
  expect(answer.status()).toBe(303);
  expect(answer.headers()['location']).toBe('/');
  await page.waitForURL(`${demo.url}/`);
  expect(await context.cookies(demo.url)).toEqual([]);
  expect((await page.request.get(`${demo.url}/api/session`)).status()).toBe(204);
});

test("the game's login answers a game token bound to its key and no cookie; the token renews at /api/game/renew and verifies with the JWK Set alone", async () => {
  // A login posted as the framed game's page would (its origin is one the sessions give game
  // tokens to), with a DPoP proof of each request by the game's key (RFC 9449).
  const game = await dpopKey();
  const accessToken = demo.emulator!.issueToken({ userId: C.users.gamer, clientId: demo.login.clientId, scopes: 'profile:me' });
  const login = await fetch(`${demo.url}/auth/itch`, {
    method: 'POST',
    headers: { Origin: demo.gameUrl, 'Content-Type': 'application/json', DPoP: await dpopProof(game, 'POST', `${demo.url}/auth/itch`) },
    body: JSON.stringify({ access_token: accessToken }),
  });
  expect(login.status).toBe(200);
  expect(login.headers.get('set-cookie')).toBeNull();
  const { gameToken, user } = (await login.json()) as { gameToken: string; user: { id: number } };
  expect(user.id).toBe(C.users.gamer);
  // The nonce its proofs carry (RFC 9449 section 9), given with the login.
  const nonce = login.headers.get('dpop-nonce');
  expect(nonce).toMatch(/^[\w-]{43}$/);

  const renewUrl = `${demo.url}/api/game/renew`;
  const renewed = await fetch(renewUrl, {
    method: 'POST',
    headers: {
      Origin: demo.gameUrl,
      Authorization: `DPoP ${gameToken}`,
      DPoP: await dpopProof(game, 'POST', renewUrl, { token: gameToken, nonce }),
    },
  });
  expect(renewed.status).toBe(200);
  expect(renewed.headers.get('access-control-allow-origin')).toBe(demo.gameUrl);
  const fresh = ((await renewed.json()) as { gameToken: string }).gameToken;
  const keys = (await (await fetch(`${demo.url}/.well-known/jwks.json`)).json()) as JSONWebKeySet;
  const { payload } = await jwtVerify(fresh, createLocalJWKSet(keys), { audience: demo.url });
  expect(payload.sub).toBe(String(C.users.gamer));
  expect(payload['cnf']).toEqual({ jkt: game.jkt });
  const progressUrl = `${demo.url}/api/game/progress`;
  const headers = async () => ({
    Authorization: `DPoP ${fresh}`,
    DPoP: await dpopProof(game, 'GET', progressUrl, { token: fresh, nonce }),
  });
  expect((await fetch(progressUrl, { headers: await headers() })).status).toBe(200);
  expect((await fetch(progressUrl, { headers: { Authorization: `Bearer ${fresh}` } })).status, 'bound: never as Bearer').toBe(401);
  expect((await fetch(renewUrl, { method: 'POST', headers: { Authorization: 'Bearer not-a-token' } })).status).toBe(401);
});

test('the callback page is sent with no referrer, no caching, no framing, and the capture first', async ({ request }) => {
  const response = await request.get(`${demo.url}/callback.html`);
  expect(response.headers()).toMatchObject({
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
    'x-frame-options': 'DENY',
  });
  expect(response.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
  const head = (await response.text()).split('<head>')[1] ?? '';
  // Only the color-scheme, the style of the capture's pending view and the page's icon (which the
  // browser would not read after the capture, and then asks /favicon.ico for) come before it.
  expect(head.trimStart()).toMatch(
    /^<meta name="color-scheme" content="light dark">\s*(?:<link rel="icon"[^>]*>\s*)*<style>[^<]*output \{[^<]*<\/style>\s*(?:<link rel="icon"[^>]*>\s*)*<script data-backend="\/auth\/itch">/,
  );
});

test.describe('with an emulator that redirects on Deny (RFC 6749)', () => {
  let rfcDemo: RunningDemo;
  test.beforeAll(async () => {
    rfcDemo = await startDemo({ port: 0, onDeny: 'redirect', logLevel: 'silent' });
  });
  test.afterAll(async () => {
    await rfcDemo?.close();
  });

  test('the callback page says the login was declined and Try again goes back to the consent page', async ({ page }) => {
    await page.goto(`${rfcDemo.url}/`);
    await page.locator('.hero').getByRole('button', { name: 'Log in with itch.io' }).click();
    await page.getByRole('button', { name: 'Deny' }).click();
    await page.waitForURL(`${rfcDemo.url}/callback.html`);
    await expect(page.locator('itch-oauth-callback')).toContainText(/declined|denied/i);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Login cancelled');
    await expect(page.locator('html')).toHaveAttribute('data-signed-in', 'false');

    await page
      .locator('itch-oauth-callback')
      .getByRole('button', { name: /try again/i })
      .click();
    await page.waitForURL(`${rfcDemo.emulator!.url}/user/oauth?**`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Authorize Starfall Keep Companion');
  });
});

test('the browser game framed from another site logs in through a popup, shows the player and saves progress', async ({
  page,
  context,
}) => {
  expect(new URL(demo.gameUrl).hostname).toBe('localhost');
  await page.goto(`${demo.url}/#play`);
  const game = await gameReady(page);
  await game.getByRole('button', { name: 'Catch a falling star' }).click();
  await game.getByRole('button', { name: 'Catch a falling star' }).click();
  await expect(game.locator('[data-stars]')).toHaveText('2');

  const popupOpened = context.waitForEvent('page');
  await game.getByRole('button', { name: 'Log in to save' }).click();
  const popup = await popupOpened;
  await expect(popup.getByRole('heading', { level: 1 })).toHaveText('Authorize Starfall Keep Companion');
  await popup.getByLabel('Log in as').selectOption(String(C.users.gamer));
  await popup.getByRole('button', { name: 'Approve' }).click();

  await expect(game.locator('[data-player]')).toHaveText('Mossy Pine', { timeout: 15_000 });
  await expect.poll(() => popup.isClosed()).toBe(true);
  // A game login, not a session of the site: the game says so, and the header keeps its Log in.
  await expect(game.getByRole('status')).toContainText(`This signs you in to the game only: the site's own "Log in" is separate.`);
  await expect(page.locator('header').getByRole('button', { name: 'Log in' })).toBeVisible();
  await expect(page.getByText('Games that need SharedArrayBuffer')).toHaveCount(0);
  await game.getByRole('button', { name: 'Save progress' }).click();
  await expect(game.getByRole('status')).toHaveText('Saved: 2 stars.');

  // The same player on a fresh visit finds the stars again after logging in.
  await page.reload();
  const reloaded = await gameReady(page);
  const again = context.waitForEvent('page');
  await reloaded.getByRole('button', { name: 'Log in to save' }).click();
  const second = await again;
  await second.getByLabel('Log in as').selectOption(String(C.users.gamer));
  await second.getByRole('button', { name: 'Approve' }).click();
  await expect(page.frameLocator('iframe.game-frame').getByRole('status')).toContainText('Welcome back: your 2 saved stars are here.', {
    timeout: 15_000,
  });
});

for (const coep of ['credentialless', 'require-corp'] as const) {
  test(`the game framed on a cross-origin-isolated page (COEP ${coep}) logs in once the player confirms the code it shows in the login window`, async ({
    page,
    context,
  }) => {
    const answer = await page.goto(`${demo.url}/isolated.html${coep === 'require-corp' ? '?coep=require-corp' : ''}`);
    expect(answer?.headers()['cross-origin-embedder-policy']).toBe(coep);
    const game = page.frameLocator('iframe.game-frame');
    await expect(game.getByRole('button', { name: 'Log in to save' })).toBeEnabled();
    expect(
      await page.evaluate(() => crossOriginIsolated),
      'the page is cross-origin isolated, as itch.io serves SharedArrayBuffer games',
    ).toBe(true);
    const popupOpened = context.waitForEvent('page');
    await game.getByRole('button', { name: 'Log in to save' }).click();
    const popup = await popupOpened;
    const code = (await popup.locator('.code').textContent())!;
    await expect(game.getByText(`shows the code ${code}`)).toBeVisible({ timeout: 10_000 });
    await popup.getByRole('button', { name: `The game shows ${code}` }).click();
    await expect(popup.getByRole('heading', { level: 1 })).toHaveText('Authorize Starfall Keep Companion');
    await popup.getByLabel('Log in as').selectOption(String(C.users.gamer));
    await popup.getByRole('button', { name: 'Approve' }).click();
    await expect(game.locator('[data-player]')).toHaveText('Mossy Pine', { timeout: 15_000 });
  });
}

test('with severedOpener refuse, the game on a cross-origin-isolated page says why the login stopped, and nobody is logged in', async ({
  page,
  context,
}) => {
  const refusing = await startDemo({ port: 0, logLevel: 'silent', severedOpener: 'refuse' });
  try {
    await page.goto(`${refusing.url}/isolated.html`);
    const game = page.frameLocator('iframe.game-frame');
    await expect(game.getByRole('button', { name: 'Log in to save' })).toBeEnabled();
    const popupOpened = context.waitForEvent('page');
    await game.getByRole('button', { name: 'Log in to save' }).click();
    const popup = await popupOpened;
    await expect(popup.getByRole('status')).toContainText('could not be tied to the game that opened it');
    await expect(game.getByRole('status')).toContainText('Could not log in', { timeout: 10_000 });
    expect(popup.url().startsWith(refusing.url), 'never went on to itch.io').toBe(true);
  } finally {
    await refusing.close();
  }
});
