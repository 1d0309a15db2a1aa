import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  createTokenHandler,
  type FetchFunction,
  type LoginContext,
  type OnLoginResult,
  type TokenHandlerOptions,
} from '../../src/server/index.js';

const TOKEN = 'GoodAccessToken0123456789';
const APP = 'https://game.example';
const ENDPOINT = `${APP}/auth/itch`;
const user = { id: 1, username: 'leafo', url: 'https://leafo.itch.io', gamer: true, developer: true, press_user: false };

interface FakeItch {
  /** credentials/info of the good token. */
  info?: unknown;
  /** What every request gets instead, e.g. a network failure. */
  fail?: () => Promise<Response>;
}

/** A stand-in for itch.io that knows one token, recording the URLs it is asked. */
function fakeItch({ info = { type: 'key', scopes: ['profile:me'], oauth_application_id: 42 }, fail }: FakeItch = {}) {
  const paths: string[] = [];
  const fetch: FetchFunction = async (url, init) => {
    paths.push(url);
    if (fail !== undefined) return fail();
    if (new Headers(init.headers).get('authorization') !== `Bearer ${TOKEN}`) return json({ errors: ['invalid key'] }, 401);
    if (url === 'https://api.itch.io/credentials/info') return json(info);
    if (url === 'https://api.itch.io/profile') return json({ user });
    return json({ errors: ['invalid api endpoint'] }, 404);
  };
  return { fetch, paths };
}

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** A handler over a fake itch.io, with an onLogin that records its calls. */
function setup(options: Partial<TokenHandlerOptions> & FakeItch & { result?: OnLoginResult } = {}) {
  const itch = fakeItch(options);
  const logins: LoginContext[] = [];
  const handler = createTokenHandler({
    applicationId: 42,
    origin: APP,
    fetch: itch.fetch,
    ...options,
    onLogin: (context) => {
      logins.push(context);
      return options.result;
    },
  });
  return { handler, logins, paths: itch.paths };
}

/** The browser's POST of the token, same-origin unless headers say otherwise. */
function post(
  body: BodyInit | null = JSON.stringify({ access_token: TOKEN }),
  headers: Record<string, string> = {},
  method = 'POST',
): Request {
  return new Request(ENDPOINT, {
    method,
    body: method === 'GET' ? null : body,
    headers: { 'Content-Type': 'application/json', Origin: APP, 'Sec-Fetch-Site': 'same-origin', ...headers },
    duplex: 'half',
  } as RequestInit);
}

/** Asserts an `{ errors: [message] }` answer that is not cached and does not echo the token. */
async function assertError(response: Response, status: number, message: RegExp): Promise<void> {
  const text = await response.text();
  assert.equal(response.status, status, text);
  assert.equal(response.headers.get('cache-control'), 'no-store');
  assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
  const body = JSON.parse(text) as { errors: unknown };
  assert.ok(Array.isArray(body.errors) && body.errors.length === 1 && typeof body.errors[0] === 'string', text);
  assert.match(body.errors[0] as string, message);
  assert.ok(!text.includes(TOKEN), 'the answer echoes the token');
}

