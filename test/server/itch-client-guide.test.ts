// Runs the server frameworks guide's itch.io API client snippet as written (imported from the
// package, as a reader's server does; run after npm run build) against the emulator: the token's
// player comes back, and a token itch.io never issued is refused with ItchApiError.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ItchApiError } from 'itch-oauth-widget/server';
import { DEFAULT_SEED_CREDENTIALS as C, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { playerOf } from './fixtures/itch-client-guide.js';

let emulator: RunningEmulator;
before(async () => {
  emulator = await startEmulator();
});
after(() => emulator.close());

test('the guide’s client answers the player of an OAuth token', async () => {
  const token = emulator.issueToken({ userId: C.users.gamer, clientId: C.clients.demo.clientId, scopes: 'profile:me' });
  const user = await playerOf(token, emulator.apiUrl);
  assert.equal(user.id, C.users.gamer);
  assert.equal(user.username, 'mossy');
});

test('the guide’s client refuses a token itch.io never issued', async () => {
  await assert.rejects(playerOf('ItchAccessTokenNeverIssued0123456789abcdef', emulator.apiUrl), ItchApiError);
});
