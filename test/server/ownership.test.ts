// createTokenHandler's `ownership` option against the emulator, whose default seed has owners by
// purchase, by claimed key and by bundle, and players who own nothing (DEFAULT_SEED_OWNERS): both
// checks (the developer's API key on download_keys?user_id=, the player's token on
// /games/ID/ownership), `require`, itch.io failing during the check, bad options, and the API key
// never leaving the server.
import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, it, mock } from 'node:test';
import { DEFAULT_SEED_CREDENTIALS as C, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { createTokenHandler, type FetchFunction, type LoginContext, type TokenHandlerOptions } from '../../src/server/index.js';

const APP = 'http://127.0.0.1:5173';
const STARFALL = C.games.starfallKeep;
const LANTERN = C.games.lanternLetters;
const DEVELOPER_KEY = C.apiKeys.developer;

let emulator: RunningEmulator;
before(async () => {
  emulator = await startEmulator();
});
after(() => emulator.close());

/** A token for the demo application, as the consent page would issue it. */
const tokenOf = (userId: number, scopes = 'profile:me'): string =>
  emulator.issueToken({ userId, clientId: C.clients.demo.clientId, scopes });

interface Call {
  url: string;
  authorization: string | null;
}

/** The global fetch, recording every call; `intercept` may answer instead (itch.io failing). */
function recordingFetch(intercept?: (url: string) => Promise<Response> | undefined): { fetch: FetchFunction; calls: Call[] } {
  const calls: Call[] = [];
  const fetch: FetchFunction = async (url, init) => {
    calls.push({ url, authorization: new Headers(init.headers).get('authorization') });
    return intercept?.(url) ?? globalThis.fetch(url, init);
  };
  return { fetch, calls };
}

function setup(ownership: TokenHandlerOptions['ownership'], options: Partial<TokenHandlerOptions> = {}) {
  const logins: LoginContext[] = [];
  const itch = recordingFetch();
  const handler = createTokenHandler({
    baseUrl: emulator.url,
    apiBaseUrl: emulator.apiUrl,
    applicationId: C.clients.demo.id,
    origin: APP,
    fetch: itch.fetch,
    ownership,
    ...options,
    onLogin: (login) => {
      logins.push(login);
      return { headers: { 'Set-Cookie': `sid=${login.user.id}; HttpOnly; Path=/` } };
    },
  });
  return { handler, logins, calls: itch.calls };
}

function post(token: string): Request {
  return new Request(`${APP}/auth/itch`, {
    method: 'POST',
    body: JSON.stringify({ access_token: token }),
    headers: { 'Content-Type': 'application/json', Origin: APP, 'Sec-Fetch-Site': 'same-origin' },
  });
}

async function answer(response: Response): Promise<{ status: number; body: any; text: string }> {
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text), text };
}

const byApiKey = { gameIds: [STARFALL, LANTERN], apiKey: DEVELOPER_KEY };

