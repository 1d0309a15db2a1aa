// The popup relay of createTokenHandler against the emulator: the start page binds a popup login
// to the browser whose opener confirmed it, the popup deposits from that browser only, only the
// holder of the verifier collects, once, from the origin the login started from; onLogin runs on
// the collecting request with `startedFrom` from the binding. Then the attacks and failures:
// unbound deposits (a link with an attacker's state), planted cookies, forged origins, the relay
// left off, two deposits at once, floods, a store that fails; two handler instances sharing a real
// Redis (Debian's redis-server, started here on a free port), Redis at its memory limit, and down.
import assert from 'node:assert/strict';
import { format } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { createStorage, type Storage } from 'unstorage';
import memoryDriver from 'unstorage/drivers/memory';
import { DEFAULT_SEED_CREDENTIALS as C, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { CODE_SLOTS, memoryPopupStore, NOTICE_SLOTS } from '../../src/server/popup/relay.js';
import { createTokenHandler, type LoginContext, type Refusal, type TokenHandlerOptions } from '../../src/server/index.js';
import { redisMissing, useRedis } from './support/redis.js';
import { popupSecrets, popupStartUrl } from './support/popup-login.js';

const APP = 'http://127.0.0.1:5173';
const GAME = 'http://localhost:8123';
const EVIL = 'http://127.0.0.3:666';

let emulator: RunningEmulator;
before(async () => {
  emulator = await startEmulator();
});
after(() => emulator.close());

const token = (userId: number = C.users.gamer): string =>
  emulator.issueToken({ userId, clientId: C.clients.demo.clientId, scopes: 'profile:me' });

function handlerWith(options: Partial<TokenHandlerOptions> = {}) {
  const logins: LoginContext[] = [];
  const refusals: Refusal[] = [];
  const asked: string[] = [];
  const handler = createTokenHandler({
    baseUrl: emulator.url,
    apiBaseUrl: emulator.apiUrl,
    applicationId: C.clients.demo.id,
    allowedOrigins: [GAME],
    popup: true,
    onError: (refusal) => void refusals.push(refusal),
    fetch: (url, init) => {
      asked.push(url);
      return fetch(url, init);
    },
    ...options,
    onLogin: (login) => {
      logins.push(login);
      return { headers: { 'Set-Cookie': `sid=${login.user.id}; HttpOnly; Path=/` } };
    },
  });
  return { handler, logins, refusals, asked };
}

/** A browser's POST to the backend; `null` leaves the header out (a request that is not a browser's). */
function post(
  body: unknown,
  origin: string | null = APP,
  site: string | null = 'same-origin',
  headers: Record<string, string> = {},
  url = `${APP}/auth/itch`,
): Request {
  const sent: Record<string, string> = { 'Content-Type': 'application/json', ...headers };
  if (origin !== null) sent['Origin'] = origin;
  if (site !== null) sent['Sec-Fetch-Site'] = site;
  return new Request(url, { method: 'POST', body: JSON.stringify(body), headers: sent });
}

/** The binding each state's opener hands its start page (what the opener's answer carries). */
const bindings = new Map<string, string>();

async function pair(): Promise<{ verifier: string; binding: string; state: string }> {
  const secrets = await popupSecrets();
  bindings.set(secrets.state, secrets.binding);
  return secrets;
}

/** The start page's address for a state: the app's authorization request, on the backend. */
function startUrl(state: string): string {
  return popupStartUrl(APP, state);
}

/**
 * What a browser does in a popup login up to itch.io: opens the start page, whose script (after
 * the opener at `opener` confirmed) binds the state. Resolves with the bind answer and the
 * cookie the browser then holds (`undefined` if none was set).
 */
async function begin(handler: (request: Request) => Promise<Response>, state: string, opener: string | null = APP, confirmed?: boolean) {
  const page = await handler(new Request(startUrl(state), { headers: { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Dest': 'document' } }));
  assert.equal(page.status, 200, await page.clone().text());
  const fields = opener === null ? (confirmed === undefined ? {} : { confirmed }) : { binding: bindings.get(state) };
  const bind = await handler(post({ popup_bind: state, opener, ...fields }, APP, 'same-origin', {}, startUrl(state)));
  const cookie = bind.headers.get('set-cookie')?.split(';')[0];
  return { bind, cookie };
}

/** The popup's capture handing over the token, from the browser holding `cookie`. */
function deposit(state: string, cookie: string | undefined, accessToken = token()): Request {
  return post({ access_token: accessToken, state }, APP, 'same-origin', cookie === undefined ? {} : { Cookie: cookie });
}

/** Every key the store holds. */
async function keysOf(store: Storage): Promise<string[]> {
  return store.getKeys();
}

describe('popup relay: a login bound to the browser that started it', () => {
  it('releases the login once, to the verifier, and runs onLogin then with the collecting request', async () => {
    const { handler, logins } = handlerWith();
    const { verifier, state } = await pair();
    assert.deepEqual(await (await handler(post({ popup_verifier: verifier }))).json(), { pending: true });
    const { bind, cookie } = await begin(handler, state, GAME);
    assert.equal(bind.status, 200);
    assert.equal(cookie, `itch-oauth-popup-${state.slice(2, 14)}=o.${bindings.get(state)}.${Buffer.from(GAME).toString('base64url')}`);
    assert.match(bind.headers.get('set-cookie') ?? '', /HttpOnly/);
    assert.match(bind.headers.get('set-cookie') ?? '', /SameSite=Lax/);
    const { authorize } = (await bind.json()) as { authorize: string };
    assert.ok(authorize.startsWith(`${emulator.url}/user/oauth?`), authorize);
    assert.equal(new URL(authorize).searchParams.get('state'), state);
    assert.equal(new URL(authorize).searchParams.get('response_type'), 'token');
    assert.deepEqual(await (await handler(post({ popup_verifier: verifier }, GAME, 'cross-site'))).json(), { pending: true });

    const deposited = await handler(deposit(state, cookie));
    assert.equal(deposited.status, 202);
    assert.match(
      deposited.headers.get('set-cookie') ?? '',
      new RegExp(`^itch-oauth-popup-${state.slice(2, 14)}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax$`),
      'the binding ends',
    );
    assert.equal(logins.length, 0, 'onLogin waits for the collection');

    const collect = post({ popup_verifier: verifier }, GAME, 'cross-site');
    const collected = await handler(collect);
    assert.equal(collected.status, 200);
    assert.equal(((await collected.json()) as { user: { username: string } }).user.username, 'mossy');
    assert.equal(collected.headers.get('set-cookie'), `sid=${C.users.gamer}; HttpOnly; Path=/`);
    assert.equal(collected.headers.get('access-control-allow-origin'), GAME);
    assert.equal(logins.length, 1);
    assert.equal(logins[0]?.request, collect);
    assert.equal(logins[0]?.startedFrom, GAME);

    assert.deepEqual(
      await (await handler(post({ popup_verifier: verifier }, GAME, 'cross-site'))).json(),
      { pending: true },
      'collected once',
    );
    assert.equal(logins.length, 1);
  });

  it('sets a __Host- cookie, Secure, when the site is on https', async () => {
    const { handler } = handlerWith({ origin: 'https://game.example', allowedOrigins: [] });
    const { state } = await pair();
    await handler(new Request(startUrl(state)));
    const bind = await handler(
      post(
        { popup_bind: state, opener: 'https://game.example', binding: bindings.get(state) },
        'https://game.example',
        'same-origin',
        {},
        startUrl(state),
      ),
    );
    assert.match(
      bind.headers.get('set-cookie') ?? '',
      new RegExp(
        `^__Host-itch-oauth-popup-${state.slice(2, 14)}=o\\.[A-Za-z0-9_-]{43}\\.[A-Za-z0-9_-]+; Max-Age=600; Path=/; HttpOnly; Secure; SameSite=Lax$`,
      ),
    );
  });

  it('refuses a deposit from a browser that holds no binding (a link with an attacker-picked state): 403 state_mismatch, no call to itch.io, nothing kept', async () => {
    const store = createStorage({ driver: memoryDriver() });
    const { handler, logins, refusals, asked } = handlerWith({ store });
    const { verifier, state } = await pair();
    const refused = await handler(deposit(state, undefined));
    assert.equal(refused.status, 403);
    assert.deepEqual(await refused.json(), { errors: ['this popup login was not started in this browser'], code: 'state_mismatch' });
    assert.deepEqual(asked, [], 'itch.io was not asked');
    assert.deepEqual(await keysOf(store), [], 'nothing kept');
    for (const origin of [APP, GAME, EVIL]) {
      const collected = await handler(post({ popup_verifier: verifier }, origin, origin === APP ? 'same-origin' : 'cross-site'));
      assert.notEqual(collected.status, 200);
    }
    assert.equal(logins.length, 0);
    assert.deepEqual(
      refusals.map((refusal) => [refusal.status, refusal.code]),
      [
        [403, 'state_mismatch'],
        [403, undefined],
      ],
      'each refusal told once (the unlisted origin is refused as cross-site)',
    );
  });

  it("refuses a deposit that carries another browser's binding cookie, under its own name or the state's", async () => {
    const { handler, asked } = handlerWith();
    const victim = await pair();
    const attacker = await pair();
    const { cookie: victimCookie } = await begin(handler, victim.state);
    const { cookie: attackerCookie } = await begin(handler, attacker.state);
    assert.notEqual(victimCookie, attackerCookie);
    // The victim's popup hands over a token for the attacker's state: the victim's cookie is not its binding.
    assert.equal((await handler(deposit(attacker.state, victimCookie))).status, 403);
    const renamed = victimCookie!.replace(victim.state.slice(2, 14), attacker.state.slice(2, 14));
    assert.equal((await handler(deposit(attacker.state, renamed))).status, 403);
    assert.deepEqual(asked, []);
    assert.equal((await handler(deposit(victim.state, victimCookie))).status, 202);
  });

  it('keeps one binding cookie per login, so that logins in several tabs of one browser all complete', async () => {
    const { handler, logins } = handlerWith();
    const first = await pair();
    const second = await pair();
    const { cookie: one } = await begin(handler, first.state);
    const { cookie: two } = await begin(handler, second.state);
    const both = `${one}; ${two}`;
    assert.equal((await handler(deposit(first.state, both))).status, 202);
    assert.equal((await handler(deposit(second.state, both))).status, 202);
    assert.equal((await handler(post({ popup_verifier: first.verifier }))).status, 200);
    assert.equal((await handler(post({ popup_verifier: second.verifier }))).status, 200);
    assert.equal(logins.length, 2);
  });

  it("lets no page grow the browser's cookies: a bind that finds 8 binding cookies ends them all, and its own login still completes", async () => {
    const { handler, logins } = handlerWith();
    // A page that keeps sending its popup to new start pages, each bound: the browser's cookies.
    const jar = new Map<string, string>();
    const carried = (): string => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    let last = await pair();
    for (let round = 0; round < 200; round++) {
      last = await pair();
      const bind = await handler(
        post(
          { popup_bind: last.state, opener: APP, binding: last.binding },
          APP,
          'same-origin',
          { cookie: carried() },
          startUrl(last.state),
        ),
      );
      assert.equal(bind.status, 200);
      for (const set of bind.headers.getSetCookie()) {
        const [pairText, ...attributes] = set.split('; ');
        const [name, value] = pairText!.split('=') as [string, string];
        if (attributes.includes('Max-Age=0')) jar.delete(name);
        else jar.set(name, value);
      }
    }
    assert.ok(jar.size <= 8, `${jar.size} binding cookies after 200 binds`);
    assert.ok(carried().length < 1024, `a Cookie header of ${carried().length} bytes`);
    assert.equal((await handler(deposit(last.state, carried()))).status, 202);
    assert.equal((await handler(post({ popup_verifier: last.verifier }))).status, 200);
    assert.equal(logins.length, 1);
  });

  it('sets the value it computes at every binding, never one the request carries', async () => {
    const { handler } = handlerWith();
    const victim = await pair();
    const planted = `itch-oauth-popup-${victim.state.slice(2, 14)}=o.${'A'.repeat(43)}.${Buffer.from(APP).toString('base64url')}`;
    const bind = await handler(
      post(
        { popup_bind: victim.state, opener: APP, binding: victim.binding },
        APP,
        'same-origin',
        { Cookie: planted },
        startUrl(victim.state),
      ),
    );
    assert.equal(
      bind.headers.get('set-cookie')?.split(';')[0],
      `itch-oauth-popup-${victim.state.slice(2, 14)}=o.${victim.binding}.${Buffer.from(APP).toString('base64url')}`,
    );
  });

  it("binds only with the opener's binding, for an opener on its own origin or in allowedOrigins, from the start page itself", async () => {
    const { handler } = handlerWith();
    const { state, binding } = await pair();
    await handler(new Request(startUrl(state)));
    const unlisted = await handler(post({ popup_bind: state, opener: EVIL, binding }, APP, 'same-origin', {}, startUrl(state)));
    assert.equal(unlisted.status, 403);
    assert.equal(((await unlisted.json()) as { code: string }).code, 'state_mismatch');
    assert.equal(unlisted.headers.get('set-cookie'), null);
    const crossSite = await handler(post({ popup_bind: state, opener: APP, binding }, EVIL, 'cross-site', {}, startUrl(state)));
    assert.equal(crossSite.status, 403);
    const fromGame = await handler(post({ popup_bind: state, opener: APP, binding }, GAME, 'cross-site', {}, startUrl(state)));
    assert.equal(fromGame.status, 403, 'a framed page cannot bind, even a listed one: only the start page');
    const noMetadata = await handler(post({ popup_bind: state, opener: APP, binding }, GAME, null, {}, startUrl(state)));
    assert.equal(noMetadata.status, 403, "without Fetch Metadata, only the request URL's own origin binds");
    const otherState = await handler(
      post({ popup_bind: state, opener: APP, binding }, APP, 'same-origin', {}, startUrl((await pair()).state)),
    );
    assert.equal(otherState.status, 400);
    for (const wrong of [undefined, (await pair()).binding, 'A'.repeat(43)]) {
      const refused = await handler(
        post(
          { popup_bind: state, opener: APP, ...(wrong === undefined ? {} : { binding: wrong }) },
          APP,
          'same-origin',
          {},
          startUrl(state),
        ),
      );
      assert.equal(refused.status, 403, `binding ${wrong}`);
      assert.equal(refused.headers.get('set-cookie'), null);
    }
    assert.equal((await handler(post({ popup_bind: state, opener: APP, binding }, APP, 'same-origin', {}, startUrl(state)))).status, 200);
  });

  it('serves the start page with a strict CSP, no caching, no framing, and goes on to the configured itch.io only', async () => {
    const { handler } = handlerWith();
    const { state } = await pair();
    const page = await handler(new Request(`${startUrl(state)}&base_url=${encodeURIComponent('https://evil.example')}`));
    assert.equal(page.status, 200);
    const csp = page.headers.get('content-security-policy') ?? '';
    assert.match(csp, /default-src 'none'; script-src 'nonce-[^']+'; style-src 'nonce-[^']+'; img-src data:; connect-src 'self'/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.equal(page.headers.get('cache-control'), 'no-store');
    assert.equal(page.headers.get('referrer-policy'), 'no-referrer');
    assert.equal(page.headers.get('cross-origin-opener-policy'), null, 'the start page must keep its opener');
    const html = await page.text();
    assert.ok(!html.includes('evil.example'));
    const { bind } = await begin(handler, (await pair()).state);
    assert.ok(((await bind.json()) as { authorize: string }).authorize.startsWith(`${emulator.url}/user/oauth?`));
    assert.equal((await handler(new Request(`${APP}/auth/itch?state=p.short`))).status, 400);
    assert.equal((await handler(new Request(`${APP}/auth/itch?state=${state}&redirect_uri=`))).status, 400);
  });

  it('with no opener, refuses by default (popup_unverified), and the opener collects that refusal', async () => {
    const { handler, asked } = handlerWith();
    const { verifier, state } = await pair();
    const { bind, cookie } = await begin(handler, state, null);
    assert.equal(bind.status, 403);
    assert.equal(((await bind.json()) as { code: string }).code, 'popup_unverified');
    assert.equal(cookie, undefined);
    const collected = await handler(post({ popup_verifier: verifier }));
    assert.equal(collected.status, 403);
    assert.equal(((await collected.json()) as { code: string }).code, 'popup_unverified');
    assert.deepEqual(asked, []);
  });

  it("with severedOpener 'confirm', binds once the person confirmed the code, and tells the opener to show it", async () => {
    const { handler } = handlerWith({ popup: { severedOpener: 'confirm' } });
    const { verifier, state } = await pair();
    const page = await handler(new Request(startUrl(state)));
    assert.match(await page.text(), /data-severed="confirm"/);
    assert.deepEqual(await (await handler(post({ popup_verifier: verifier }))).json(), { pending: true, arrived: true, confirm: true });
    const bind = await handler(post({ popup_bind: state, opener: null, confirmed: true }, APP, 'same-origin', {}, startUrl(state)));
    assert.equal(bind.status, 200);
    const cookie = bind.headers.get('set-cookie')!.split(';')[0];
    assert.equal((await handler(deposit(state, cookie))).status, 202);
    assert.equal((await handler(post({ popup_verifier: verifier }))).status, 200);

    const declined = await pair();
    const no = await begin(handler, declined.state, null, false);
    assert.equal(no.bind.status, 403);
    assert.equal(
      ((await (await handler(post({ popup_verifier: declined.verifier }))).json()) as { code: string }).code,
      'popup_unverified',
    );
  });

  it('tells the collector that a deposit is being checked, so that it waits for a popup it saw close', async () => {
    const slowFetch = (async (input: string, init: RequestInit) => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      return fetch(input, init);
    }) as TokenHandlerOptions['fetch'];
    const { handler } = handlerWith({ fetch: slowFetch });
    const { verifier, state } = await pair();
    const { cookie } = await begin(handler, state);
    const deposited = handler(deposit(state, cookie));
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(await (await handler(post({ popup_verifier: verifier }))).json(), { pending: true, arrived: true, delivering: true });
    assert.equal((await deposited).status, 202);
    assert.equal((await handler(post({ popup_verifier: verifier }))).status, 200);
  });

  it('gives nothing to another verifier, even one that knows the state', async () => {
    const { handler, logins } = handlerWith();
    const { state } = await pair();
    const { cookie } = await begin(handler, state);
    assert.equal((await handler(deposit(state, cookie))).status, 202);
    const other = await pair();
    assert.equal((await handler(post({ popup_verifier: other.verifier }))).status, 202);
    assert.equal(logins.length, 0);
  });

  it('keeps the first deposit: a second one for the same state is 409', async () => {
    const { handler } = handlerWith();
    const { verifier, state } = await pair();
    const { cookie } = await begin(handler, state);
    assert.equal((await handler(deposit(state, cookie))).status, 202);
    assert.equal((await handler(deposit(state, cookie, token(C.users.press)))).status, 409);
    const collected = await handler(post({ popup_verifier: verifier }));
    assert.equal(((await collected.json()) as { user: { id: number } }).user.id, C.users.gamer);
  });

  it('of two deposits at once for one state, exactly one wins and its user is collected', async () => {
    // A store whose reads wait for each other once armed, so that both deposits read the bound
    // state before either writes: only the atomic claim can then tell them apart.
    const inner = createStorage({ driver: memoryDriver() });
    let armed = false;
    const waiting: (() => void)[] = [];
    const store = createStorage({
      driver: {
        name: 'barrier',
        hasItem: (key) => inner.hasItem(key),
        getItem: async (key) => {
          if (armed && waiting.length < 2) {
            await new Promise<void>((resolve) => {
              waiting.push(resolve);
              if (waiting.length === 2) for (const release of waiting) release();
              else setTimeout(resolve, 1000);
            });
          }
          return inner.getItem(key);
        },
        setItem: (key, value) => inner.setItem(key, value),
        removeItem: (key) => inner.removeItem(key),
        getKeys: () => inner.getKeys(),
        clear: () => inner.clear(),
      },
    });
    const { handler, logins } = handlerWith({ store });
    const { verifier, state } = await pair();
    const { cookie } = await begin(handler, state);
    armed = true;
    const answers = await Promise.all([
      handler(deposit(state, cookie, token(C.users.gamer))),
      handler(deposit(state, cookie, token(C.users.press))),
    ]);
    assert.equal(waiting.length, 2, 'both deposits read the state before either wrote');
    assert.deepEqual(answers.map((answer) => answer.status).sort(), [202, 409]);
    await handler(post({ popup_verifier: verifier }));
    const winner = answers[0]!.status === 202 ? C.users.gamer : C.users.press;
    assert.deepEqual(
      logins.map((login) => login.user.id),
      [winner],
      "the winning deposit's user",
    );
  });

  it('takes "first deposit wins" from the store\'s own set-if-absent when one is given (storeSetIfAbsent)', async () => {
    // Another instance already set the state's key in the shared store: this deposit must lose,
    // whatever this process's own lock would say.
    const asked: string[] = [];
    const storeSetIfAbsent = { set: async (key: string) => (asked.push(key), false), delete: async () => undefined };
    const { handler, logins } = handlerWith({ storeSetIfAbsent });
    const { verifier, state } = await pair();
    const { cookie } = await begin(handler, state);
    assert.equal((await handler(deposit(state, cookie))).status, 409);
    assert.deepEqual(asked, [`itch-oauth:popup-claim:${state}`]);
    assert.equal((await (await handler(post({ popup_verifier: verifier }))).json()).pending, true);
    assert.deepEqual(logins, []);
  });

  it('hands a refused token to both the popup and the collector, never calling onLogin, and tells onError once', async () => {
    const { handler, logins, refusals } = handlerWith();
    const { verifier, state } = await pair();
    const { cookie } = await begin(handler, state);
    const deposited = await handler(deposit(state, cookie, 'f'.repeat(40)));
    assert.equal(deposited.status, 401);
    const collected = await handler(post({ popup_verifier: verifier }));
    assert.equal(collected.status, 401);
    assert.deepEqual(await collected.json(), { errors: ['itch.io did not accept the access token'] });
    assert.equal(logins.length, 0);
    assert.deepEqual(
      refusals.map((refusal) => refusal.status),
      [401],
      'one refusal, one onError call',
    );
  });

  it('survives a flood of 10,000 unbound deposits: none reaches itch.io or the store, and a real login still completes', async () => {
    const { handler, logins, asked } = handlerWith({ onError: () => undefined });
    const { verifier, state } = await pair();
    const { cookie } = await begin(handler, state);
    for (let i = 0; i < 10_000; i++) {
      const flood = await pair();
      const answer = await handler(deposit(flood.state, undefined, 'bogus' + i));
      if (answer.status !== 403) assert.fail(`deposit ${i} answered ${answer.status}`);
    }
    assert.deepEqual(asked, []);
    assert.equal((await handler(deposit(state, cookie))).status, 202);
    assert.equal((await handler(post({ popup_verifier: verifier }))).status, 200);
    assert.equal(logins.length, 1);
  });

  it('leaves a state free after the store failed during a deposit, so that the retry succeeds', async () => {
    const inner = createStorage({ driver: memoryDriver() });
    let failNextResult = true;
    const store = createStorage({
      driver: {
        name: 'flaky',
        hasItem: (key) => inner.hasItem(key),
        getItem: (key) => inner.getItem(key),
        setItem: async (key, value) => {
          if (failNextResult && value.includes('"token"')) {
            failNextResult = false;
            throw new Error('store down');
          }
          await inner.setItem(key, value);
        },
        removeItem: (key) => inner.removeItem(key),
        getKeys: () => inner.getKeys(),
        clear: () => inner.clear(),
      },
    });
    const { handler } = handlerWith({ store });
    const { verifier, state } = await pair();
    const { cookie } = await begin(handler, state);
    const failed = await handler(deposit(state, cookie));
    assert.equal(failed.status, 503);
    assert.equal(failed.headers.get('retry-after'), '1');
    const retried = await handler(deposit(state, cookie));
    assert.equal(retried.status, 202, await retried.clone().text());
    assert.equal((await handler(post({ popup_verifier: verifier }))).status, 200);
  });

  it('answers a CORS preflight of a listed game origin, and refuses one that is not listed', async () => {
    const { handler } = handlerWith();
    const preflight = (origin: string) =>
      handler(
        new Request(`${APP}/auth/itch`, {
          method: 'OPTIONS',
          headers: {
            Origin: origin,
            'Access-Control-Request-Method': 'POST',
            'Access-Control-Request-Headers': 'content-type',
            'Sec-Fetch-Site': 'cross-site',
          },
        }),
      );
    const allowed = await preflight(GAME);
    assert.equal(allowed.status, 204);
    assert.equal(allowed.headers.get('access-control-allow-origin'), GAME);
    assert.match(allowed.headers.get('access-control-allow-headers') ?? '', /content-type/i);
    assert.equal((await preflight('http://127.0.0.9:1')).status, 403);
  });
});

describe('popup relay: what an attacker cannot get', () => {
  const SITE = 'https://app.example';
  const SECURE_GAME = 'https://game.example';
  /** The app on https: its start page, bind and deposits come from SITE. */
  const secureHandler = (options: Partial<TokenHandlerOptions> = {}) =>
    handlerWith({ origin: SITE, allowedOrigins: [SECURE_GAME], ...options });
  const secureStart = (state: string) => startUrl(state).replace(APP, SITE);
  async function bindOnHttps(handler: (request: Request) => Promise<Response>, state: string, binding: string, opener = SITE) {
    const bind = await handler(post({ popup_bind: state, opener, binding }, SITE, 'same-origin', {}, secureStart(state)));
    assert.equal(bind.status, 200, await bind.clone().text());
    return bind.headers.get('set-cookie')!.split(';')[0]!;
  }
  const secureDeposit = (state: string, cookie: string | undefined) =>
    post({ access_token: token(), state }, SITE, 'same-origin', cookie === undefined ? {} : { Cookie: cookie }, `${SITE}/auth/itch`);

  it('cookie tossing: on https a binding planted under the plain name (sibling subdomain, other port, http) collects nothing', async () => {
    const { handler, logins, asked } = secureHandler();
    // The attacker binds their own state in their own browser and reads the value they were given...
    const attacker = await pair();
    const theirs = await bindOnHttps(handler, attacker.state, attacker.binding);
    assert.match(theirs, /^__Host-itch-oauth-popup-/);
    // ...and plants it in the victim's browser under the plain name, which a sibling subdomain
    // (Domain=), another port or a plain-http response can set. The victim approves the attacker's state.
    const planted = theirs.replace(/^__Host-/, '');
    const refused = await handler(secureDeposit(attacker.state, planted));
    assert.equal(refused.status, 403);
    assert.equal(((await refused.json()) as { code: string }).code, 'state_mismatch');
    assert.deepEqual(asked, [], 'itch.io was not asked');
    assert.equal((await handler(post({ popup_verifier: attacker.verifier }, SITE, 'same-origin', {}, `${SITE}/auth/itch`))).status, 202);
    assert.equal(logins.length, 0);
    // The same value under the __Host- name (which only this host's https responses can set) is the binding.
    assert.equal((await handler(secureDeposit(attacker.state, theirs))).status, 202);
  });

  it('refuses popup logins from plain-http pages that are not loopback, unless dangerouslyAllowHttp', async () => {
    const LAN = 'http://game.lan:8080';
    const attempt = async (options: Partial<TokenHandlerOptions>) => {
      const { handler } = handlerWith({ origin: LAN, allowedOrigins: [], ...options });
      const { state, binding } = await pair();
      const start = startUrl(state).replace(APP, LAN);
      const bind = await handler(post({ popup_bind: state, opener: LAN, binding }, LAN, null, {}, start));
      const cookie = bind.headers.get('set-cookie')?.split(';')[0];
      const deposited = await handler(
        post({ access_token: token(), state }, LAN, null, cookie === undefined ? {} : { Cookie: cookie }, `${LAN}/auth/itch`),
      );
      return { bind: bind.status, deposit: deposited.status, message: ((await bind.json()) as { errors?: string[] }).errors?.[0] };
    };
    const refused = await attempt({});
    assert.equal(refused.bind, 403);
    assert.match(refused.message ?? '', /plain http outside loopback.*https.*dangerouslyAllowHttp/);
    assert.equal(refused.deposit, 403);
    assert.deepEqual(await attempt({ popup: { dangerouslyAllowHttp: true } }), { bind: 200, deposit: 202, message: undefined });
  });

  it('on a plain-http site that is not loopback, a binding cookie the attacker computed and planted deposits nothing', async () => {
    const LAN = 'http://game.lan:8080';
    const { handler, logins } = handlerWith({ origin: LAN, allowedOrigins: [] });
    const { state, binding } = await pair();
    // No bind could have set it (refused on such a site): anyone on the network can plant it.
    const planted = `itch-oauth-popup-${state.slice(2, 14)}=o.${binding}.${Buffer.from(LAN).toString('base64url')}`;
    const deposit = await handler(post({ access_token: token(), state }, LAN, null, { Cookie: planted }, `${LAN}/auth/itch`));
    assert.equal(deposit.status, 403);
    assert.equal(logins.length, 0);
  });

  it('a login started by a framed game reaches onLogin with startedFrom the game, whoever collects it and with whatever Origin', async () => {
    const { handler, logins, refusals } = secureHandler();
    const { verifier, state, binding } = await pair();
    const cookie = await bindOnHttps(handler, state, binding, SECURE_GAME);
    assert.equal((await handler(secureDeposit(state, cookie))).status, 202);
    const collect = (origin: string | null, site: string | null) =>
      handler(post({ popup_verifier: verifier }, origin, site, {}, `${SITE}/auth/itch`));
    // curl with the verifier: no Origin, or the site's own Origin forged.
    const noOrigin = await collect(null, null);
    assert.equal(noOrigin.status, 403);
    const forged = await collect(SITE, 'same-origin');
    assert.equal(forged.status, 403);
    assert.match(
      ((await forged.json()) as { errors: string[] }).errors[0]!,
      /started from https:\/\/game\.example, not from https:\/\/app\.example/,
    );
    assert.equal(logins.length, 0, 'nothing reached onLogin');
    assert.deepEqual(
      refusals.slice(-2).map((refusal) => [refusal.status, refusal.code]),
      [
        [403, 'state_mismatch'],
        [403, 'state_mismatch'],
      ],
      'each refusal logged',
    );
    // The refusals took nothing: the game itself still collects, and the session it gets is the game's.
    const collected = await collect(SECURE_GAME, 'cross-site');
    assert.equal(collected.status, 200);
    assert.deepEqual(
      logins.map((login) => login.startedFrom),
      [SECURE_GAME],
    );
  });

  it('a code-confirmed login has startedFrom null, and is collected only by the site or a listed origin', async () => {
    const { handler, logins } = handlerWith({ popup: { severedOpener: 'confirm' } });
    const { verifier, state } = await pair();
    const { bind, cookie } = await begin(handler, state, null, true);
    assert.equal(bind.status, 200);
    assert.match(cookie!, /^itch-oauth-popup-[A-Za-z0-9_-]{12}=c\.[A-Za-z0-9_-]{43}$/);
    // A second confirmation of the same state (by anyone) binds nothing more.
    assert.equal((await begin(handler, state, null, true)).bind.status, 409);
    assert.equal((await handler(deposit(state, cookie))).status, 202);
    assert.equal((await handler(post({ popup_verifier: verifier }, EVIL, 'cross-site'))).status, 403);
    assert.equal((await handler(post({ popup_verifier: verifier }, null, null))).status, 403);
    assert.equal((await handler(post({ popup_verifier: verifier }, GAME, 'cross-site'))).status, 200);
    assert.deepEqual(
      logins.map((login) => login.startedFrom),
      [null],
    );
    // Deposited once, never again: its code binding stays taken until it expires.
    assert.equal((await begin(handler, state, null, true)).bind.status, 409);
  });

  it('names the site and warns, where a person confirms a code', async () => {
    const { handler } = handlerWith({ popup: { severedOpener: 'confirm', siteName: 'Starfall <Keep>' } });
    const html = await (await handler(new Request(startUrl((await pair()).state)))).text();
    assert.match(html, /<strong>Starfall &lt;Keep&gt;<\/strong> \(<span id="origin"><\/span>\) asks you to confirm this code/);
    assert.match(html, /If another site, game, message or person gave you\s+this code, choose "It does not"/);
  });

  it('a token POSTed directly has startedFrom its Origin, and null without one', async () => {
    const { handler, logins } = handlerWith();
    assert.equal((await handler(post({ access_token: token() }))).status, 200);
    assert.equal((await handler(post({ access_token: token() }, GAME, 'cross-site'))).status, 200);
    assert.equal((await handler(post({ access_token: token() }, null, null))).status, 200);
    assert.deepEqual(
      logins.map((login) => login.startedFrom),
      [APP, GAME, null],
    );
  });

  it('20,000 start pages and 20,000 unverified binds evict no pending login and keep at most the notice slots', async () => {
    const store = memoryPopupStore();
    const { handler, logins } = handlerWith({ store, popup: { severedOpener: 'confirm' }, onError: () => undefined });
    // One login deposited and waiting for its opener, one bound and not yet deposited.
    const waiting = await pair();
    assert.equal((await handler(deposit(waiting.state, (await begin(handler, waiting.state)).cookie))).status, 202);
    const bound = await pair();
    const { cookie } = await begin(handler, bound.state);
    const counts = (key: string) => key.startsWith('itch-oauth:rate:itch:');
    const before = (await keysOf(store)).filter((key) => !counts(key)).length;
    for (let i = 0; i < 20_000; i++) {
      const flood = await pair();
      const page = await handler(new Request(startUrl(flood.state)));
      if (page.status !== 200) assert.fail(`start page ${i} answered ${page.status}`);
      const bind = await handler(
        post({ popup_bind: flood.state, opener: null, confirmed: false }, APP, 'same-origin', {}, startUrl(flood.state)),
      );
      if (bind.status !== 403) assert.fail(`bind ${i} answered ${bind.status}`);
    }
    // The rate limits' counts (of calls to itch.io, one a second) expire at the end of their window.
    const keys = (await keysOf(store)).filter((key) => !counts(key));
    assert.ok(keys.length <= before + NOTICE_SLOTS, `${keys.length} keys after the flood, ${before} before`);
    assert.deepEqual(
      keys
        .filter((key) => !key.startsWith('itch-oauth:popup-notice:'))
        .map((key) => key.replace(/:[^:]+$/, ''))
        .sort(),
      ['itch-oauth:popup', 'itch-oauth:popup-user'],
      "only the waiting login (and its account's list) besides the notices",
    );
    assert.equal((await handler(post({ popup_verifier: waiting.verifier }))).status, 200);
    assert.equal((await handler(deposit(bound.state, cookie))).status, 202);
    assert.equal((await handler(post({ popup_verifier: bound.verifier }))).status, 200);
    assert.equal(logins.length, 2);
  });

  it('keeps at most 5 logins of one itch.io account waiting: one token and self-made bindings cannot flood the store', async () => {
    const store = memoryPopupStore();
    const { handler, refusals } = handlerWith({ store, onError: undefined });
    const attackerToken = token(C.users.press);
    const made = [];
    for (let i = 0; i < 7; i++) {
      const login = await pair();
      // A binding cookie written offline for a state of its own: the handler checks only its hash.
      const cookie = `itch-oauth-popup-${login.state.slice(2, 14)}=o.${login.binding}.${Buffer.from(APP).toString('base64url')}`;
      made.push({ ...login, status: (await handler(deposit(login.state, cookie, attackerToken))).status });
    }
    assert.deepEqual(
      made.map((login) => login.status),
      [202, 202, 202, 202, 202, 429, 429],
    );
    assert.ok((await keysOf(store)).filter((key) => key.startsWith('itch-oauth:popup:')).length <= 5);
    assert.equal(
      ((await (await handler(post({ popup_verifier: made[5]!.verifier }))).json()) as { errors: string[] }).errors[0],
      'this itch.io account already has 5 popup logins waiting: finish or close them, then try again',
    );
    // Collecting one frees a place.
    assert.equal((await handler(post({ popup_verifier: made[0]!.verifier }))).status, 200);
    const next = await pair();
    assert.equal((await handler(deposit(next.state, (await begin(handler, next.state)).cookie, attackerToken))).status, 202);
    // Another account is not held up.
    const other = await pair();
    assert.equal((await handler(deposit(other.state, (await begin(handler, other.state)).cookie, token(C.users.gamer)))).status, 202);
    void refusals;
  });

  it('a code-confirmed login keeps its binding through 20,000 start pages and 20,000 binds; when code slots run out, new confirmations wait (503)', async () => {
    const store = memoryPopupStore();
    const { handler, logins } = handlerWith({ store, popup: { severedOpener: 'confirm' }, onError: () => undefined });
    const victim = await pair();
    const { cookie } = await begin(handler, victim.state, null, true);
    for (let i = 0; i < 20_000; i++) {
      const flood = await pair();
      await handler(new Request(startUrl(flood.state)));
      await handler(post({ popup_bind: flood.state, opener: null, confirmed: false }, APP, 'same-origin', {}, startUrl(flood.state)));
    }
    // The attacker confirms codes of its own until no code slot near any state is free.
    let full = 0;
    for (let i = 0; i < 2 * CODE_SLOTS && full < 20; i++) {
      const flood = await pair();
      const bind = await handler(
        post({ popup_bind: flood.state, opener: null, confirmed: true }, APP, 'same-origin', {}, startUrl(flood.state)),
      );
      if (bind.status === 503) full++;
      else assert.equal(bind.status, 200);
    }
    assert.equal(full, 20, 'new code confirmations wait once the slots are taken');
    assert.ok((await keysOf(store)).filter((key) => key.startsWith('itch-oauth:popup-code:')).length <= CODE_SLOTS);
    assert.equal((await handler(deposit(victim.state, cookie))).status, 202, "the victim's binding was not pushed out");
    assert.equal((await handler(post({ popup_verifier: victim.verifier }))).status, 200);
    assert.deepEqual(
      logins.map((login) => login.user.id),
      [C.users.gamer],
    );
  });

  it('hands a login to one of several collections at once', async () => {
    const { handler, logins } = handlerWith();
    const { verifier, state } = await pair();
    assert.equal((await handler(deposit(state, (await begin(handler, state)).cookie))).status, 202);
    const answers = await Promise.all(Array.from({ length: 4 }, () => handler(post({ popup_verifier: verifier }))));
    assert.equal(answers.filter((answer) => answer.status === 200).length, 1);
    assert.ok(answers.every((answer) => [200, 202, 409].includes(answer.status)));
    assert.equal(logins.length, 1);
  });

  it('starts no login whose redirect_uri is on another site (the start page sends no one to another app)', async () => {
    const { handler } = handlerWith();
    const { state } = await pair();
    const elsewhere = startUrl(state).replace(
      encodeURIComponent(`${APP}/callback.html`),
      encodeURIComponent('https://other-app.example/callback'),
    );
    const page = await handler(new Request(elsewhere));
    assert.equal(page.status, 400);
    assert.match(((await page.json()) as { errors: string[] }).errors[0]!, /redirect_uri must be on this site/);
  });

  it('answers a readable 503 page from the start page when the store fails, and tells onError', async () => {
    const store = createStorage({
      driver: { name: 'down', hasItem: fail, getItem: fail, setItem: fail, removeItem: fail, getKeys: fail, clear: fail },
    });
    const { handler, refusals } = handlerWith({ store, popup: { severedOpener: 'confirm' } });
    const page = await handler(new Request(startUrl((await pair()).state)));
    assert.equal(page.status, 503);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(await page.text(), /The site cannot log you in right now\. Close this window and try again in a moment\./);
    assert.deepEqual(
      refusals.map((refusal) => [refusal.status, refusal.message]),
      [[503, 'the popup login store failed (Error): try again in a moment']],
    );
  });

  it('requires applicationId, saying where to find it', () => {
    assert.throws(
      () => createTokenHandler({ onLogin: () => undefined } as unknown as TokenHandlerOptions),
      (error: unknown) =>
        error instanceof TypeError &&
        /applicationId is required/.test(error.message) &&
        error.message.includes('https://itch.io/user/settings/oauth-apps'),
    );
  });
});

function fail(): never {
  throw new Error('store down');
}

describe('popup relay off (no popup option)', () => {
  it('refuses deposits (403), answers collections and start pages 404, and keeps nothing', async () => {
    const store = createStorage({ driver: memoryDriver() });
    const { handler, asked } = handlerWith({ popup: undefined, store });
    const { verifier, state } = await pair();
    assert.equal((await handler(new Request(startUrl(state)))).status, 404);
    assert.equal((await handler(post({ popup_bind: state, opener: APP }, APP, 'same-origin', {}, startUrl(state)))).status, 404);
    const deposited = await handler(deposit(state, undefined));
    assert.equal(deposited.status, 403);
    assert.equal((await handler(post({ popup_verifier: verifier }))).status, 404);
    assert.deepEqual(asked, []);
    assert.deepEqual(await keysOf(store), []);
    // A redirect login is as before.
    assert.equal((await handler(post({ access_token: token() }))).status, 200);
  });

  it('checks the popup option at creation', () => {
    assert.throws(
      () => createTokenHandler({ applicationId: 1, onLogin: () => undefined, popup: { severedOpener: 'ask' as 'confirm' } }),
      /severedOpener/,
    );
  });
});

describe('popup relay in a real Redis shared by two handler instances', { skip: redisMissing }, () => {
  const redis = useRedis('itch-test');
  const redisStore = () => redis.store();

  it('binds and deposits through one instance and collects through the other, once', async () => {
    const a = handlerWith({ store: (await redisStore()).store });
    const b = handlerWith({ store: (await redisStore()).store });
    const { verifier, state } = await pair();
    const { cookie } = await begin(a.handler, state);
    assert.equal((await b.handler(deposit(state, cookie))).status, 202, 'the other instance knows the binding');
    assert.equal((await a.handler(deposit(state, cookie))).status, 409, 'and sees the first deposit too');
    const collected = await b.handler(post({ popup_verifier: verifier }));
    assert.equal(collected.status, 200, await collected.clone().text());
    assert.equal((await a.handler(post({ popup_verifier: verifier }))).status, 202, 'and it is gone for both');
    assert.deepEqual([a.logins.length, b.logins.length], [0, 1]);
  });

  it('of two deposits at once on two instances, exactly one wins (SET NX), and its user is collected', async () => {
    const a = handlerWith({ store: (await redisStore()).store });
    const b = handlerWith({ store: (await redisStore()).store });
    const { verifier, state } = await pair();
    const { cookie } = await begin(a.handler, state);
    const answers = await Promise.all([
      a.handler(deposit(state, cookie, token(C.users.gamer))),
      b.handler(deposit(state, cookie, token(C.users.press))),
    ]);
    assert.deepEqual(answers.map((answer) => answer.status).sort(), [202, 409]);
    const winner = answers[0]!.status === 202 ? C.users.gamer : C.users.press;
    const collected = await a.handler(post({ popup_verifier: verifier }));
    assert.equal(((await collected.json()) as { user: { id: number } }).user.id, winner);
  });

  it('of collections at once on two instances, one gets the login and onLogin runs once', async () => {
    const a = handlerWith({ store: (await redisStore()).store });
    const b = handlerWith({ store: (await redisStore()).store });
    const { verifier, state } = await pair();
    assert.equal((await a.handler(deposit(state, (await begin(a.handler, state)).cookie))).status, 202);
    const answers = await Promise.all([a, b, a, b].map(({ handler }) => handler(post({ popup_verifier: verifier }))));
    assert.equal(answers.filter((answer) => answer.status === 200).length, 1);
    assert.equal(a.logins.length + b.logins.length, 1);
  });

  it('at its memory limit: 503, the token in no log line and no answer, and the state free for the retry', async () => {
    const { store, client } = await redisStore();
    const lines: string[] = [];
    // itch.io answers slowly, so that Redis reaches its limit between the claim and the write of
    // the verified login (the value that holds the token, which ioredis attaches to its error).
    let slow = true;
    const fetchSlowly = (async (input: string, init: RequestInit) => {
      if (slow) await new Promise((resolve) => setTimeout(resolve, 300));
      return fetch(input, init);
    }) as TokenHandlerOptions['fetch'];
    const { handler } = handlerWith({ store, fetch: fetchSlowly, onError: undefined });
    const original = { warn: console.warn, error: console.error, log: console.log, info: console.info };
    for (const level of ['warn', 'error', 'log', 'info'] as const)
      console[level] = (...args: unknown[]) => void lines.push(format(...args));
    const { verifier, state } = await pair();
    const accessToken = token();
    try {
      const { cookie } = await begin(handler, state);
      await client.config('SET', 'maxmemory-policy', 'noeviction');
      const refusing = handler(deposit(state, cookie, accessToken));
      await new Promise((resolve) => setTimeout(resolve, 100));
      await client.config('SET', 'maxmemory', '1');
      const refused = await refusing;
      const body = await refused.text();
      await client.config('SET', 'maxmemory', '0');
      assert.equal(refused.status, 503, body);
      assert.ok(!body.includes(accessToken), 'not in the answer');
      assert.match(
        lines.join('\n'),
        /refused \(503 service_unavailable\): the popup login store failed \(ReplyError OOM\)/,
        'the failure was logged',
      );
      for (const line of lines) assert.ok(!line.includes(accessToken), `the token is in a log line: ${line}`);
      slow = false;
      const retried = await handler(deposit(state, cookie, accessToken));
      assert.equal(retried.status, 202, await retried.clone().text());
      assert.equal((await handler(post({ popup_verifier: verifier }))).status, 200);
    } finally {
      await client.config('SET', 'maxmemory', '0');
      Object.assign(console, original);
    }
  });

  it('20,000 start pages and 20,000 unverified binds grow Redis by at most the notice slots (DBSIZE, used_memory)', async () => {
    const { store, client } = await redisStore();
    const { handler, logins } = handlerWith({ store, popup: { severedOpener: 'confirm' }, onError: () => undefined });
    const waiting = await pair();
    assert.equal((await handler(deposit(waiting.state, (await begin(handler, waiting.state)).cookie))).status, 202);
    const memory = async () => Number(/used_memory:(\d+)/.exec(await client.info('memory'))![1]);
    const keysBefore = await client.dbsize();
    const bytesBefore = await memory();
    for (let i = 0; i < 20_000; i++) {
      const flood = await pair();
      await handler(new Request(startUrl(flood.state)));
      await handler(post({ popup_bind: flood.state, opener: null, confirmed: false }, APP, 'same-origin', {}, startUrl(flood.state)));
    }
    const grownKeys = (await client.dbsize()) - keysBefore;
    const grownBytes = (await memory()) - bytesBefore;
    console.log(`# Redis after 20,000 start pages and 20,000 binds: +${grownKeys} keys, +${grownBytes} bytes of used_memory`);
    assert.ok(grownKeys <= NOTICE_SLOTS, `${grownKeys} keys`);
    assert.ok(grownBytes <= 512 * 1024, `${grownBytes} bytes`);
    assert.equal((await handler(post({ popup_verifier: waiting.verifier }))).status, 200, 'the waiting login is still there');
    assert.equal(logins.length, 1);
  });

  it('answers 503 while Redis is down, never logging anyone in', async () => {
    const a = handlerWith({ store: (await redisStore()).store });
    const { verifier, state } = await pair();
    const { cookie } = await begin(a.handler, state);
    await redis.stop();
    const deposited = await a.handler(deposit(state, cookie));
    assert.equal(deposited.status, 503);
    assert.match(
      ((await deposited.json()) as { errors: string[] }).errors[0]!,
      /^the popup login store failed \(\w+\): try again in a moment$/,
    );
    assert.equal((await a.handler(post({ popup_verifier: verifier }))).status, 503);
    assert.equal(a.logins.length, 0);
  });
});
