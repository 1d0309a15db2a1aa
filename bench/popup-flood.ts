// What one client's requests without an itch.io login cost the popup relay: requests per second
// on one core, in process (no network), for each request anyone can send, and what they leave in
// the store. Run: npx tsx bench/popup-flood.ts
import { randomBytes } from 'node:crypto';
import { popupBindingOf, popupStateOfBinding } from '../src/core/state.js';
import { createTokenHandler } from '../src/server/index.js';
import { memoryPopupStore } from '../src/server/popup/relay.js';

const APP = 'http://127.0.0.1:5173';
const N = 20_000;

async function pair() {
  const binding = await popupBindingOf(randomBytes(32).toString('base64url'));
  return { binding, state: await popupStateOfBinding(binding) };
}
const start = (state: string) =>
  `${APP}/auth/itch?${new URLSearchParams({ client_id: 'bench', redirect_uri: `${APP}/callback.html`, scope: 'profile:me', state })}`;
const post = (body: unknown, url = `${APP}/auth/itch`, cookie?: string) =>
  new Request(url, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'Content-Type': 'application/json', Origin: APP, 'Sec-Fetch-Site': 'same-origin', ...(cookie ? { Cookie: cookie } : {}) },
  });

async function measure(name: string, severedOpener: 'confirm' | 'refuse', make: (p: { binding: string; state: string }) => Request) {
  const store = memoryPopupStore();
  // itch.io is never asked by these requests: a fetch that fails proves it.
  const handler = createTokenHandler({
    applicationId: 1,
    popup: { severedOpener },
    store,
    onError: () => undefined,
    onLogin: () => undefined,
    fetch: () => Promise.reject(new Error('itch.io asked')),
  });
  const pairs = await Promise.all(Array.from({ length: N }, pair));
  const began = performance.now();
  for (const p of pairs) await handler(make(p));
  const seconds = (performance.now() - began) / 1000;
  console.log(`| ${name} | ${Math.round(N / seconds).toLocaleString('en')} /s | ${(await store.getKeys()).length} |`);
}

console.log(`${N.toLocaleString('en')} requests of each kind, one client, in process (Node ${process.version})\n`);
console.log('| request (no itch.io login) | handled | store entries after |\n|---|---:|---:|');
await measure('start page (GET), refuse mode', 'refuse', ({ state }) => new Request(start(state)));
await measure('start page (GET), confirm mode', 'confirm', ({ state }) => new Request(start(state)));
await measure('bind with an opener (valid binding)', 'refuse', ({ state, binding }) =>
  post({ popup_bind: state, opener: APP, binding }, start(state)),
);
await measure('bind without an opener (popup_unverified)', 'refuse', ({ state }) =>
  post({ popup_bind: state, opener: null }, start(state)),
);
await measure('deposit without a binding', 'refuse', ({ state }) => post({ access_token: 'x'.repeat(40), state }));
await measure('collection with a random verifier', 'refuse', () => post({ popup_verifier: randomBytes(32).toString('base64url') }));