describe('createTokenHandler: success', () => {
  it('asks https://api.itch.io/credentials/info and /profile, and nothing else, when given no URL option', async () => {
    const { handler, paths } = setup();
    assert.equal((await handler(post())).status, 200);
    assert.deepEqual(paths, ['https://api.itch.io/credentials/info', 'https://api.itch.io/profile']);
  });

  it('answers 200 with the user and calls onLogin with user, scopes, token and request', async () => {
    const { handler, logins, paths } = setup();
    const request = post();
    const response = await handler(request);
    const text = await response.text();
    assert.equal(response.status, 200);
    assert.deepEqual(JSON.parse(text), { user });
    assert.ok(!text.includes(TOKEN));
    assert.deepEqual(paths, ['https://api.itch.io/credentials/info', 'https://api.itch.io/profile']);
    assert.equal(logins.length, 1);
    assert.deepEqual(logins[0]?.user, user);
    assert.deepEqual(logins[0]?.scopes, ['profile:me']);
    assert.equal(logins[0]?.token, TOKEN);
    assert.equal(logins[0]?.request, request);
  });

  it('adds the headers onLogin returns, every Set-Cookie included', async () => {
    const { handler } = setup({
      result: {
        headers: [
          ['Set-Cookie', 'sid=1; HttpOnly'],
          ['Set-Cookie', 'theme=dark'],
        ],
      },
    });
    const response = await handler(post());
    assert.equal(response.status, 200);
    assert.deepEqual(response.headers.getSetCookie(), ['sid=1; HttpOnly', 'theme=dark']);
    assert.equal(response.headers.get('cache-control'), 'no-store');
  });

  it('answers with the Response onLogin returns, its status and Set-Cookie kept', async () => {
    const own = new Response(JSON.stringify({ welcome: 'leafo' }), {
      status: 201,
      headers: { 'Set-Cookie': 'sid=2; HttpOnly; SameSite=Lax' },
    });
    const { handler } = setup({ result: own });
    const response = await handler(post());
    assert.equal(response.status, 201);
    assert.equal(response.headers.get('set-cookie'), 'sid=2; HttpOnly; SameSite=Lax');
    assert.equal(response.headers.get('cache-control'), 'no-store');
    assert.deepEqual(await response.json(), { welcome: 'leafo' });
  });

  it('accepts a required scope given by its parent scope', async () => {
    const { handler } = setup({ requiredScopes: 'profile:owned', info: { scopes: ['profile'], oauth_application_id: 42 } });
    assert.equal((await handler(post())).status, 200);
  });

  it('accepts a request without Origin or Sec-Fetch-Site, which no browser sends', async () => {
    const { handler } = setup();
    const request = new Request(ENDPOINT, {
      method: 'POST',
      body: JSON.stringify({ access_token: TOKEN }),
      headers: { 'Content-Type': 'application/json' },
    });
    assert.equal((await handler(request)).status, 200);
  });

  it('accepts a listed origin of another site', async () => {
    const { handler } = setup({ allowedOrigins: ['https://www.game.example/'] });
    const response = await handler(post(undefined, { Origin: 'https://www.game.example', 'Sec-Fetch-Site': 'same-site' }));
    assert.equal(response.status, 200);
  });
});

