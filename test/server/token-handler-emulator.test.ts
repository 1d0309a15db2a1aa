import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DEFAULT_SEED_CREDENTIALS as C, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { createTokenHandler, type LoginContext } from '../../src/server/index.js';

const APP = 'http://127.0.0.1:5173';

let emulator: RunningEmulator;

before(async () => {
  emulator = await startEmulator({ port: 0 });
});

after(async () => {
  await emulator.close();
});

function setup() {
  const logins: LoginContext[] = [];
  const handler = createTokenHandler({
    baseUrl: emulator.url,
    apiBaseUrl: emulator.apiUrl,
    applicationId: C.clients.demo.id,
    onLogin: (context) => {
      logins.push(context);
      return { headers: { 'Set-Cookie': `session=${context.user.id}; HttpOnly; SameSite=Lax; Path=/` } };
    },
  });
  const post = (token: string): Promise<Response> =>
    handler(
      new Request(`${APP}/auth/itch`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: APP, 'Sec-Fetch-Site': 'same-origin' },
        body: JSON.stringify({ access_token: token }),
      }),
    );
  return { post, logins };
}

describe('the token handler against the emulator', () => {
  it('logs in the user of a token issued to the application', async () => {
    const { post, logins } = setup();
    const token = emulator.issueToken({ userId: C.users.gamer, clientId: C.clients.demo.clientId, scopes: 'profile:me' });
    const response = await post(token);
    assert.equal(response.status, 200);
    assert.equal(((await response.json()) as { user: { username: string } }).user.username, 'mossy');
    assert.equal(response.headers.get('set-cookie'), `session=${C.users.gamer}; HttpOnly; SameSite=Lax; Path=/`);
    assert.equal(logins.length, 1);
  });

  it('refuses a token issued to another application with 403', async () => {
    const { post, logins } = setup();
    const token = emulator.issueToken({ userId: C.users.gamer, clientId: C.clients.other.clientId, scopes: 'profile:me' });
    const response = await post(token);
    assert.equal(response.status, 403);
    assert.deepEqual(await response.json(), { errors: ['the access token was not issued to this application'] });
    assert.equal(logins.length, 0);
  });

  it('refuses a revoked key with 401', async () => {
    const { post, logins } = setup();
    assert.equal((await post(C.apiKeys.revoked)).status, 401);
    assert.equal(logins.length, 0);
  });

  it('refuses a personal API key, which belongs to no application, with 403', async () => {
    const { post, logins } = setup();
    assert.equal((await post(C.apiKeys.gamer)).status, 403);
    assert.equal(logins.length, 0);
  });
});
