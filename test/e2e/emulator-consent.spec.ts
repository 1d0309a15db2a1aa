// The emulator's consent page in real Chromium: approve, deny, a mismatching redirect URI, and
// the out-of-band page. The application's callback is a throwaway server on 127.0.0.1.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { DEFAULT_SEED_CREDENTIALS as C, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';

let emulator: RunningEmulator;
let callbackServer: Server;
let callbackOrigin: string;
/** Every request the callback server received: what the application's server would see. */
const callbackRequests: { url: string; headers: IncomingHttpHeaders }[] = [];

test.beforeAll(async () => {
  callbackServer = createServer((request, response) => {
    callbackRequests.push({ url: request.url ?? '', headers: request.headers });
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><title>Callback</title><h1>Game callback page</h1>');
  });
  await new Promise<void>((resolve) => callbackServer.listen(0, '127.0.0.1', resolve));
  callbackOrigin = `http://127.0.0.1:${(callbackServer.address() as AddressInfo).port}`;
  emulator = await startEmulator({ extraRedirectUris: { [C.clients.demo.clientId]: [`${callbackOrigin}/callback.html`] } });
});

test.afterAll(async () => {
  await emulator.close();
  callbackServer.closeAllConnections();
  await new Promise<void>((resolve) => callbackServer.close(() => resolve()));
});

function authorizeUrl(redirectUri: string, state: string, scope = 'profile:me'): string {
  const query = new URLSearchParams({
    client_id: C.clients.demo.clientId,
    redirect_uri: redirectUri,
    response_type: 'token',
    scope,
    state,
  });
  return `${emulator.url}/user/oauth?${query}`;
}

async function profileOf(token: string): Promise<{ id: number; username: string }> {
  const response = await fetch(`${emulator.url}/api/profile`, { headers: { authorization: `Bearer ${token}` } });
  expect(response.status).toBe(200);
  return ((await response.json()) as { user: { id: number; username: string } }).user;
}

async function openConsent(page: Page, url: string): Promise<void> {
  const response = await page.goto(url);
  expect(response?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Authorize Starfall Keep Companion');
}

test('Approve lands on the callback page with #access_token and state, for the picked user', async ({ page }) => {
  const before = callbackRequests.length;
  await openConsent(page, authorizeUrl(`${callbackOrigin}/callback.html`, 'e2e-state-1', 'profile:me profile:owned'));
  await expect(page.getByText('See the games you have bought or claimed')).toBeVisible();
  await page.getByLabel('Log in as').selectOption(String(C.users.press));
  await page.getByRole('button', { name: 'Approve' }).click();

  await page.waitForURL(`${callbackOrigin}/callback.html#**`);
  await expect(page.getByRole('heading', { name: 'Game callback page' })).toBeVisible();
  const fragment = new URLSearchParams(new URL(page.url()).hash.slice(1));
  expect([...fragment.keys()]).toEqual(['access_token', 'state']);
  expect(fragment.get('state')).toBe('e2e-state-1');
  const token = fragment.get('access_token') ?? '';
  expect(token).toMatch(/^[0-9a-f]{40}$/);
  expect((await profileOf(token)).id).toBe(C.users.press);

  const landed = callbackRequests.slice(before);
  const navigation = landed.find((request) => request.url === '/callback.html');
  expect(navigation, 'the browser loaded the callback page').toBeDefined();
  expect(navigation?.headers.referer, 'no referrer leaks the authorization URL').toBeUndefined();
  for (const request of landed) {
    expect(`${request.url} ${request.headers.referer ?? ''}`).not.toContain(token);
    expect(request.headers.referer ?? '').not.toContain(emulator.url);
  }
});

test('Deny stays on itch.io, sends nothing to the callback, and issues no token', async ({ page }) => {
  const before = callbackRequests.length;
  const keysBefore = emulator.store.apiKeys.length;
  await openConsent(page, authorizeUrl(`${callbackOrigin}/callback.html`, 'e2e-state-2'));
  await page.getByRole('button', { name: 'Deny' }).click();

  await expect(page.getByRole('heading', { name: 'Access denied' })).toBeVisible();
  expect(new URL(page.url()).origin).toBe(emulator.url);
  expect(page.url()).not.toContain('access_token');
  expect(callbackRequests.length).toBe(before);
  expect(emulator.store.apiKeys.length).toBe(keysBefore);
  await expect(page.getByRole('link', { name: 'Review the request again' })).toBeVisible();
});

test('a redirect URI that does not match is refused with no redirect', async ({ page }) => {
  const before = callbackRequests.length;
  const response = await page.goto(authorizeUrl(`${callbackOrigin}/other.html`, 'e2e-state-3'));
  expect(response?.status()).toBe(400);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('This login link is not valid');
  await expect(page.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  await page.waitForTimeout(300);
  expect(new URL(page.url()).origin).toBe(emulator.url);
  expect(callbackRequests.length).toBe(before);
});

test('the out-of-band redirect URI shows the key to copy', async ({ page }) => {
  await openConsent(page, authorizeUrl('urn:ietf:wg:oauth:2.0:oob', 'e2e-state-4'));
  await page.getByLabel('Log in as').selectOption(String(C.users.gamer));
  await page.getByRole('button', { name: 'Approve' }).click();

  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your key for Starfall Keep Companion');
  expect(new URL(page.url()).origin).toBe(emulator.url);
  const key = (await page.locator('#key').textContent()) ?? '';
  expect(key).toMatch(/^[0-9a-f]{40}$/);
  expect((await profileOf(key)).username).toBe('mossy');
});

test('the page is styled under its CSP, in light and dark', async ({ page }) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.emulateMedia({ colorScheme: 'light' });
  await openConsent(page, authorizeUrl(`${callbackOrigin}/callback.html`, 'e2e-state-5'));
  const approve = page.getByRole('button', { name: 'Approve' });
  await expect(approve).toHaveCSS('background-color', 'rgb(214, 58, 69)');
  await expect(page.locator('body')).toHaveCSS('background-color', 'rgb(244, 244, 244)');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('body')).toHaveCSS('background-color', 'rgb(27, 27, 27)');
  expect(violations).toEqual([]);
});
