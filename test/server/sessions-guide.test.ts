// Runs the Sessions guide's app as written: its routes answer without a login as the guide says
// (no cookie: 401 on /me; no game token: 401 on the game's API; the JWKS a game's server verifies with).
import assert from 'node:assert/strict';
import { test } from 'node:test';

process.env.SESSION_SECRET ??= 'a-test-secret-of-at-least-32-characters!';
const { app } = await import('./fixtures/sessions-guide-app.js');
const get = (path: string, init?: RequestInit) => app(new Request(`https://your.site${path}`, init));

test('the guide’s /me refuses a request without the session cookie', async () => {
  assert.equal((await get('/me')).status, 401);
  assert.equal((await get('/me', { headers: { cookie: '__Host-itch-session=forged' } })).status, 401);
});

test('the guide’s game API refuses a request without a game token, and with a forged one', async () => {
  assert.equal((await get('/api/game/progress', { headers: { origin: 'https://html-classic.itch.zone' } })).status, 401);
  const forged = { origin: 'https://html-classic.itch.zone', authorization: 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOjF9.' };
  assert.equal((await get('/api/game/progress', { headers: forged })).status, 401);
});

test('the guide’s JWKS publishes the game tokens’ Ed25519 key, and other paths are 404', async () => {
  const { keys } = (await (await get('/.well-known/jwks.json')).json()) as { keys: { kty: string; crv: string; kid: string }[] };
  assert.ok(keys.length >= 1);
  assert.equal(keys[0]!.crv, 'Ed25519');
  assert.equal((await get('/nowhere')).status, 404);
});
