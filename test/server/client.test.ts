import assert from 'node:assert/strict';
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { createItchClient, ItchApiError, type FetchFunction, type ItchCredential } from '../../src/server/index.js';

const SECRET = 'Sekr3tKeyValue0123456789';
const user = {
  id: 29789,
  username: 'fasterthanlime',
  url: 'https://fasterthanlime.itch.io',
  gamer: true,
  developer: true,
  press_user: true,
};

interface Call {
  url: string;
  init: RequestInit;
}

/** A fetch that records its calls and answers with `answer`. */
function stubFetch(answer: (url: string) => Response | Promise<Response> = () => json({ user })): { fetch: FetchFunction; calls: Call[] } {
  const calls: Call[] = [];
  return {
    calls,
    fetch: async (url, init) => {
      calls.push({ url, init });
      return answer(url);
    },
  };
}

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

function authorization(call: Call | undefined): string | null {
  return new Headers(call?.init.headers).get('authorization');
}

/** Asserts an ItchApiError of `code` that shows the credential nowhere. */
function isApiError(code: string, check: (error: ItchApiError) => void = () => undefined) {
  return (error: unknown): boolean => {
    assert.ok(error instanceof ItchApiError, `expected an ItchApiError, got ${String(error)}`);
    assert.equal(error.code, code);
    assert.ok(!error.message.includes(SECRET), `the message shows the credential: ${error.message}`);
    assert.ok(!error.endpoint.includes(SECRET), `the endpoint shows the credential: ${error.endpoint}`);
    check(error);
    return true;
  };
}

