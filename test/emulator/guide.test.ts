// The emulator guide's "or in tests" listing (docs/guides/emulator.md), run as written against the
// built package: a login with the seed's OAuth token goes through the emulator's credentials/info
// and /profile and reaches onLogin with the seeded user.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { DEFAULT_SEED_CREDENTIALS } from 'itch-oauth-widget/emulator';
import { createTokenHandler, type LoginContext } from 'itch-oauth-widget/server';
import { startEmulator } from 'itch-oauth-widget/emulator';
const itch = await startEmulator({ port: 0 }); // { url, apiUrl, close(), … }
const logins: LoginContext[] = [];
const onLogin = (login: LoginContext) => void logins.push(login);
// 7001: the seeded application; origin: where your test serves its pages (loopback works without it)
const handleToken = createTokenHandler({
  applicationId: 7001,
  origin: 'http://127.0.0.1:3000',
  baseUrl: itch.url,
  apiBaseUrl: itch.apiUrl,
  onLogin,
});
after(() => itch.close());

const post = (body: unknown) =>
  handleToken(
    new Request('http://127.0.0.1:3000/auth/itch', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://127.0.0.1:3000' },
      body: JSON.stringify(body),
    }),
  );

test('the guide’s handler logs the seeded user in through the emulator', async () => {
  const response = await post({ access_token: DEFAULT_SEED_CREDENTIALS.oauthToken });
  assert.equal(response.status, 200, await response.clone().text());
  assert.equal(logins.length, 1);
  assert.equal(logins[0]!.user.id, DEFAULT_SEED_CREDENTIALS.users.gamer);
  assert.ok(logins[0]!.scopes.includes('profile:me'));
});

test('the guide’s handler refuses a token the emulator does not know, and onLogin never hears of it', async () => {
  const response = await post({ access_token: 'notATokenTheEmulatorIssued000000000000000' });
  assert.notEqual(response.status, 200);
  assert.equal(logins.length, 1);
});