describe('createTokenHandler: refusals', () => {
  it('refuses a cross-origin POST with 403 before anything else', async () => {
    const { handler, logins, paths } = setup();
    await assertError(
      await handler(post(undefined, { Origin: 'https://evil.example' })),
      403,
      /origin "https:\/\/evil\.example" is not this site.s/,
    );
    assert.equal(paths.length + logins.length, 0);
  });

  it('refuses Sec-Fetch-Site: cross-site with 403', async () => {
    const { handler, logins, paths } = setup();
    const request = post(undefined, { 'Sec-Fetch-Site': 'cross-site' });
    request.headers.delete('origin');
    await assertError(await handler(request), 403, /Sec-Fetch-Site: cross-site/);
    assert.equal(paths.length + logins.length, 0);
  });

  it('refuses Sec-Fetch-Site: same-site when the origin is not listed', async () => {
    const { handler, paths } = setup();
    await assertError(await handler(post(undefined, { 'Sec-Fetch-Site': 'same-site' })), 403, /cross-site request refused/);
    assert.equal(paths.length, 0);
  });

  it('refuses another method with 405 and Allow: POST', async () => {
    const { handler, logins, paths } = setup();
    const response = await handler(post(null, {}, 'GET'));
    assert.equal(response.headers.get('allow'), 'POST');
    await assertError(response, 405, /method GET not allowed/);
    assert.equal(paths.length + logins.length, 0);
  });

  it('refuses another content type with 415', async () => {
    const { handler, logins, paths } = setup();
    await assertError(await handler(post(undefined, { 'Content-Type': 'text/plain' })), 415, /application\/json/);
    assert.equal(paths.length + logins.length, 0);
  });

  it('refuses a body over the limit with 413', async () => {
    const { handler, logins, paths } = setup();
    const body = JSON.stringify({ access_token: 'a'.repeat(5000) });
    await assertError(await handler(post(body)), 413, /larger than 4096 bytes/);
    assert.equal(paths.length + logins.length, 0);
  });

  it('refuses a body longer than its Content-Length claims with 413', async () => {
    const { handler, paths } = setup();
    const request = post(JSON.stringify({ access_token: 'a'.repeat(5000) }), { 'Content-Length': '40' });
    assert.equal(request.headers.get('content-length'), '40');
    await assertError(await handler(request), 413, /larger than/);
    assert.equal(paths.length, 0);
  });

  it('stops reading an endless chunked body and refuses it with 413', async () => {
    const { handler, paths } = setup();
    let pulls = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull: (controller) => {
        pulls += 1;
        controller.enqueue(new Uint8Array(1024).fill(0x61));
      },
    });
    await assertError(await handler(post(endless)), 413, /larger than/);
    assert.ok(pulls < 10, `read ${pulls} chunks`);
    assert.equal(paths.length, 0);
  });

  it('refuses a body that is not JSON with 400', async () => {
    const { handler, paths } = setup();
    await assertError(await handler(post('access_token=x')), 400, /not JSON/);
    assert.equal(paths.length, 0);
  });

  it('refuses a body without access_token with 400', async () => {
    const { handler, paths } = setup();
    await assertError(await handler(post('{}')), 400, /exactly \{"access_token": "<token>"\}/);
    assert.equal(paths.length, 0);
  });

  it('refuses a body with fields it does not know with 400', async () => {
    const { handler, paths } = setup();
    await assertError(await handler(post(JSON.stringify({ access_token: TOKEN, scope: 'x' }))), 400, /exactly/);
    await assertError(
      await handler(post(JSON.stringify({ access_token: TOKEN, state: 'x' }))),
      400,
      /state must be the state of a popup login/,
    );
    await assertError(await handler(post(JSON.stringify({ popup_verifier: 'short' }))), 400, /popup_verifier must be/);
    assert.equal(paths.length, 0);
  });

  it('refuses an empty access_token with 400', async () => {
    const { handler, paths } = setup();
    await assertError(await handler(post(JSON.stringify({ access_token: '' }))), 400, /access_token must be a string of 1 to 1024/);
    assert.equal(paths.length, 0);
  });

  it('refuses an access_token longer than any token with 400, even under a larger body limit', async () => {
    const { handler, paths } = setup({ maxBodyBytes: 65_536 });
    await assertError(await handler(post(JSON.stringify({ access_token: 'a'.repeat(5000) }))), 400, /access_token must be/);
    assert.equal(paths.length, 0);
  });

  it('refuses an access_token with characters a token cannot hold with 400', async () => {
    const { handler, paths } = setup();
    await assertError(await handler(post(JSON.stringify({ access_token: 'abc\r\nX-Injected: 1' }))), 400, /access_token must be/);
    assert.equal(paths.length, 0);
  });

  it('refuses a token itch.io does not know with 401, never reading the profile', async () => {
    const { handler, logins, paths } = setup();
    const response = await handler(post(JSON.stringify({ access_token: 'UnknownToken' })));
    assert.match(response.headers.get('www-authenticate') ?? '', /^Bearer/);
    await assertError(response, 401, /did not accept the access token/);
    assert.deepEqual(paths, ['https://api.itch.io/credentials/info']);
    assert.equal(logins.length, 0);
  });

  it('refuses a token without the profile:me scope with 403', async () => {
    const { handler, logins, paths } = setup({ info: { scopes: ['profile:games'], oauth_application_id: 42 } });
    await assertError(await handler(post()), 403, /lacks the required scope profile:me/);
    assert.deepEqual(paths, ['https://api.itch.io/credentials/info']);
    assert.equal(logins.length, 0);
  });

  it('refuses a token without a configured required scope with 403', async () => {
    const { handler, logins } = setup({ requiredScopes: ['profile:owned'] });
    await assertError(await handler(post()), 403, /lacks the required scope profile:owned/);
    assert.equal(logins.length, 0);
  });

  it('refuses a token issued to another OAuth application with 403', async () => {
    const { handler, logins, paths } = setup({ info: { scopes: ['profile:me'], oauth_application_id: 7 } });
    await assertError(await handler(post()), 403, /not issued to this application/);
    assert.deepEqual(paths, ['https://api.itch.io/credentials/info']);
    assert.equal(logins.length, 0);
  });

  it('refuses a token whose application itch.io does not name when applicationId is set', async () => {
    const { handler, logins } = setup({ info: { scopes: ['profile:me'] } });
    await assertError(await handler(post()), 403, /not issued to this application/);
    assert.equal(logins.length, 0);
  });

  it('answers 502 when itch.io cannot be reached', async () => {
    const { handler, logins } = setup({ fail: () => Promise.reject(new TypeError('fetch failed')) });
    await assertError(
      await handler(post()),
      502,
      /itch\.io could not verify the access token \(network error\) at https:\/\/api\.itch\.io$/,
    );
    assert.equal(logins.length, 0);
  });

  it('answers 502 when itch.io fails with a 5xx', async () => {
    const { handler, logins } = setup({ fail: async () => new Response('<h1>503</h1>', { status: 503 }) });
    await assertError(await handler(post()), 502, /HTTP 503/);
    assert.equal(logins.length, 0);
  });

  it('answers 502 when itch.io does not answer in time', async () => {
    const { handler, logins } = setup({ timeoutMs: 20, fail: () => new Promise<Response>(() => undefined) });
    await assertError(await handler(post()), 502, /timeout/);
    assert.equal(logins.length, 0);
  });
});