describe('createItchClient: where each credential goes', () => {
  it('sends an api-key as a Bearer header under /api/1/key/', async () => {
    const stub = stubFetch();
    await createItchClient({ credential: { type: 'api-key', key: SECRET }, fetch: stub.fetch }).me();
    assert.equal(stub.calls[0]?.url, 'https://itch.io/api/1/key/me');
    assert.equal(authorization(stub.calls[0]), `Bearer ${SECRET}`);
  });

  it('puts an api-key-in-path in the path and sends no Authorization header', async () => {
    const stub = stubFetch();
    await createItchClient({ credential: { type: 'api-key-in-path', key: SECRET }, fetch: stub.fetch }).me();
    assert.equal(stub.calls[0]?.url, `https://itch.io/api/1/${SECRET}/me`);
    assert.equal(authorization(stub.calls[0]), null);
  });

  it('sends a JWT as a Bearer header under /api/1/jwt/', async () => {
    const stub = stubFetch(() => json({ games: [] }));
    await createItchClient({ credential: { type: 'jwt', token: 'a.b.c' }, fetch: stub.fetch }).myGames();
    assert.equal(stub.calls[0]?.url, 'https://itch.io/api/1/jwt/my-games');
    assert.equal(authorization(stub.calls[0]), 'Bearer a.b.c');
  });

  it('sends an OAuth token as a Bearer header to https://api.itch.io, without an /api prefix', async () => {
    const stub = stubFetch();
    await createItchClient({ credential: { type: 'oauth', accessToken: SECRET }, fetch: stub.fetch }).profile();
    assert.equal(stub.calls[0]?.url, 'https://api.itch.io/profile');
    assert.equal(authorization(stub.calls[0]), `Bearer ${SECRET}`);
  });

  it('sends an API key and a JWT as a Bearer header to the current API too', async () => {
    const key = stubFetch(() => json({ games: [] }));
    await createItchClient({ credential: { type: 'api-key', key: SECRET }, fetch: key.fetch }).profileGames();
    assert.equal(key.calls[0]?.url, 'https://api.itch.io/profile/games');
    assert.equal(authorization(key.calls[0]), `Bearer ${SECRET}`);
    const jwt = stubFetch();
    await createItchClient({ credential: { type: 'jwt', token: 'a.b.c' }, fetch: jwt.fetch }).profile();
    assert.equal(jwt.calls[0]?.url, 'https://api.itch.io/profile');
    assert.equal(authorization(jwt.calls[0]), 'Bearer a.b.c');
  });

  it('asks the current download_keys and purchases under /games/ID/ of apiBaseUrl', async () => {
    const stub = stubFetch((url) =>
      json(
        url.includes('download_keys')
          ? { download_key: { id: 1, key: 'k', game_id: 3, downloads: 0, created_at: '2014-02-28T00:25:09Z' } }
          : { purchases: {} },
      ),
    );
    const itch = createItchClient({ credential: { type: 'api-key', key: SECRET }, fetch: stub.fetch });
    await itch.gameDownloadKeys(3, { userId: 5 });
    assert.deepEqual(await itch.gamePurchases(3, { email: 'a@example.com' }), []);
    assert.deepEqual(
      stub.calls.map((call) => call.url),
      ['https://api.itch.io/games/3/download_keys?user_id=5', 'https://api.itch.io/games/3/purchases?email=a%40example.com'],
    );
  });

  it('asks wharf/latest without any credential, and reads a channel without a build as undefined', async () => {
    const stub = stubFetch((url) => json(url.includes('channel_name=windows') ? { latest: '1.2.3' } : {}));
    const itch = createItchClient({ credential: { type: 'api-key', key: SECRET }, fetch: stub.fetch });
    assert.equal(await itch.wharfLatest({ target: 'leafo/x-moon', channelName: 'windows' }), '1.2.3');
    assert.equal(await itch.wharfLatest({ target: 'leafo/x-moon', channelName: 'linux' }), undefined);
    assert.equal(stub.calls[0]?.url, 'https://api.itch.io/wharf/latest?target=leafo%2Fx-moon&channel_name=windows');
    assert.equal(authorization(stub.calls[0]), null);
    await assert.rejects(itch.wharfLatest({ target: 'x-moon', channelName: 'windows' }), TypeError);
  });

  it('asks credentials/info on apiBaseUrl, or on the legacy path for a key in the path', async () => {
    const urls: string[] = [];
    const credentials: ItchCredential[] = [
      { type: 'api-key', key: SECRET },
      { type: 'api-key-in-path', key: SECRET },
      { type: 'jwt', token: SECRET },
      { type: 'oauth', accessToken: SECRET },
    ];
    for (const credential of credentials) {
      const stub = stubFetch(() => json({ scopes: ['profile:me'] }));
      await createItchClient({ credential, fetch: stub.fetch }).credentialsInfo();
      urls.push(stub.calls[0]?.url ?? '');
    }
    assert.deepEqual(urls, [
      'https://api.itch.io/credentials/info',
      `https://itch.io/api/1/${SECRET}/credentials/info`,
      'https://api.itch.io/credentials/info',
      'https://api.itch.io/credentials/info',
    ]);
  });

  it('keeps the path prefix of baseUrl and of apiBaseUrl', async () => {
    const stub = stubFetch();
    const itch = createItchClient({
      baseUrl: 'http://127.0.0.1:4824/itch/',
      apiBaseUrl: 'http://127.0.0.1:4824/itch/api/',
      credential: { type: 'api-key', key: SECRET },
      fetch: stub.fetch,
    });
    await itch.me();
    await itch.profile();
    assert.deepEqual(
      stub.calls.map((call) => call.url),
      ['http://127.0.0.1:4824/itch/api/1/key/me', 'http://127.0.0.1:4824/itch/api/profile'],
    );
  });

  it('refuses an apiBaseUrl that is not https, naming the option', () => {
    assert.throws(
      () => createItchClient({ apiBaseUrl: 'http://api.itch.io', credential: { type: 'api-key', key: SECRET } }),
      (error: unknown) => error instanceof TypeError && /^apiBaseUrl must be https/.test(error.message),
    );
  });

  it('sends the download_keys lookup as query parameters', async () => {
    const stub = stubFetch(() => json({ download_key: { id: 1, key: 'k', game_id: 3, downloads: 0, created_at: '2014-02-28 00:25:09' } }));
    await createItchClient({ credential: { type: 'api-key', key: SECRET }, fetch: stub.fetch }).downloadKeys(3, {
      downloadKey: 'YWKse5',
      email: 'a@example.com',
    });
    assert.equal(stub.calls[0]?.url, 'https://itch.io/api/1/key/game/3/download_keys?download_key=YWKse5&email=a%40example.com');
  });

  it('sends the purchases lookup as query parameters', async () => {
    const stub = stubFetch(() => json({ purchases: {} }));
    const purchases = await createItchClient({ credential: { type: 'api-key', key: SECRET }, fetch: stub.fetch }).purchases(3, {
      userId: 5,
    });
    assert.equal(stub.calls[0]?.url, 'https://itch.io/api/1/key/game/3/purchases?user_id=5');
    assert.deepEqual(purchases, []);
  });

  it('asks for a page of owned keys', async () => {
    const stub = stubFetch(() => json({ owned_keys: [], page: 2, per_page: 50 }));
    const page = await createItchClient({ credential: { type: 'oauth', accessToken: SECRET }, fetch: stub.fetch }).profileOwnedKeys({
      page: 2,
    });
    assert.equal(stub.calls[0]?.url, 'https://api.itch.io/profile/owned-keys?page=2');
    assert.equal(page.page, 2);
  });

  it('reaches the game ownership and claimed-rewards endpoints', async () => {
    const stub = stubFetch((url) => json(url.endsWith('/ownership') ? { owns: true } : { claimed_rewards: {} }));
    const itch = createItchClient({ credential: { type: 'oauth', accessToken: SECRET }, fetch: stub.fetch });
    assert.deepEqual(await itch.gameOwnership(7), { owns: true });
    assert.deepEqual(await itch.gameClaimedRewards(7), []);
    assert.deepEqual(
      stub.calls.map((call) => call.url),
      ['https://api.itch.io/games/7/ownership', 'https://api.itch.io/games/7/claimed-rewards'],
    );
  });

  it('sends a GET that does not follow redirects', async () => {
    const stub = stubFetch();
    await createItchClient({ credential: { type: 'api-key', key: SECRET }, fetch: stub.fetch }).me();
    assert.equal(stub.calls[0]?.init.method, 'GET');
    assert.equal(stub.calls[0]?.init.redirect, 'manual');
  });
});