describe('ownership with the developer API key (download_keys?user_id=)', () => {
  const cases: [string, number, Record<number, boolean>][] = [
    ['owned by purchase', C.users.gamer, { [STARFALL]: true, [LANTERN]: false }],
    ['owned by claimed key', C.users.press, { [STARFALL]: true, [LANTERN]: false }],
    ['owned by bundle (both games of the bundle)', C.users.bundleOwner, { [STARFALL]: true, [LANTERN]: true }],
    ['not owned', C.users.newcomer, { [STARFALL]: false, [LANTERN]: false }],
    ["not owned by the game's own developer, who holds no key", C.users.developer, { [STARFALL]: false, [LANTERN]: false }],
  ];
  for (const [name, userId, owns] of cases) {
    it(`${name}: onLogin and the answer get owns ${JSON.stringify(owns)}`, async () => {
      const { handler, logins, calls } = setup(byApiKey);
      const { status, body } = await answer(await handler(post(tokenOf(userId))));
      assert.equal(status, 200);
      assert.deepEqual(body.owns, owns);
      assert.equal(body.user.id, userId);
      assert.equal(logins.length, 1);
      assert.deepEqual(logins[0]!.owns, owns);
      const checks = calls.filter((call) => call.url.includes('/download_keys'));
      assert.deepEqual(checks.map((call) => new URL(call.url).pathname).sort(), [
        `/api/games/${STARFALL}/download_keys`,
        `/api/games/${LANTERN}/download_keys`,
      ]);
      for (const call of checks) {
        assert.equal(new URL(call.url).searchParams.get('user_id'), String(userId), 'looked up by the verified user id');
        assert.equal(call.authorization, `Bearer ${DEVELOPER_KEY}`);
      }
    });
  }

  it('require off (the default): a user who owns nothing is logged in, with owns all false', async () => {
    const { handler, logins } = setup({ gameIds: [STARFALL], apiKey: DEVELOPER_KEY });
    const response = await handler(post(tokenOf(C.users.newcomer)));
    assert.equal(response.status, 200);
    assert.deepEqual(logins[0]!.owns, { [STARFALL]: false });
  });

  it('require on: a user who owns none is refused 403 not_owner, and onLogin never runs', async () => {
    const { handler, logins } = setup({ ...byApiKey, require: true });
    const response = await handler(post(tokenOf(C.users.newcomer)));
    const { status, body } = await answer(response);
    assert.equal(status, 403);
    assert.equal(body.code, 'not_owner');
    assert.deepEqual(Object.keys(body).sort(), ['code', 'errors']);
    assert.match(body.errors[0], /requires owning any of the games 2001, 2002/);
    assert.equal(response.headers.get('set-cookie'), null);
    assert.equal(response.headers.get('cache-control'), 'no-store');
    assert.equal(logins.length, 0);
  });

  it('require on: owning one of the games is enough', async () => {
    const { handler, logins } = setup({ ...byApiKey, require: true });
    const response = await handler(post(tokenOf(C.users.otherDeveloper)));
    assert.equal(response.status, 200);
    assert.deepEqual(logins[0]!.owns, { [STARFALL]: false, [LANTERN]: true });
  });

  it('require on: owners by purchase, claimed key and bundle all get in', async () => {
    const { handler, logins } = setup({ gameIds: [STARFALL], apiKey: DEVELOPER_KEY, require: true });
    for (const userId of [C.users.gamer, C.users.press, C.users.bundleOwner]) {
      assert.equal((await handler(post(tokenOf(userId)))).status, 200, `user ${userId}`);
    }
    assert.deepEqual(
      logins.map((login) => login.user.id),
      [C.users.gamer, C.users.press, C.users.bundleOwner],
    );
  });

  it("checks once per login, for that login's user: nothing is cached across users", async () => {
    const { handler, logins, calls } = setup({ gameIds: [STARFALL], apiKey: DEVELOPER_KEY });
    for (const userId of [C.users.gamer, C.users.newcomer, C.users.gamer]) await handler(post(tokenOf(userId)));
    const looked = calls
      .filter((call) => call.url.includes('/download_keys'))
      .map((call) => Number(new URL(call.url).searchParams.get('user_id')));
    assert.deepEqual(looked, [C.users.gamer, C.users.newcomer, C.users.gamer]);
    assert.deepEqual(
      logins.map((login) => login.owns?.[STARFALL]),
      [true, false, true],
    );
  });

  it('checks the games in parallel', async () => {
    let running = 0;
    let most = 0;
    const slow: FetchFunction = async (url, init) => {
      if (!url.includes('/download_keys')) return fetch(url, init);
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 150));
      running--;
      return fetch(url, init);
    };
    const { handler } = setup({ gameIds: [STARFALL, LANTERN, C.games.prototype], apiKey: DEVELOPER_KEY }, { fetch: slow });
    const started = performance.now();
    assert.equal((await handler(post(tokenOf(C.users.gamer)))).status, 200);
    assert.equal(most, 3);
    assert.ok(performance.now() - started < 3 * 150, 'three checks of 150 ms took less than 450 ms');
  });

  it('a download key of another player or another game is not ownership', async () => {
    for (const [label, change] of [
      ['another player', (key: { owner?: { id: number } }) => void (key.owner = { ...key.owner, id: C.users.gamer + 1 } as { id: number })],
      ['another game', (key: { game_id: number }) => void (key.game_id = LANTERN)],
      ['no owner (bought without an account)', (key: { owner?: unknown }) => void delete key.owner],
    ] as const) {
      const forged: FetchFunction = async (url, init) => {
        const answer = await fetch(url, init);
        if (!url.includes('/download_keys')) return answer;
        const body = (await answer.json()) as { download_key: Record<string, unknown> };
        (change as (key: unknown) => void)(body.download_key);
        return Response.json(body, { status: answer.status });
      };
      const { handler, logins } = setup({ gameIds: [STARFALL], apiKey: DEVELOPER_KEY, require: true }, { fetch: forged });
      const { status, body } = await answer(await handler(post(tokenOf(C.users.gamer))));
      assert.equal(status, 403, label);
      assert.equal(body.code, 'not_owner', label);
      assert.equal(logins.length, 0, label);
    }
  });

  it('a game listed twice is checked once', async () => {
    const { handler, calls, logins } = setup({ gameIds: [STARFALL, STARFALL], apiKey: DEVELOPER_KEY });
    await handler(post(tokenOf(C.users.gamer)));
    assert.equal(calls.filter((call) => call.url.includes('/download_keys')).length, 1);
    assert.deepEqual(logins[0]!.owns, { [STARFALL]: true });
  });

  it('an API key that may not see the game is a 502 that says so, never "not owned"', async () => {
    const { handler, logins } = setup({ gameIds: [C.games.hollowSignal], apiKey: DEVELOPER_KEY });
    const { status, body } = await answer(await handler(post(tokenOf(C.users.gamer))));
    assert.equal(status, 502);
    assert.match(
      body.errors[0],
      /itch\.io refused the ownership check of game 2004 \(HTTP 403: you do not have edit access to this game\): ownership\.apiKey must be/,
    );
    assert.equal(body.code, undefined);
    assert.equal(logins.length, 0);
  });

  it('a revoked API key and an unknown game are 502s that say which option to fix', async () => {
    const revoked = setup({ gameIds: [STARFALL], apiKey: C.apiKeys.revoked });
    const first = await answer(await revoked.handler(post(tokenOf(C.users.gamer))));
    assert.equal(first.status, 502);
    assert.match(first.body.errors[0], /\(HTTP 401: invalid key\): ownership\.apiKey is not a live itch\.io API key/);
    const unknown = setup({ gameIds: [987654], apiKey: DEVELOPER_KEY });
    const second = await answer(await unknown.handler(post(tokenOf(C.users.gamer))));
    assert.equal(second.status, 502);
    assert.match(second.body.errors[0], /game 987654 \(HTTP 404: invalid game\): check ownership\.gameIds/);
    assert.equal(revoked.logins.length + unknown.logins.length, 0);
  });
});

