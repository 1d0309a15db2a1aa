// The bind answer says whether itch.io's authorization page severs a popup from its opener (COOP),
// so that the opener can tell a player's close from a severing: the handler asks the page once,
// when a start page is served, and keeps the answer in memory (nothing in the popup store).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { popupBindingOf, popupStateOfBinding } from '../../src/core/state.js';
import { DEFAULT_SEED_CREDENTIALS as C, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { createTokenHandler } from '../../src/server/index.js';
import { memoryPopupStore } from '../../src/server/popup/relay.js';
import { authorizationPageSevers } from '../../src/server/popup/severs.js';

const APP = 'http://127.0.0.1:5173';

async function bindAnswer(
  emulator: RunningEmulator | { url: string; apiUrl: string },
  afterStart?: () => void,
): Promise<{ authorize: string; severs?: boolean }> {
  const store = memoryPopupStore();
  const handler = createTokenHandler({
    baseUrl: emulator.url,
    apiBaseUrl: emulator.apiUrl,
    applicationId: C.clients.demo.id,
    popup: true,
    store,
    onLogin: () => ({}),
  });
  const binding = await popupBindingOf(randomBytes(32).toString('base64url'));
  const state = await popupStateOfBinding(binding);
  const start = `${APP}/auth/itch?${new URLSearchParams({ client_id: C.clients.demo.clientId, redirect_uri: `${APP}/callback.html`, scope: 'profile:me', state })}`;
  assert.equal((await handler(new Request(start, { headers: { 'Sec-Fetch-Site': 'cross-site' } }))).status, 200);
  afterStart?.();
  // (The start page's script runs in the browser for a while before it binds.)
  await new Promise((resolve) => setTimeout(resolve, 200));
  const bind = await handler(
    new Request(start, {
      method: 'POST',
      body: JSON.stringify({ popup_bind: state, opener: APP, binding }),
      headers: { 'Content-Type': 'application/json', Origin: APP, 'Sec-Fetch-Site': 'same-origin' },
    }),
  );
  assert.equal(bind.status, 200);
  assert.deepEqual(await store.getKeys(), [], 'nothing is kept for it in the store');
  return (await bind.json()) as { authorize: string; severs?: boolean };
}

describe("the bind answer tells whether itch.io's page severs the popup", () => {
  const emulators: RunningEmulator[] = [];
  after(() => Promise.all(emulators.map((emulator) => emulator.close())));

  it('true when the authorization page sends Cross-Origin-Opener-Policy: same-origin', async () => {
    const emulator = await startEmulator({ coop: true });
    emulators.push(emulator);
    assert.equal((await bindAnswer(emulator)).severs, true);
  });

  it('false when it sends none', async () => {
    const emulator = await startEmulator();
    emulators.push(emulator);
    assert.equal((await bindAnswer(emulator)).severs, false);
  });

  it("said on a runtime that ends a request's I/O with its response (Cloudflare Workers)", async (t) => {
    const emulator = await startEmulator({ coop: true });
    emulators.push(emulator);
    const realFetch = globalThis.fetch;
    let startAnswered = false;
    // As workerd does: what the start page's request left pending never settles after it answered.
    t.mock.method(globalThis, 'fetch', (...args: Parameters<typeof fetch>) => {
      const answer = realFetch(...args);
      return new Promise(
        (resolve, reject) =>
          void answer.then(
            (value) => !startAnswered && resolve(value),
            (error) => !startAnswered && reject(error),
          ),
      );
    });
    assert.equal((await bindAnswer(emulator, () => (startAnswered = true))).severs, true);
  });

  it('asks again when an answer was lost with the request that asked, at most every 5 seconds', async (t) => {
    let asked = 0;
    t.mock.method(globalThis, 'fetch', () => {
      asked++;
      // The first answer never comes (its request ended); the next does.
      return asked === 1
        ? new Promise(() => {})
        : Promise.resolve(new Response('', { status: 400, headers: { 'Cross-Origin-Opener-Policy': 'same-origin' } }));
    });
    t.mock.timers.enable({ apis: ['Date'], now: 1_000_000 });
    const severs = authorizationPageSevers('https://itch.example');
    const lost = severs();
    t.mock.timers.tick(4000);
    assert.equal(severs(), lost, 'not asked again while it may still come');
    t.mock.timers.tick(1001);
    assert.equal(await severs(), true);
    assert.equal(asked, 2);
    assert.equal(await severs(), true, 'then kept');
    assert.equal(asked, 2);
  });

  it('not said when itch.io cannot be asked (the opener then falls back on timing)', async () => {
    const answer = await bindAnswer({ url: 'http://127.0.0.1:9', apiUrl: 'http://127.0.0.1:9/api/1' });
    assert.equal(answer.severs, undefined);
    assert.match(answer.authorize, /^http:\/\/127\.0\.0\.1:9\/user\/oauth\?/);
  });

  /** The bind answer when itch.io's authorization page answers as `answer` does. */
  async function bindAnswerFrom(answer: Parameters<typeof createServer>[1]): Promise<{ authorize: string; severs?: boolean }> {
    const itch = createServer(answer);
    await new Promise<void>((resolve) => itch.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(itch.address() as AddressInfo).port}`;
      return await bindAnswer({ url, apiUrl: `${url}/api/1` });
    } finally {
      itch.closeAllConnections();
      itch.close();
    }
  }

  it('said when itch.io takes its time (a second): the start page waits for the answer, so that the bind has it', async () => {
    const answer = await bindAnswerFrom((_request, response) => {
      setTimeout(() => response.writeHead(400, { 'Cross-Origin-Opener-Policy': 'same-origin' }).end('no client'), 1000);
    });
    assert.equal(answer.severs, true);
  });

  it('not said when the page answers an error (a bot check, an outage), whatever its headers', async () => {
    const answer = await bindAnswerFrom((_request, response) => {
      response.writeHead(403, { 'Cross-Origin-Opener-Policy': 'same-origin' }).end('checking your browser');
    });
    assert.equal(answer.severs, undefined);
  });

  it('not said, and nothing thrown, when the answer breaks off mid-body', async () => {
    const unhandled: unknown[] = [];
    const record = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', record);
    try {
      const answer = await bindAnswerFrom((_request, response) => {
        response.writeHead(200, { 'Cross-Origin-Opener-Policy': 'same-origin', 'Content-Length': '100000' });
        response.write('<!doctype html>');
        setTimeout(() => response.socket?.destroy(), 20);
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.notEqual(answer.severs, false);
      assert.deepEqual(unhandled, [], 'no promise rejected unhandled (Node would end the process)');
    } finally {
      process.off('unhandledRejection', record);
    }
  });

  it('asks itch.io once, however many start pages are served', async () => {
    let asked = 0;
    const itch = createServer((_request, response) => {
      asked++;
      response.writeHead(200, { 'Cross-Origin-Opener-Policy': 'same-origin' }).end('authorize');
    });
    await new Promise<void>((resolve) => itch.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(itch.address() as AddressInfo).port}`;
      const handler = createTokenHandler({
        baseUrl: url,
        apiBaseUrl: `${url}/api/1`,
        applicationId: C.clients.demo.id,
        popup: true,
        onLogin: () => ({}),
      });
      for (let round = 0; round < 20; round++) {
        const state = await popupStateOfBinding(await popupBindingOf(randomBytes(32).toString('base64url')));
        const start = `${APP}/auth/itch?${new URLSearchParams({ client_id: C.clients.demo.clientId, redirect_uri: `${APP}/callback.html`, scope: 'profile:me', state })}`;
        assert.equal((await handler(new Request(start))).status, 200);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(asked, 1);
    } finally {
      itch.close();
    }
  });
});