describe('createItchClient: checks before any request', () => {
  it('refuses a current-API method with a key in the path, which the current API does not take', async () => {
    const stub = stubFetch();
    const itch = createItchClient({ credential: { type: 'api-key-in-path', key: SECRET }, fetch: stub.fetch });
    await assert.rejects(itch.profile(), (error: unknown) => error instanceof TypeError && /use type "api-key"/.test(error.message));
    assert.equal(stub.calls.length, 0);
  });

  it('refuses a legacy /api/1/ method with an OAuth credential', async () => {
    const stub = stubFetch();
    const itch = createItchClient({ credential: { type: 'oauth', accessToken: SECRET }, fetch: stub.fetch });
    await assert.rejects(itch.purchases(3, { email: 'a@example.com' }), TypeError);
    assert.equal(stub.calls.length, 0);
  });

  it('refuses download_keys without a download_key, user_id or email', async () => {
    const stub = stubFetch();
    const itch = createItchClient({ credential: { type: 'api-key', key: SECRET }, fetch: stub.fetch });
    await assert.rejects(itch.downloadKeys(3, {}), /needs at least one of downloadKey, userId, email/);
    assert.equal(stub.calls.length, 0);
  });

  it('refuses purchases without an email or user_id', async () => {
    const stub = stubFetch();
    const itch = createItchClient({ credential: { type: 'api-key', key: SECRET }, fetch: stub.fetch });
    await assert.rejects(itch.purchases(3, { downloadKey: 'k' } as never), /needs at least one of email, userId/);
    assert.equal(stub.calls.length, 0);
  });

  it('refuses a game id that is not a positive safe integer', async () => {
    const stub = stubFetch();
    const itch = createItchClient({ credential: { type: 'oauth', accessToken: SECRET }, fetch: stub.fetch });
    for (const gameId of [0, -1, 1.5, Number.NaN, 2 ** 53, '3' as unknown as number]) {
      await assert.rejects(itch.gameOwnership(gameId), /gameId must be a positive integer/, `gameId ${String(gameId)}`);
    }
    assert.equal(stub.calls.length, 0);
  });

  it('refuses an e-mail address that is not one', async () => {
    const stub = stubFetch();
    const itch = createItchClient({ credential: { type: 'api-key', key: SECRET }, fetch: stub.fetch });
    await assert.rejects(itch.purchases(3, { email: 'not an address' }), /email must be an e-mail address/);
    assert.equal(stub.calls.length, 0);
  });

  it('refuses a key in the path that holds a path character, without showing it', () => {
    for (const key of [`${SECRET}/..`, `${SECRET}?x`, `${SECRET}#`, `${SECRET}%2F`]) {
      assert.throws(
        () => createItchClient({ credential: { type: 'api-key-in-path', key } }),
        (error: unknown) => error instanceof TypeError && !error.message.includes(SECRET),
      );
    }
  });

  it('refuses a credential holding whitespace, without showing it', () => {
    assert.throws(
      () => createItchClient({ credential: { type: 'api-key', key: `${SECRET} \n` } }),
      (error: unknown) => error instanceof TypeError && /visible ASCII/.test(error.message) && !error.message.includes(SECRET),
    );
  });

  it('refuses an unknown credential kind', () => {
    assert.throws(() => createItchClient({ credential: { type: 'password', key: SECRET } as never }), /credential.type must be one of/);
  });

  it('refuses a plain-http baseUrl that is not a loopback host', () => {
    assert.throws(
      () => createItchClient({ baseUrl: 'http://itch.io', credential: { type: 'api-key', key: SECRET } }),
      /baseUrl must be https/,
    );
  });
});

