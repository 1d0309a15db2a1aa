// The ownership check through the popup relay: a `not_owner` refusal is kept and delivered to the
// opener like any refusal (with its code, without a token), and an owner's `owns` reaches onLogin
// on the collecting request. The popup login is started and bound as a browser does.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createStorage } from 'unstorage';
import memoryDriver from 'unstorage/drivers/memory';
import { DEFAULT_SEED_CREDENTIALS as C, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { createTokenHandler, type LoginContext, type TokenHandlerOptions } from '../../src/server/index.js';
import { popupSecrets } from './support/popup-login.js';

const APP = 'http://127.0.0.1:5173';
const STARFALL = C.games.starfallKeep;

let emulator: RunningEmulator;
before(async () => {
  emulator = await startEmulator();
});
after(() => emulator.close());

function handlerWith(ownership: TokenHandlerOptions['ownership']) {
  const logins: LoginContext[] = [];
  const store = createStorage({ driver: memoryDriver() });
  const handler = createTokenHandler({
    baseUrl: emulator.url,
    apiBaseUrl: emulator.apiUrl,
    applicationId: C.clients.demo.id,
    store,
    ownership,
    popup: true,
    onError: () => undefined,
    onLogin: (login) => {
      logins.push(login);
      return { headers: { 'Set-Cookie': `sid=${login.user.id}; HttpOnly; Path=/` } };
    },
  });
  return { handler, logins, store };
}

function post(body: unknown, headers: Record<string, string> = {}, url = `${APP}/auth/itch`): Request {
  return new Request(url, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'Content-Type': 'application/json', Origin: APP, 'Sec-Fetch-Site': 'same-origin', ...headers },
  });
}

/** What the browser does before itch.io: opens the start page and binds the state; returns its cookie. */
async function begin(handler: (request: Request) => Promise<Response>, state: string): Promise<string> {
  const query = new URLSearchParams({
    client_id: C.clients.demo.clientId,
    redirect_uri: `${APP}/callback.html`,
    scope: 'profile:me',
    state,
  });
  const start = `${APP}/auth/itch?${query}`;
  assert.equal(
    (await handler(new Request(start, { headers: { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Dest': 'document' } }))).status,
    200,
  );
  const bind = await handler(post({ popup_bind: state, opener: APP, binding: bindings.get(state) }, {}, start));
  assert.equal(bind.status, 200, await bind.clone().text());
  return bind.headers.get('set-cookie')!.split(';')[0]!;
}

/** The binding each state's opener hands its start page. */
const bindings = new Map<string, string>();

async function pair(): Promise<{ verifier: string; state: string }> {
  const { verifier, binding, state } = await popupSecrets();
  bindings.set(state, binding);
  return { verifier, state };
}

/** Everything the store holds, as one string to search. */
async function storeDump(store: ReturnType<typeof createStorage>): Promise<string> {
  const keys = await store.getKeys();
  return JSON.stringify(await Promise.all(keys.map(async (key) => [key, await store.getItem(key)])));
}

describe('ownership through the popup relay', () => {
  it('a not_owner refusal waits for the opener without the token, and reaches it with its code', async () => {
    const { handler, logins, store } = handlerWith({ gameIds: [STARFALL], apiKey: C.apiKeys.developer, require: true });
    const { verifier, state } = await pair();
    const token = emulator.issueToken({ userId: C.users.newcomer, clientId: C.clients.demo.clientId, scopes: 'profile:me' });

    const cookie = await begin(handler, state);
    const deposit = await handler(post({ access_token: token, state }, { Cookie: cookie }));
    assert.equal(deposit.status, 403);
    assert.equal(((await deposit.json()) as { code?: string }).code, 'not_owner');
    const kept = await storeDump(store);
    assert.match(kept, /not_owner/);
    assert.ok(!kept.includes(token), 'the refusal keeps no token');
    assert.ok(!kept.includes(C.apiKeys.developer));

    const collected = await handler(post({ popup_verifier: verifier }));
    const text = await collected.text();
    assert.equal(collected.status, 403);
    assert.deepEqual(JSON.parse(text), { errors: ['this login requires owning game 2001 on itch.io'], code: 'not_owner' });
    assert.equal(collected.headers.get('set-cookie'), null);
    assert.ok(!text.includes(token));
    assert.equal(logins.length, 0);
    assert.ok(!(await storeDump(store)).includes('not_owner'), 'the refusal is gone once collected');
  });

  it("an owner's login carries owns to onLogin on the collecting request, and in the answer", async () => {
    const { handler, logins } = handlerWith({ gameIds: [STARFALL], apiKey: C.apiKeys.developer, require: true });
    const { verifier, state } = await pair();
    const token = emulator.issueToken({ userId: C.users.bundleOwner, clientId: C.clients.demo.clientId, scopes: 'profile:me' });
    const cookie = await begin(handler, state);
    assert.equal((await handler(post({ access_token: token, state }, { Cookie: cookie }))).status, 202);
    assert.equal(logins.length, 0);

    const collecting = post({ popup_verifier: verifier });
    const collected = await handler(collecting);
    assert.equal(collected.status, 200);
    assert.deepEqual(((await collected.json()) as { owns: unknown }).owns, { [STARFALL]: true });
    assert.equal(logins.length, 1);
    assert.equal(logins[0]!.request, collecting);
    assert.deepEqual(logins[0]!.owns, { [STARFALL]: true });
  });
});
