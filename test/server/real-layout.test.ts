// The layout of the real itch.io, proven against stand-ins on loopback: api.itch.io answers
// /credentials/info and /profile at its root, nothing under /api/; and a credential never
// reaches a host it was not configured for, even when itch.io answers with a redirect
// (https://github.com/itchio/itch.io/issues/1816: /api/1/KEY/me redirected to api.itch.io/me).
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createItchClient, createTokenHandler, ItchApiError, type LoginContext } from '../../src/server/index.js';

const TOKEN = 'realLayoutToken0000000000000000000000001';
const USER = {
  id: 7,
  username: 'leafo',
  display_name: 'leafo',
  url: 'https://leafo.itch.io',
  gamer: true,
  developer: true,
  press_user: false,
};

interface StandIn {
  origin: string;
  /** Method, path and Authorization header of every request it received. */
  requests: { path: string; authorization: string | undefined }[];
  close(): Promise<void>;
}

async function standIn(host: string, answer: (request: IncomingMessage, response: ServerResponse) => void): Promise<StandIn> {
  const requests: StandIn['requests'] = [];
  const server: Server = createServer((request, response) => {
    requests.push({ path: request.url ?? '', authorization: request.headers.authorization });
    answer(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${host}:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
}

/** api.itch.io as its OAuth documentation describes it: the token's endpoints at the root. */
function apiItchIo(request: IncomingMessage, response: ServerResponse): void {
  const authorized = request.headers.authorization === `Bearer ${TOKEN}`;
  if (request.url === '/credentials/info') {
    if (!authorized) return json(response, 401, { errors: ['invalid key'] });
    return json(response, 200, { type: 'key', scopes: ['profile:me'], oauth_application_id: 42 });
  }
  if (request.url === '/profile') {
    if (!authorized) return json(response, 401, { errors: ['invalid key'] });
    return json(response, 200, { user: USER });
  }
  json(response, 404, { errors: ['invalid api endpoint'] });
}

const post = (): Request =>
  new Request('http://127.0.0.1/auth/itch', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: 'http://127.0.0.1', 'Sec-Fetch-Site': 'same-origin' },
    body: JSON.stringify({ access_token: TOKEN }),
  });

describe('the handler against a stand-in that answers only at the real paths', () => {
  let api: StandIn;
  before(async () => {
    api = await standIn('127.0.0.1', apiItchIo);
  });
  after(() => api.close());

  it('logs the user in with only apiBaseUrl pointing at the stand-in', async () => {
    const logins: LoginContext[] = [];
    const handler = createTokenHandler({ apiBaseUrl: api.origin, applicationId: 42, onLogin: (login) => void logins.push(login) });
    const response = await handler(post());
    assert.equal(response.status, 200, await response.clone().text());
    assert.deepEqual(await response.json(), { user: USER });
    assert.equal(logins[0]?.user.username, 'leafo');
    assert.deepEqual(
      api.requests.map((request) => request.path),
      ['/credentials/info', '/profile'],
    );
    assert.ok(api.requests.every((request) => request.authorization === `Bearer ${TOKEN}`));
  });

  it('fails against the same stand-in with the layout of an /api prefix (baseUrl + /api), as every real login did before', async () => {
    const handler = createTokenHandler({ apiBaseUrl: `${api.origin}/api`, applicationId: 42, onLogin: () => undefined });
    const response = await handler(post());
    assert.equal(response.status, 401);
  });
});

describe('a credential never follows a redirect to another host', () => {
  let elsewhere: StandIn;
  let itch: StandIn;
  before(async () => {
    elsewhere = await standIn('127.0.0.2', (_request, response) => json(response, 200, { user: USER }));
    itch = await standIn('127.0.0.1', (request, response) => {
      response.writeHead(301, { Location: `${elsewhere.origin}${request.url?.replace(/^\/api\/1\/[^/]+/, '')}` }).end();
    });
  });
  after(async () => {
    await itch.close();
    await elsewhere.close();
  });

  for (const [name, credential] of [
    ['an API key as Bearer', { type: 'api-key', key: TOKEN }],
    ['an API key in the path', { type: 'api-key-in-path', key: TOKEN }],
  ] as const) {
    it(`fails with code redirect and sends nothing to the other host: legacy me() with ${name}`, async () => {
      const client = createItchClient({ baseUrl: itch.origin, credential });
      await assert.rejects(
        client.me(),
        (error: unknown) => error instanceof ItchApiError && error.code === 'redirect' && !error.message.includes(TOKEN),
      );
      assert.equal(elsewhere.requests.length, 0);
    });
  }

  it('fails with code redirect for the current API and the token handler answers 502', async () => {
    const client = createItchClient({ apiBaseUrl: itch.origin, credential: { type: 'oauth', accessToken: TOKEN } });
    await assert.rejects(client.profile(), (error: unknown) => error instanceof ItchApiError && error.code === 'redirect');
    const handler = createTokenHandler({ apiBaseUrl: itch.origin, applicationId: 42, onLogin: () => undefined });
    assert.equal((await handler(post())).status, 502);
    assert.equal(elsewhere.requests.length, 0);
    assert.ok(itch.requests.length >= 2);
  });
});