describe('createItchClient: failures', () => {
  it('throws an { errors } answer at HTTP 200 as an ItchApiError', async () => {
    const stub = stubFetch(() => json({ errors: ['invalid download key'] }));
    const itch = createItchClient({ credential: { type: 'api-key-in-path', key: SECRET }, fetch: stub.fetch });
    await assert.rejects(
      itch.downloadKeys(3, { downloadKey: 'nope' }),
      isApiError('api_error', (error) => {
        assert.deepEqual(error.errors, ['invalid download key']);
        assert.equal(error.status, 200);
        assert.equal(error.endpoint, '/api/1/KEY/game/3/download_keys');
      }),
    );
  });

  it('throws an { errors } answer at HTTP 4xx as an ItchApiError', async () => {
    const stub = stubFetch(() => json({ errors: ['invalid api endpoint'] }, 404));
    const itch = createItchClient({ credential: { type: 'oauth', accessToken: SECRET }, fetch: stub.fetch });
    await assert.rejects(
      itch.profileOwnedKeys(),
      isApiError('api_error', (error) => {
        assert.equal(error.status, 404);
        assert.equal(error.endpoint, '/profile/owned-keys');
        assert.match(error.message, /invalid api endpoint/);
      }),
    );
  });

  it('redacts the credential when itch.io echoes it in an error', async () => {
    const stub = stubFetch(() => json({ errors: [`invalid key ${SECRET}`] }, 401));
    const itch = createItchClient({ credential: { type: 'api-key-in-path', key: SECRET }, fetch: stub.fetch });
    await assert.rejects(
      itch.me(),
      isApiError('api_error', (error) => assert.deepEqual(error.errors, ['invalid key KEY'])),
    );
  });

  it('throws a 5xx without errors as an http_error with its status', async () => {
    const stub = stubFetch(() => new Response('<h1>Bad gateway</h1>', { status: 502, headers: { 'Content-Type': 'text/html' } }));
    const itch = createItchClient({ credential: { type: 'api-key', key: SECRET }, fetch: stub.fetch });
    await assert.rejects(
      itch.me(),
      isApiError('http_error', (error) => assert.equal(error.status, 502)),
    );
  });

  it('throws a body that is not JSON as an invalid_response', async () => {
    const stub = stubFetch(() => new Response('<html>maintenance</html>', { status: 200 }));
    const itch = createItchClient({ credential: { type: 'api-key', key: SECRET }, fetch: stub.fetch });
    await assert.rejects(
      itch.me(),
      isApiError('invalid_response', (error) => assert.match(error.message, /not JSON/)),
    );
  });

  it('throws JSON of an unexpected shape as an invalid_response naming the field', async () => {
    const stub = stubFetch(() => json({ user: { ...user, id: 'x' } }));
    const itch = createItchClient({ credential: { type: 'api-key', key: SECRET }, fetch: stub.fetch });
    await assert.rejects(
      itch.me(),
      isApiError('invalid_response', (error) => assert.match(error.message, /user\.id/)),
    );
  });

  it('says in English what was wrong with an unexpected body', async () => {
    const stub = stubFetch(() => json({ user: { ...user, id: 'x' } }));
    const itch = createItchClient({ credential: { type: 'api-key', key: SECRET }, fetch: stub.fetch });
    await assert.rejects(
      itch.me(),
      isApiError('invalid_response', (error) => assert.match(error.message, /expected number, received string/)),
    );
  });

  it('throws an errors field that is not a list of strings as an invalid_response', async () => {
    const stub = stubFetch(() => json({ errors: 'nope' }, 400));
    const itch = createItchClient({ credential: { type: 'api-key', key: SECRET }, fetch: stub.fetch });
    await assert.rejects(itch.me(), isApiError('invalid_response'));
  });

  it('does not follow a redirect, naming only the target origin', async () => {
    const stub = stubFetch(() => new Response(null, { status: 302, headers: { Location: `https://api.itch.io/${SECRET}/me` } }));
    const itch = createItchClient({ credential: { type: 'api-key-in-path', key: SECRET }, fetch: stub.fetch });
    await assert.rejects(
      itch.me(),
      isApiError('redirect', (error) => {
        assert.equal(error.status, 302);
        assert.match(error.message, /https:\/\/api\.itch\.io/);
      }),
    );
    assert.equal(stub.calls.length, 1);
  });

  it('throws a network failure as a network_error with its cause', async () => {
    const failure = new TypeError('fetch failed');
    const stub = stubFetch(() => Promise.reject(failure));
    const itch = createItchClient({ credential: { type: 'api-key', key: SECRET }, fetch: stub.fetch });
    await assert.rejects(
      itch.me(),
      isApiError('network_error', (error) => {
        assert.equal(error.status, 0);
        assert.equal(error.cause, failure);
      }),
    );
  });

  it('gives up on a fetch that never answers after timeoutMs', async () => {
    const stub = stubFetch(() => new Promise<Response>(() => undefined));
    const itch = createItchClient({ credential: { type: 'api-key', key: SECRET }, fetch: stub.fetch, timeoutMs: 20 });
    await assert.rejects(
      itch.me(),
      isApiError('timeout', (error) => assert.match(error.message, /within 20 ms/)),
    );
  });

  it('gives up on a body that never ends after the per-call timeoutMs', async () => {
    const endless = new ReadableStream<Uint8Array>({ start: (controller) => controller.enqueue(new TextEncoder().encode('{"user":')) });
    const stub = stubFetch(() => new Response(endless, { status: 200 }));
    const itch = createItchClient({ credential: { type: 'api-key', key: SECRET }, fetch: stub.fetch, timeoutMs: 60_000 });
    await assert.rejects(itch.me({ timeoutMs: 20 }), isApiError('timeout'));
  });

  it('aborts a pending call when the signal aborts', async () => {
    const stub = stubFetch(() => new Promise<Response>(() => undefined));
    const itch = createItchClient({ credential: { type: 'api-key', key: SECRET }, fetch: stub.fetch });
    const controller = new AbortController();
    const call = itch.me({ signal: controller.signal });
    controller.abort(new Error('user left'));
    await assert.rejects(
      call,
      isApiError('aborted', (error) => assert.match(String((error.cause as Error).message), /user left/)),
    );
  });

  it('passes an abort signal to fetch', async () => {
    const stub = stubFetch();
    await createItchClient({ credential: { type: 'api-key', key: SECRET }, fetch: stub.fetch }).me();
    assert.ok(stub.calls[0]?.init.signal instanceof AbortSignal);
  });

  it('sends nothing when the signal is already aborted', async () => {
    const stub = stubFetch();
    const itch = createItchClient({ credential: { type: 'api-key', key: SECRET }, fetch: stub.fetch });
    await assert.rejects(itch.me({ signal: AbortSignal.abort() }), isApiError('aborted'));
    assert.equal(stub.calls.length, 0);
  });
});