describe("ownership with the player's token (game:view:ownership)", () => {
  const cases: [string, number, Record<number, boolean>][] = [
    ['owned by purchase', C.users.gamer, { [STARFALL]: true, [LANTERN]: false }],
    ['owned by claimed key', C.users.press, { [STARFALL]: true, [LANTERN]: false }],
    ['owned by bundle', C.users.bundleOwner, { [STARFALL]: true, [LANTERN]: true }],
    ['not owned', C.users.newcomer, { [STARFALL]: false, [LANTERN]: false }],
  ];
  for (const [name, userId, owns] of cases) {
    it(`${name}: the same answer as the API key's check`, async () => {
      const { handler, logins, calls } = setup({ gameIds: [STARFALL, LANTERN] });
      const token = tokenOf(userId, 'profile:me game:view:ownership');
      const { status, body } = await answer(await handler(post(token)));
      assert.equal(status, 200);
      assert.deepEqual(body.owns, owns);
      assert.deepEqual(logins[0]!.owns, owns);
      const checks = calls.filter((call) => call.url.endsWith('/ownership'));
      assert.equal(checks.length, 2);
      assert.ok(checks.every((call) => call.authorization === `Bearer ${token}`));
    });
  }

  it('a token without game:view:ownership is a configuration error that names the scope and the fix', async () => {
    const { handler, logins, calls } = setup({ gameIds: [STARFALL] });
    const { status, body } = await answer(await handler(post(tokenOf(C.users.gamer, 'profile:me'))));
    assert.equal(status, 403);
    assert.match(
      body.errors[0],
      /lacks the scope game:view:ownership, which the ownership check needs without ownership\.apiKey: ask for it in the login button's scope \(scope="profile:me game:view:ownership"\), or give ownership\.apiKey/,
    );
    assert.equal(body.code, undefined, 'not not_owner: nobody knows whether the user owns the game');
    assert.equal(logins.length, 0);
    assert.equal(calls.filter((call) => call.url.endsWith('/ownership')).length, 0);
  });

  it('the parent scope "game:view" is not required; "game:view:ownership" itself is', async () => {
    const { handler } = setup({ gameIds: [STARFALL], require: true });
    assert.equal((await handler(post(tokenOf(C.users.gamer, 'profile:me game:view:ownership')))).status, 200);
  });

  it('require on: a token of a user who owns none is refused 403 not_owner', async () => {
    const { handler, logins } = setup({ gameIds: [STARFALL], require: true });
    const { status, body } = await answer(await handler(post(tokenOf(C.users.newcomer, 'profile:me game:view:ownership'))));
    assert.equal(status, 403);
    assert.deepEqual(body, { errors: ['this login requires owning game 2001 on itch.io'], code: 'not_owner' });
    assert.equal(logins.length, 0);
  });

  it("a game of another developer than the application's is a 502 that points to ownership.apiKey", async () => {
    const { handler } = setup({ gameIds: [C.games.hollowSignal] });
    const { status, body } = await answer(await handler(post(tokenOf(C.users.gamer, 'profile:me game:view:ownership'))));
    assert.equal(status, 502);
    assert.match(body.errors[0], /only for games of the OAuth application's creator: give ownership\.apiKey/);
  });
});

describe('itch.io failing during the check', () => {
  const failures: [string, () => Promise<Response>, RegExp][] = [
    ['a network error', () => Promise.reject(new TypeError('fetch failed')), /could not check ownership of game \d+ \(network error\)/],
    [
      'an HTTP 500',
      () => Promise.resolve(new Response('<h1>oops</h1>', { status: 500 })),
      /could not check ownership of game \d+ \(HTTP 500\)/,
    ],
    ['HTTP 503 with errors', () => Promise.resolve(Response.json({ errors: ['maintenance'] }, { status: 503 })), /\(HTTP 503\)/],
    ['a 429', () => Promise.resolve(Response.json({ errors: ['rate limited'] }, { status: 429 })), /\(HTTP 429\)/],
    ['an answer of another shape', () => Promise.resolve(Response.json({ download_key: 'yes' })), /\(invalid response\)/],
  ];
  for (const check of ['apiKey', 'token'] as const) {
    for (const [name, fail, message] of failures) {
      for (const require of [false, true]) {
        it(`${check} check, ${name}, require ${require}: 502, no login`, async () => {
          const itch = recordingFetch((url) => (url.includes('/download_keys') || url.endsWith('/ownership') ? fail() : undefined));
          const { handler, logins } = setup(check === 'apiKey' ? { ...byApiKey, require } : { gameIds: [STARFALL, LANTERN], require }, {
            fetch: itch.fetch,
          });
          const token = tokenOf(C.users.gamer, 'profile:me game:view:ownership');
          const response = await handler(post(token));
          const { status, body, text } = await answer(response);
          assert.equal(status, 502);
          assert.match(body.errors[0], message);
          assert.equal(body.code, undefined);
          assert.equal(body.owns, undefined);
          assert.equal(response.headers.get('set-cookie'), null);
          assert.equal(logins.length, 0);
          assert.ok(!text.includes(token));
        });
      }
    }
  }

  it('one game failing fails the check even when another says "owned"', async () => {
    const itch = recordingFetch((url) => (url.includes(`/games/${LANTERN}/`) ? Promise.reject(new TypeError('fetch failed')) : undefined));
    const { handler, logins } = setup({ ...byApiKey, require: true }, { fetch: itch.fetch });
    assert.equal((await handler(post(tokenOf(C.users.gamer)))).status, 502);
    assert.equal(logins.length, 0);
  });

  it('the first failure stops the other checks at once, without waiting for the timeout', async () => {
    const aborted: string[] = [];
    const mixed: FetchFunction = (url, init) => {
      if (url.includes(`/games/${LANTERN}/`)) return Promise.reject(new TypeError('fetch failed'));
      if (!url.includes('/download_keys')) return fetch(url, init);
      return new Promise((_, reject) => {
        init.signal?.addEventListener('abort', () => {
          aborted.push(url);
          reject(init.signal?.reason);
        });
      });
    };
    const { handler } = setup(byApiKey, { fetch: mixed, timeoutMs: 5_000 });
    const started = performance.now();
    assert.equal((await handler(post(tokenOf(C.users.gamer)))).status, 502);
    assert.ok(performance.now() - started < 1_000, 'answered long before the 5 s timeout');
    assert.equal(aborted.length, 1);
  });

  it('no answer within the handler timeout: 502 after timeoutMs, and the other checks are stopped', async () => {
    const aborted: string[] = [];
    const hanging: FetchFunction = (url, init) => {
      if (!url.includes('/download_keys')) return fetch(url, init);
      return new Promise((_, reject) => {
        init.signal?.addEventListener('abort', () => {
          aborted.push(url);
          reject(init.signal?.reason);
        });
      });
    };
    const { handler, logins } = setup(byApiKey, { fetch: hanging, timeoutMs: 300 });
    const started = performance.now();
    const { status, body } = await answer(await handler(post(tokenOf(C.users.gamer))));
    const elapsed = performance.now() - started;
    assert.equal(status, 502);
    assert.match(body.errors[0], /\(timeout\)/);
    assert.ok(elapsed >= 290 && elapsed < 1500, `answered after ${Math.round(elapsed)} ms`);
    assert.equal(aborted.length, 2, 'both hanging calls were ended');
    assert.equal(logins.length, 0);
  });
});

describe('the ownership option is checked at construction', () => {
  const make = (ownership: unknown) => () =>
    createTokenHandler({ applicationId: 1, onLogin: () => undefined, ownership: ownership as TokenHandlerOptions['ownership'] });
  const bad: [string, unknown, RegExp][] = [
    ['null', null, /^ownership must be an object/],
    ['a list', [STARFALL], /^ownership must be an object/],
    ['no gameIds', {}, /^ownership\.gameIds must be an array of itch\.io game ids, got undefined/],
    ['one id instead of a list', { gameIds: STARFALL }, /^ownership\.gameIds must be an array of itch\.io game ids, got number/],
    ['a string', { gameIds: '2001' }, /^ownership\.gameIds must be an array of itch\.io game ids, got string/],
    ['an empty list', { gameIds: [] }, /^ownership\.gameIds must list at least one/],
    ['a string id', { gameIds: [STARFALL, '2002'] }, /^ownership\.gameIds\[1\] must be a positive integer game id, got string/],
    ['zero', { gameIds: [0] }, /^ownership\.gameIds\[0\] must be a positive integer game id, got 0/],
    ['a negative id', { gameIds: [-3] }, /got -3/],
    ['a fraction', { gameIds: [2.5] }, /got 2\.5/],
    ['NaN', { gameIds: [Number.NaN] }, /got NaN/],
    ['an unsafe integer', { gameIds: [2 ** 53] }, /ownership\.gameIds\[0\] must be a positive integer/],
    ['require as a string', { gameIds: [STARFALL], require: 'yes' }, /^ownership\.require must be a boolean/],
    ['a misspelt option', { gameId: [STARFALL] }, /^ownership has no option gameId \(it takes gameIds, apiKey, require\)/],
    ['an empty apiKey', { gameIds: [STARFALL], apiKey: '' }, /^ownership\.apiKey must be a non-empty string/],
    ['a numeric apiKey', { gameIds: [STARFALL], apiKey: 12345 }, /^ownership\.apiKey must be a non-empty string/],
  ];
  for (const [name, ownership, message] of bad) {
    it(`${name}: TypeError naming the option`, () => {
      assert.throws(make(ownership), (error: unknown) => error instanceof TypeError && message.test(error.message));
    });
  }

  it('an apiKey with whitespace is refused without showing it', () => {
    const key = 'secret key with spaces 0123456789';
    assert.throws(make({ gameIds: [STARFALL], apiKey: key }), (error: unknown) => {
      assert.ok(error instanceof TypeError);
      assert.match(error.message, /^ownership\.apiKey must be visible ASCII/);
      assert.ok(!error.message.includes('secret'), error.message);
      return true;
    });
  });

  it('good options are accepted, and no call is made before a login', () => {
    const itch = recordingFetch();
    createTokenHandler({
      applicationId: 1,
      onLogin: () => undefined,
      fetch: itch.fetch,
      ownership: { gameIds: [STARFALL], apiKey: DEVELOPER_KEY, require: true },
    });
    assert.equal(itch.calls.length, 0);
  });
});

describe('the API key never leaves the server', () => {
  const consoleMethods = ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const;
  let logged: string[];
  beforeEach(() => {
    logged = [];
    for (const method of consoleMethods) {
      mock.method(console, method, (...args: unknown[]) => {
        logged.push(
          args
            .map((arg) =>
              arg instanceof Error
                ? `${arg.message}\n${arg.stack}\n${String(arg.cause)}`
                : typeof arg === 'string'
                  ? arg
                  : JSON.stringify(arg),
            )
            .join(' '),
        );
      });
    }
  });
  afterEach(() => mock.restoreAll());

  it('is in no answer, header, log line or error of any outcome; itch.io alone receives it, in the Authorization header', async () => {
    const texts: string[] = [];
    const record = async (response: Response): Promise<void> => {
      texts.push(String(response.status), JSON.stringify([...response.headers]), await response.text());
    };
    const secretCalls: Call[] = [];
    // itch.io answering the way it should not: echoing the key in an error message.
    const echoing = recordingFetch((url) =>
      url.includes(`/games/${LANTERN}/download_keys`)
        ? Promise.resolve(Response.json({ errors: [`bad key ${DEVELOPER_KEY}`] }, { status: 400 }))
        : undefined,
    );
    const scenarios: [TokenHandlerOptions['ownership'], Partial<TokenHandlerOptions>, number][] = [
      [byApiKey, {}, C.users.gamer], // owned
      [{ ...byApiKey, require: true }, {}, C.users.newcomer], // not_owner
      [
        byApiKey,
        {
          fetch: recordingFetch((url) =>
            url.includes('download_keys') ? Promise.reject(new TypeError(`connect ECONNREFUSED ${DEVELOPER_KEY}`)) : undefined,
          ).fetch,
        },
        C.users.gamer,
      ], // down
      [
        byApiKey,
        {
          fetch: recordingFetch((url) =>
            url.includes('download_keys') ? Promise.resolve(new Response(`Bad gateway ${DEVELOPER_KEY}`, { status: 502 })) : undefined,
          ).fetch,
        },
        C.users.gamer,
      ],
      [byApiKey, { fetch: echoing.fetch }, C.users.gamer], // itch.io echoes the key
      [{ gameIds: [C.games.hollowSignal], apiKey: DEVELOPER_KEY }, {}, C.users.gamer], // no access
      [{ gameIds: [STARFALL], apiKey: C.apiKeys.revoked }, {}, C.users.gamer], // revoked key
      [
        byApiKey,
        {
          timeoutMs: 200,
          fetch: (url, init) =>
            url.includes('download_keys')
              ? new Promise((_, reject) => init.signal?.addEventListener('abort', () => reject(init.signal?.reason)))
              : fetch(url, init),
        },
        C.users.gamer,
      ], // timeout
    ];
    for (const [ownership, options, userId] of scenarios) {
      const { handler, logins, calls } = setup(ownership, options);
      const response = await handler(post(tokenOf(userId)));
      await record(response);
      texts.push(JSON.stringify(logins.map(({ request: _, ...login }) => login)));
      secretCalls.push(...calls.filter((call) => call.authorization?.includes(ownership!.apiKey!)));
      for (const call of calls) assert.ok(!call.url.includes(ownership!.apiKey!), `the key is never in a URL: ${call.url}`);
    }
    secretCalls.push(...echoing.calls.filter((call) => call.authorization === `Bearer ${DEVELOPER_KEY}`));
    assert.ok(secretCalls.length > 0);
    assert.ok(
      secretCalls.every((call) => call.url.startsWith(`${emulator.apiUrl}/games/`) && call.url.includes('/download_keys?user_id=')),
    );

    const everything = texts.join('\n') + logged.join('\n');
    assert.ok(
      texts.some((text) => text.includes('not_owner')),
      'the scenarios cover a refusal',
    );
    assert.ok(
      texts.some((text) => text.includes('"owns"')),
      'the scenarios cover a login',
    );
    assert.ok(texts.filter((text) => text === '502').length >= 5, 'the scenarios cover itch.io failing');
    for (const key of [DEVELOPER_KEY, C.apiKeys.revoked]) assert.ok(!everything.includes(key), `the key appears in:\n${everything}`);
  });

  it('the player-token check never sends the API key, and a token check sends the token to itch.io only', async () => {
    const { handler, calls } = setup({ gameIds: [STARFALL] });
    const token = tokenOf(C.users.gamer, 'profile:me game:view:ownership');
    await handler(post(token));
    assert.ok(calls.every((call) => call.url.startsWith(emulator.apiUrl) && call.authorization === `Bearer ${token}`));
    assert.equal(logged.length, 0);
  });
});
