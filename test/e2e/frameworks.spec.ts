// The React 19 and Vue 3 fixture apps (test/frameworks/, built by `npm run test:frameworks` from
// the packed tarball with Vite and the package's capture plugin) log in through the real redirect
// flow against the emulator, and show the user from the callback's itch-login-success event; their
// own "Play" button logs in with login() in popup mode and shows the user from result.response.
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { getRequestListener } from '@hono/node-server';
import { expect, test } from '@playwright/test';
import { DEFAULT_SEED, DEFAULT_SEED_CREDENTIALS as C, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { createTokenHandler } from '../../src/server/index.js';

const built = fileURLToPath(new URL('../frameworks/dist/', import.meta.url));
const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css' };

for (const app of ['react', 'vue'] as const) {
  test.describe(`the ${app} fixture app`, () => {
    let emulator: RunningEmulator;
    let server: Server;
    let appUrl: string;

    test.beforeAll(async () => {
      const root = path.join(built, app);
      if (!existsSync(path.join(root, 'callback.html')))
        throw new Error(`test/frameworks/dist/${app} is missing: run npm run test:frameworks`);
      emulator = await startEmulator();
      const handler = createTokenHandler({
        baseUrl: emulator.url,
        apiBaseUrl: emulator.apiUrl,
        applicationId: C.clients.demo.id,
        popup: true,
        onLogin: () => undefined, // answers 200 { user }
      });
      // The app's origin: its built files, and its backend at /auth/itch.
      server = createServer(
        getRequestListener(async (request) => {
          const { pathname } = new URL(request.url);
          if (pathname === '/auth/itch') return handler(request);
          const file = path.join(root, pathname === '/' ? 'index.html' : pathname);
          if (!file.startsWith(root) || !existsSync(file)) return new Response('not found', { status: 404 });
          return new Response(readFileSync(file), { headers: { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' } });
        }),
      );
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      appUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      emulator.addRedirectUri(C.clients.demo.clientId, `${appUrl}/callback.html`);
    });

    test.afterAll(async () => {
      server?.closeAllConnections();
      await new Promise((resolve) => server?.close(resolve));
      await emulator?.close();
    });

    test('logs in through itch.io (the emulator) and shows the user from itch-login-success', async ({ page }) => {
      const starts: string[] = [];
      page.on('console', (message) => {
        if (message.text().startsWith('going to ')) starts.push(message.text());
      });
      await page.goto(`${appUrl}/?${new URLSearchParams({ client: C.clients.demo.clientId, itch: emulator.url })}`);
      await page.getByRole('button', { name: 'Log in with itch.io' }).click();

      await page.waitForURL(`${emulator.url}/user/oauth?**`);
      await page.getByLabel('Log in as').selectOption(String(C.users.press));
      await page.getByRole('button', { name: 'Approve' }).click();

      await page.waitForURL(`${appUrl}/callback.html`);
      // The backend's answer ({ user }) came through itch-login-success's detail.response.
      const press = DEFAULT_SEED.users.find((user) => user.id === C.users.press)!;
      await expect(page.getByText(`Signed in as ${press.username}`)).toBeVisible();
      // itch-login-start reached the app's handler with its typed detail.url.
      expect(starts).toEqual([expect.stringMatching(new RegExp(`^going to ${emulator.url}/user/oauth\\?`))]);
      // The token left the address before the app's code ran, and nothing is left in storage.
      expect(new URL(page.url()).hash).toBe('');
      expect(await page.evaluate(() => Object.keys(sessionStorage))).toEqual([]);
    });

    test('its own Play button logs in with login() through a popup and shows the user from result.response', async ({ page, context }) => {
      await page.goto(`${appUrl}/?${new URLSearchParams({ client: C.clients.demo.clientId, itch: emulator.url })}`);
      const opened = context.waitForEvent('page');
      await page.getByRole('button', { name: 'Play' }).click();
      const popup = await opened;
      await popup.getByLabel('Log in as').selectOption(String(C.users.press));
      await popup.getByRole('button', { name: 'Approve' }).click();

      // The popup's capture gave the token to /auth/itch; login() collected the backend's answer ({ user }).
      const press = DEFAULT_SEED.users.find((user) => user.id === C.users.press)!;
      await expect(page.getByText(`Signed in as ${press.username}`)).toBeVisible();
      await expect.poll(() => popup.isClosed(), { message: 'the popup closes itself' }).toBe(true);
      expect(new URL(page.url()).pathname, 'the game page stayed').toBe('/');
      await expect(page.getByRole('alert')).toHaveCount(0);
    });
  });
}