/** An HTTP server on 127.0.0.1 and a free port, counting the requests it gets. */
async function listen(listener: RequestListener): Promise<{ url: string; requests: () => number; close: () => Promise<void> }> {
  let requests = 0;
  const server = createServer((request, response) => {
    requests += 1;
    listener(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => requests,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

describe('createItchClient: over real HTTP with the global fetch', () => {
  it('never sends the credential to the host a redirect points to', async () => {
    const elsewhere = await listen((_request, response) => response.end(JSON.stringify({ user })));
    const itch = await listen((_request, response) => response.writeHead(302, { Location: `${elsewhere.url}/me` }).end());
    try {
      const client = createItchClient({ baseUrl: itch.url, credential: { type: 'api-key', key: SECRET } });
      await assert.rejects(client.me(), isApiError('redirect'));
      assert.equal(itch.requests(), 1);
      assert.equal(elsewhere.requests(), 0);
    } finally {
      await Promise.all([itch.close(), elsewhere.close()]);
    }
  });

  it('throws a refused connection as a network_error', async () => {
    const closed = await listen((_request, response) => response.end());
    await closed.close();
    const client = createItchClient({ baseUrl: closed.url, credential: { type: 'api-key-in-path', key: SECRET } });
    await assert.rejects(
      client.me(),
      isApiError('network_error', (error) => assert.equal(error.status, 0)),
    );
  });
});