describe('createTokenHandler: configuration', () => {
  it('refuses an allowed origin that is not an origin', () => {
    assert.throws(() => setup({ allowedOrigins: ['https://game.example/login'] }), /not an http\(s\) origin/);
  });

  it('refuses a bad timeoutMs at creation, naming it, before any login', () => {
    for (const timeoutMs of [-5, 0, Number.NaN, '100']) {
      assert.throws(() => setup({ timeoutMs: timeoutMs as number }), /^TypeError: timeoutMs must be a positive number of milliseconds/);
    }
  });

  it('refuses every other malformed option at creation, naming it', () => {
    const bad: [Partial<TokenHandlerOptions>, RegExp][] = [
      [{ fetch: 'fetch' as never }, /^TypeError: fetch must be a function/],
      [{ store: {} as never }, /^TypeError: store must be an unstorage Storage/],
      [{ storeSetIfAbsent: { set: () => Promise.resolve(true) } as never }, /^TypeError: storeSetIfAbsent must be an object/],
      [{ requiredScopes: 42 as never }, /^TypeError: requiredScopes must be/],
      [{ maxBodyBytes: -1 }, /^TypeError: maxBodyBytes must be a positive integer/],
      [{ origin: 'https://example.com/path' }, /^TypeError: origin: /],
      [{ ownership: { gameIds: [] } }, /^TypeError: ownership\.gameIds must list at least one/],
      [{ popup: { severedOpener: 'ask' as never } }, /^TypeError: popup\.severedOpener must be/],
      [{ onError: 'log' as never }, /^TypeError: onError must be a function/],
    ];
    for (const [options, message] of bad) assert.throws(() => setup(options), message, JSON.stringify(options));
  });

  it('refuses an applicationId that is not a positive integer, or none', () => {
    for (const applicationId of [0, -1, 1.5, '7001', undefined]) {
      assert.throws(
        () => setup({ applicationId: applicationId as number }),
        /^TypeError: applicationId is required: the positive integer id of your itch\.io OAuth application/,
      );
    }
  });
});
