// The server's own origin is configuration, never the request's: the attacks of a review of
// examples/static-node deployed behind a TLS-ending proxy that passes `Host` through (as nginx's
// `proxy_set_header Host $host` does). A real proxy here: https on a self-signed certificate in
// front of the app on plain http, forwarding Host, Origin and Sec-Fetch-Site as the client sent
// them. Each attack is made as curl (any header) or as a browser that sends Fetch Metadata.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createHttpsServer, request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { getRequestListener } from '@hono/node-server';
import { createSessions, createTokenHandler, type Sessions } from '../../src/server/index.js';
import { clearingCookies } from '../../src/server/sessions/site-cookie.js';
import { dpopKey, dpopProof } from '../support/dpop.js';
import { fakeItch as fakeItchFor } from './support/fake-itch.js';

const SECRET = 'correct horse battery staple, 32+ characters long';
const TOKEN = 'ItchAccessToken0123456789abcdefghijklmno';
const GAME = 'https://html-classic.itch.zone';
const OTHER_FRAME = 'https://portal.example';
const user = { id: 1, username: 'leafo', url: 'https://leafo.itch.io', gamer: true, developer: true, press_user: false };
const fakeItch = fakeItchFor(TOKEN, user);

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

let certDir: string;
let app: Server;
let proxy: Server;
/** The public origin, as browsers see it: the proxy's https address. */
let SITE: string;
let proxyPort: number;
let sessions: Sessions;
const warnings: string[] = [];

