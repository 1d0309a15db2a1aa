// loginOutOfBand against the emulator: itch.io's page shows the key, the user pastes it, and the
// key is checked with credentials/info before it is returned.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ItchOAuthError, loginOutOfBand } from '../../src/desktop/index.js';
import { C, decide, useBrowserAndEmulator } from './support.js';

const world = useBrowserAndEmulator();

const isCode = (code: string) => (error: unknown) => error instanceof ItchOAuthError && error.code === code;

describe('loginOutOfBand', () => {
  it('the key shown on the page after Approve is returned with its scopes', async () => {
    const page = await world.browser.newPage();
    let shown = '';
    const result = await loginOutOfBand({
      clientId: C.clients.demo.clientId,
      scope: ['profile:me', 'profile:games'],
      baseUrl: world.emulator.url,
      apiBaseUrl: world.emulator.apiUrl,
      readKey: async (url) => {
        shown = url;
        await decide(page, url, 'Approve', C.users.developer);
        return (await page.locator('#key').textContent()) ?? '';
      },
    });
    const url = new URL(shown);
    assert.equal(url.origin + url.pathname, `${world.emulator.url}/user/oauth`);
    assert.equal(url.searchParams.get('redirect_uri'), 'urn:ietf:wg:oauth:2.0:oob');
    assert.equal(url.searchParams.get('response_type'), 'token');
    assert.equal(url.searchParams.get('scope'), 'profile:me profile:games');
    assert.deepEqual(result.scopes, ['profile:me', 'profile:games']);
    const response = await fetch(`${world.emulator.apiUrl}/profile`, { headers: { authorization: `Bearer ${result.accessToken}` } });
    assert.equal(((await response.json()) as { user: { id: number } }).user.id, C.users.developer);
    await page.close();
  });

  it('a key itch.io does not know is an error, never a result', async () => {
    for (const key of ['0123456789abcdef0123456789abcdef01234567', C.apiKeys.revoked, 'not a key at all', '']) {
      await assert.rejects(
        loginOutOfBand({
          clientId: C.clients.demo.clientId,
          baseUrl: world.emulator.url,
          apiBaseUrl: world.emulator.apiUrl,
          readKey: () => key,
        }),
        isCode('backend_rejected'),
        key,
      );
    }
  });

  it('an issued key pasted with stray whitespace is accepted', async () => {
    const key = world.emulator.issueToken({ userId: C.users.gamer, clientId: C.clients.demo.clientId, scopes: 'profile:me' });
    const result = await loginOutOfBand({
      clientId: C.clients.demo.clientId,
      baseUrl: world.emulator.url,
      apiBaseUrl: world.emulator.apiUrl,
      readKey: () => `  ${key}\r\n`,
    });
    assert.equal(result.accessToken, key);
  });

  it('itch.io out of reach is a network_error; abort rejects with the reason', async () => {
    await assert.rejects(
      loginOutOfBand({
        clientId: C.clients.demo.clientId,
        baseUrl: world.emulator.url,
        apiBaseUrl: 'http://127.0.0.1:9',
        readKey: () => C.oauthToken,
      }),
      isCode('network_error'),
    );
    const controller = new AbortController();
    const pending = loginOutOfBand({
      clientId: C.clients.demo.clientId,
      baseUrl: world.emulator.url,
      apiBaseUrl: world.emulator.apiUrl,
      signal: controller.signal,
      readKey: () => new Promise<string>(() => undefined),
    });
    controller.abort(new Error('user quit'));
    await assert.rejects(pending, /user quit/);
  });
});