before(async () => {
  certDir = mkdtempSync(join(tmpdir(), 'itch-own-origin-'));
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=site.test'].concat([
      '-keyout',
      join(certDir, 'key.pem'),
      '-out',
      join(certDir, 'cert.pem'),
    ]),
    { stdio: 'ignore' },
  );
  // The app on plain http, as behind any proxy that ends TLS.
  let handle: (request: Request) => Promise<Response> = async () => new Response(null, { status: 503 });
  app = createServer(getRequestListener((request) => handle(request)));
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  const appPort = (app.address() as AddressInfo).port;
  // The proxy: https, passing the client's Host (and every other header) through.
  const tls = { key: readFileSync(join(certDir, 'key.pem')), cert: readFileSync(join(certDir, 'cert.pem')) };
  proxy = createHttpsServer(tls, (req, res) => {
    const forward = httpRequest({ host: '127.0.0.1', port: appPort, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyPort = (proxy.address() as AddressInfo).port;
  SITE = `https://site.test:${proxyPort}`;

  sessions = createSessions({ secrets: [SECRET], allowedOrigins: [GAME], origin: SITE });
  const handleToken = createTokenHandler({
    applicationId: 42,
    fetch: fakeItch,
    origin: SITE,
    // The handler lets a second framed origin collect; the sessions do not list it.
    allowedOrigins: [GAME, OTHER_FRAME],
    onLogin: sessions.onLogin,
    onError: () => undefined,
  });
  const save = sessions.route({ allow: ['cookie'] }, async (_request, session) => Response.json({ saved: session.user.id }));
  handle = async (request) => {
    const { pathname } = new URL(request.url);
    if (pathname === '/auth/itch') return handleToken(request);
    if (pathname === '/logout') return sessions.logout(request);
    if (pathname === '/save') return save(request);
    if (pathname === '/me') {
      const session = await sessions.get(request);
      return session === undefined ? new Response(null, { status: 401 }) : Response.json({ id: session.user.id });
    }
    return new Response('not found', { status: 404 });
  };
});
after(async () => {
  for (const server of [proxy, app]) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  rmSync(certDir, { recursive: true, force: true });
});

/** A request through the proxy, as curl sends it: any Host, any header. */
function curl(
  path: string,
  { method = 'GET', headers = {}, body }: { method?: string; headers?: Record<string, string>; body?: string } = {},
) {
  return new Promise<Answer>((resolve, reject) => {
    const req = httpsRequest(
      {
        host: '127.0.0.1',
        port: proxyPort,
        path,
        method,
        headers: { Host: `site.test:${proxyPort}`, ...headers },
        rejectUnauthorized: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The token POSTed with these headers. */
const login = (headers: Record<string, string>) =>
  curl('/auth/itch', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify({ access_token: TOKEN }),
  });

const cookieNames = (answer: Answer) => (answer.headers['set-cookie'] ?? []).map((line) => line.split('=', 1)[0]);

/** A game's DPoP proof (RFC 9449) of `POST url`, by a new key. */
const loginProof = async (url: string) => dpopProof(await dpopKey(), 'POST', url);

describe('behind a TLS-ending proxy that passes Host through', () => {
  it('a login from the real https page gets __Host-itch-session, Secure, and no plain cookie', async () => {
    const answer = await login({ Origin: SITE, 'Sec-Fetch-Site': 'same-origin' });
    assert.equal(answer.status, 200, answer.body);
    assert.deepEqual(cookieNames(answer), ['__Host-itch-session']);
    assert.match(answer.headers['set-cookie']![0]!, /; Secure/);
  });

  it('no request, whatever its Host, Origin and Sec-Fetch-Site, gets a plain itch-session cookie', async () => {
    const hosts = [`site.test:${proxyPort}`, 'site.test', 'attacker.example', '127.0.0.1', 'localhost:3000'];
    for (const host of hosts) {
      const origins = [null, `http://${host}`, `https://${host}`, `http://site.test:${proxyPort}`, SITE];
      for (const origin of origins) {
        for (const site of [null, 'same-origin', 'cross-site']) {
          const headers: Record<string, string> = { Host: host };
          if (origin !== null) headers['Origin'] = origin;
          if (site !== null) headers['Sec-Fetch-Site'] = site;
          const answer = await login(headers);
          const what = `Host ${host}, Origin ${origin}, Sec-Fetch-Site ${site}: ${answer.status} ${cookieNames(answer).join(',')}`;
          assert.ok(!cookieNames(answer).includes('itch-session'), what);
          // The only cookie anyone gets is the __Host- one, for a login from the site's own origin.
          if (cookieNames(answer).length > 0) assert.equal(origin, SITE, what);
        }
      }
    }
  });

  it('the https deployment reads no plain cookie, even a validly sealed one (as a loopback deployment of the same secret makes)', async () => {
    const local = createSessions({ secrets: [SECRET], origin: 'http://127.0.0.1:3000' });
    const minted = await local.onLogin({
      user,
      scopes: ['profile:me'],
      token: TOKEN,
      startedFrom: 'http://127.0.0.1:3000',
      request: new Request('http://127.0.0.1:3000/auth/itch'),
    });
    const plain = new Headers((minted as { headers: HeadersInit }).headers).get('set-cookie')!.split(';')[0]!;
    assert.match(plain, /^itch-session=/);
    assert.ok(await local.get(new Request('http://127.0.0.1:3000/me', { headers: { Cookie: plain } })), 'control: valid where it was made');
    for (const host of [`site.test:${proxyPort}`, 'site.test', '127.0.0.1:3000']) {
      assert.equal((await curl('/me', { headers: { Host: host, Cookie: plain } })).status, 401, host);
    }
    // The same value under the __Host- name was sealed as plain: refused too.
    assert.equal((await curl('/me', { headers: { Cookie: `__Host-${plain}` } })).status, 401);
  });

  it("a cookie route's POST from the plain-http twin or any cross-site page does not count the cookie", async () => {
    const cookie = (await login({ Origin: SITE, 'Sec-Fetch-Site': 'same-origin' })).headers['set-cookie']![0]!.split(';')[0]!;
    const save = (headers: Record<string, string>) => curl('/save', { method: 'POST', headers: { Cookie: cookie, ...headers } });
    assert.equal((await save({ Origin: SITE, 'Sec-Fetch-Site': 'same-origin' })).status, 200, 'control: the site itself');
    assert.equal((await save({ Origin: SITE })).status, 200, 'control: a browser without Fetch Metadata');
    // Firefox, from http://site.test: Origin is the twin's, Fetch Metadata says cross-site (or same-site).
    for (const site of ['cross-site', 'same-site', null]) {
      const headers: Record<string, string> = { Origin: `http://site.test:${proxyPort}` };
      if (site !== null) headers['Sec-Fetch-Site'] = site;
      assert.equal((await save(headers)).status, 401, `http twin, Sec-Fetch-Site ${site}`);
    }
    // Sec-Fetch-Site decides when present, whatever Origin says.
    assert.equal((await save({ Origin: SITE, 'Sec-Fetch-Site': 'cross-site' })).status, 401);
    assert.equal((await save({ Origin: SITE, 'Sec-Fetch-Site': 'same-site' })).status, 401);
    // A Host of the attacker's choosing with a matching Origin changes nothing.
    assert.equal((await save({ Host: 'attacker.example', Origin: 'http://attacker.example' })).status, 401);
  });

  it('game tokens are issued by and for the configured origin, whatever Host the login came with', async () => {
    // The game's proof names the site's public address; one for the Host the request came with is refused.
    const headers = { Host: 'attacker.example', Origin: GAME, 'Sec-Fetch-Site': 'cross-site' };
    const wrong = await login({ ...headers, DPoP: await loginProof('https://attacker.example/auth/itch') });
    assert.equal(wrong.status, 401, wrong.body);
    const answer = await login({ ...headers, DPoP: await loginProof(`${SITE}/auth/itch`) });
    assert.equal(answer.status, 200, answer.body);
    const { gameToken } = JSON.parse(answer.body) as { gameToken: string };
    const claims = JSON.parse(Buffer.from(gameToken.split('.')[1]!, 'base64url').toString()) as { iss: string; aud: string };
    assert.deepEqual([claims.iss, claims.aud], [SITE, SITE]);
  });

  it('logout clears the plain cookie for the host and each parent domain, where a sibling would have planted it', async () => {
    const answer = await curl('/logout', { method: 'POST', headers: { Origin: SITE, 'Sec-Fetch-Site': 'same-origin' } });
    assert.equal(answer.status, 204);
    const lines = answer.headers['set-cookie']!;
    assert.ok(lines.some((line) => /^__Host-itch-session=;.*Max-Age=0/.test(line)));
    assert.ok(
      lines.some((line) => /^itch-session=;.*Max-Age=0/.test(line) && !/Domain/.test(line)),
      'host-only',
    );
    assert.ok(
      lines.some((line) => /^itch-session=;.*Domain=site\.test/.test(line) && /Max-Age=0/.test(line)),
      'Domain=site.test',
    );
    assert.deepEqual(
      clearingCookies('https://play.games.example.com').map((line) => /Domain=([^;]+)/.exec(line)?.[1] ?? 'host-only'),
      ['host-only', 'host-only', 'play.games.example.com', 'games.example.com', 'example.com'],
    );
  });
});

describe('sessions fail closed on where a login started', () => {
  it('a login started from an origin the handler allows but the sessions do not list gets no session at all (403, logged)', async () => {
    const warn = console.warn;
    console.warn = (line: string) => void warnings.push(line);
    try {
      const answer = await login({ Origin: OTHER_FRAME, 'Sec-Fetch-Site': 'cross-site' });
      assert.equal(answer.status, 403, answer.body);
      assert.deepEqual(cookieNames(answer), []);
      assert.equal(JSON.parse(answer.body).gameToken, undefined);
      assert.match(warnings.join('\n'), /started from https:\/\/portal\.example gets no session/);
    } finally {
      console.warn = warn;
    }
  });

  it('a login from the site gets the cookie, from a listed game or confirmed by code (null) a game token', async () => {
    const context = (startedFrom: string | null) => ({
      user,
      scopes: ['profile:me'],
      token: TOKEN,
      startedFrom,
      request: new Request('http://anything.example/auth/itch', { method: 'POST', headers: { DPoP: proofs.shift()! } }),
    });
    const proofs = [await loginProof(`${SITE}/auth/itch`), await loginProof(`${SITE}/auth/itch`), await loginProof(`${SITE}/auth/itch`)];
    const site = await sessions.onLogin(context(SITE));
    assert.match(new Headers((site as { headers: HeadersInit }).headers).get('set-cookie')!, /^__Host-itch-session=/);
    for (const from of [GAME, null]) {
      const answer = (await sessions.onLogin(context(from))) as Response;
      assert.equal(answer.status, 200);
      assert.equal(answer.headers.get('set-cookie'), null);
      assert.ok(((await answer.json()) as { gameToken?: string }).gameToken);
    }
  });
});

describe('without origin', () => {
  it('serves loopback (local development) and refuses any other address, naming the option', async () => {
    const local = createTokenHandler({ applicationId: 42, fetch: fakeItch, onLogin: () => undefined, onError: () => undefined });
    const post = (url: string, origin: string) =>
      local(
        new Request(url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Origin: origin },
          body: JSON.stringify({ access_token: TOKEN }),
        }),
      );
    assert.equal((await post('http://127.0.0.1:3000/auth/itch', 'http://127.0.0.1:3000')).status, 200);
    assert.equal((await post('http://localhost:3000/auth/itch', 'http://localhost:3000')).status, 200);
    const elsewhere = await post('http://site.test/auth/itch', 'http://site.test');
    assert.equal(elsewhere.status, 500);
    assert.match(await elsewhere.text(), /no origin option.*origin: 'https:\/\/example\.com'/);
    const bare = createSessions({ secrets: [SECRET] });
    assert.equal((await bare.logout(new Request('http://site.test/logout', { method: 'POST' }))).status, 500);
    await assert.rejects(bare.get(new Request('http://site.test/me')), /no origin option/);
  });

  it('refuses a malformed origin at creation', () => {
    for (const origin of ['site.test', 'https://site.test/path', 'ftp://site.test', '']) {
      assert.throws(() => createTokenHandler({ applicationId: 42, origin, onLogin: () => undefined }), TypeError, origin);
      assert.throws(() => createSessions({ secrets: [SECRET], origin }), TypeError, origin);
    }
  });
});
