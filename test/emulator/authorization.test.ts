import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_SEED, DEFAULT_SEED_CREDENTIALS as C, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import {
  api,
  approve,
  authorizePath,
  fragmentOf,
  openAuthorization,
  submitConsent,
  testRecordedAnswersMatchSchemas,
  type AuthorizationParams,
} from './support.js';

const OOB = 'urn:ietf:wg:oauth:2.0:oob';
const LOOPBACK_CALLBACK = 'http://127.0.0.1:41999/callback.html';

const valid = (overrides: AuthorizationParams = {}): AuthorizationParams => ({
  client_id: C.clients.demo.clientId,
  redirect_uri: C.clients.demo.redirectUri,
  response_type: 'token',
  scope: 'profile:me',
  state: 'state-123',
  ...overrides,
});

let emulator: RunningEmulator;
let clock = new Date('2025-01-01T00:00:00Z');

before(async () => {
  emulator = await startEmulator({
    now: () => clock,
    extraRedirectUris: { [C.clients.demo.clientId]: [LOOPBACK_CALLBACK] },
  });
});
after(() => emulator.close());

describe('GET /user/oauth: a valid request', () => {
  test('shows the consent page with the application, a user picker, the scopes in plain words, Deny and Approve', async () => {
    const page = await openAuthorization(emulator, valid({ scope: 'profile:me game:view:ownership' }));
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(page.html, /<h1>Authorize <strong>Starfall Keep Companion<\/strong><\/h1>/);
    for (const user of DEFAULT_SEED.users) assert.match(page.html, new RegExp(`<option value="${user.id}">`));
    assert.match(page.html, /See your public profile: username, display name and avatar/);
    assert.match(page.html, /Check whether you own games made by Pixel Forge/);
    assert.match(page.html, /<button class="button" type="submit" name="decision" value="deny">Deny<\/button>/);
    assert.match(page.html, /<button class="button primary" type="submit" name="decision" value="approve">Approve<\/button>/);
    assert.match(page.requestId ?? '', /^[A-Za-z0-9_-]{43}$/);
  });

  test('is sent with no-store, no-referrer, a CSP without scripts, and framing refused', async () => {
    const page = await openAuthorization(emulator, valid());
    assert.equal(page.headers.get('cache-control'), 'no-store');
    assert.equal(page.headers.get('referrer-policy'), 'no-referrer');
    assert.equal(page.headers.get('x-frame-options'), 'DENY');
    assert.equal(page.headers.get('x-content-type-options'), 'nosniff');
    const csp = page.headers.get('content-security-policy') ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.doesNotMatch(csp, /script-src/);
    assert.match(csp, /style-src 'nonce-[^']+'/);
    const nonce = /style-src 'nonce-([^']+)'/.exec(csp)?.[1] ?? '';
    assert.ok(page.html.includes(`<style nonce="${nonce}">`), 'the inline style carries the CSP nonce');
    assert.equal(page.headers.get('cross-origin-opener-policy'), null, 'a login popup keeps its opener');
  });

  test('declares an inline icon its CSP allows, and answers /favicon.ico with 204', async () => {
    const page = await openAuthorization(emulator, valid());
    assert.match(page.headers.get('content-security-policy') ?? '', /img-src data:/);
    assert.match(page.html, /<link rel="icon" href="data:image\/svg\+xml,/);
    const favicon = await fetch(`${emulator.url}/favicon.ico`);
    assert.equal(favicon.status, 204);
  });

  test('sends Cross-Origin-Opener-Policy: same-origin with coop, as an authorization server may', async () => {
    const severing = await startEmulator({ coop: true });
    try {
      const page = await openAuthorization(severing, valid());
      assert.equal(page.status, 200);
      assert.equal(page.headers.get('cross-origin-opener-policy'), 'same-origin');
      assert.equal(page.headers.get('x-frame-options'), 'DENY');
    } finally {
      await severing.close();
    }
  });

  test('lets the consent form reach only its own origin and the redirect URI origin', async () => {
    const page = await openAuthorization(emulator, valid());
    assert.match(page.headers.get('content-security-policy') ?? '', /form-action 'self' http:\/\/127\.0\.0\.1:5173;/);
  });

  test('gets a new single-use form id on each visit', async () => {
    const first = await openAuthorization(emulator, valid());
    const second = await openAuthorization(emulator, valid());
    assert.notEqual(first.requestId, second.requestId);
  });
});

describe('GET /user/oauth: a bad request gets a 400 page and is never redirected', () => {
  const cases: [name: string, params: AuthorizationParams | string, reason: RegExp][] = [
    ['client_id missing', valid({ client_id: undefined }), /client_id is missing/],
    ['client_id unknown', valid({ client_id: 'no-such-client' }), /no OAuth application has the client_id &quot;no-such-client&quot;/],
    ['redirect_uri missing', valid({ redirect_uri: undefined }), /redirect_uri is missing/],
    ['redirect_uri with another port', valid({ redirect_uri: 'http://127.0.0.1:5174/callback.html' }), /does not match/],
    ['redirect_uri with a trailing slash', valid({ redirect_uri: 'http://127.0.0.1:5173/callback.html/' }), /does not match/],
    ['redirect_uri with an added query', valid({ redirect_uri: 'http://127.0.0.1:5173/callback.html?x=1' }), /does not match/],
    ['redirect_uri in another case', valid({ redirect_uri: 'HTTP://127.0.0.1:5173/Callback.html' }), /does not match/],
    ['redirect_uri of another application', valid({ redirect_uri: C.clients.other.redirectUri }), /does not match/],
    [
      'redirect_uri without its registered query',
      valid({ client_id: C.clients.other.clientId, redirect_uri: 'https://hollow-signal.example/oauth/callback' }),
      /does not match/,
    ],
    ['response_type missing', valid({ response_type: undefined }), /response_type is missing/],
    ['response_type=code', valid({ response_type: 'code' }), /response_type must be &quot;token&quot;, not &quot;code&quot;/],
    ['scope missing', valid({ scope: undefined }), /scope is missing or empty/],
    ['scope blank', valid({ scope: '   ' }), /scope is missing or empty/],
    ['scope unknown', valid({ scope: 'profile:me game:view:purchases' }), /unknown scope &quot;game:view:purchases&quot;/],
    [
      'a parameter repeated',
      `${authorizePath(valid())}&redirect_uri=${encodeURIComponent('https://evil.example/')}`,
      /the redirect_uri parameter is given more than once/,
    ],
  ];
  for (const [name, params, reason] of cases) {
    test(name, async () => {
      const page = await openAuthorization(emulator, params);
      assert.equal(page.status, 400);
      assert.equal(page.headers.get('location'), null);
      assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
      assert.match(page.html, /This login link is not valid/);
      assert.match(page.html, reason);
      assert.equal(page.requestId, undefined, 'no consent form');
    });
  }

  test('an unknown client_id is said as such, without blaming the redirect URI', async () => {
    const page = await openAuthorization(emulator, valid({ client_id: 'no-such-client' }));
    assert.match(page.html, /its client_id must be the Client ID of one of the emulator's OAuth applications/);
    assert.doesNotMatch(page.html, /redirect URI must match/);
  });

  test('a mismatching redirect URI page lists the registered ones and links to none', async () => {
    const page = await openAuthorization(emulator, valid({ redirect_uri: 'https://evil.example/steal' }));
    assert.equal(page.status, 400);
    assert.match(page.html, /<li><code>http:\/\/127\.0\.0\.1:5173\/callback\.html<\/code><\/li>/);
    assert.doesNotMatch(page.html, /href="https:\/\/evil/);
    assert.doesNotMatch(page.headers.get('content-security-policy') ?? '', /evil\.example/);
  });
});

describe('Approve', () => {
  test('redirects to the redirect URI with #access_token and state', async () => {
    const { location, token } = await approve(emulator, valid({ state: 'xyz' }), C.users.gamer);
    assert.ok(location.startsWith(`${C.clients.demo.redirectUri}#`), location);
    assert.deepEqual([...fragmentOf(location).keys()], ['access_token', 'state']);
    assert.equal(fragmentOf(location).get('state'), 'xyz');
    assert.match(token, /^[0-9a-f]{40}$/);
  });

  test('returns an unusual state exactly', async () => {
    const state = 'a b&c=d/é+%20#';
    const { location } = await approve(emulator, valid({ state }), C.users.gamer);
    assert.equal(fragmentOf(location).get('state'), state);
  });

  test('sends no state when none was sent', async () => {
    const { location } = await approve(emulator, valid({ state: undefined }), C.users.gamer);
    assert.deepEqual([...fragmentOf(location).keys()], ['access_token']);
  });

  test("keeps the redirect URI's query string", async () => {
    const { location } = await approve(
      emulator,
      valid({ client_id: C.clients.other.clientId, redirect_uri: C.clients.other.redirectUri, state: 's' }),
      C.users.gamer,
    );
    const url = new URL(location);
    assert.equal(`${url.origin}${url.pathname}${url.search}`, 'https://hollow-signal.example/oauth/callback?source=itch');
    assert.equal(url.searchParams.get('source'), 'itch');
    assert.ok(fragmentOf(location).get('access_token'));
  });

  test('works with a loopback redirect URI registered at start', async () => {
    const { location } = await approve(emulator, valid({ redirect_uri: LOOPBACK_CALLBACK }), C.users.press);
    assert.ok(location.startsWith(`${LOOPBACK_CALLBACK}#access_token=`));
  });

  test('issues a new API key carrying the granted scopes, bound to the user and the application', async () => {
    const { token } = await approve(emulator, valid({ scope: 'profile:me profile:owned profile:me' }), C.users.press);
    const info = await api(emulator, '/api/credentials/info', { bearer: token });
    assert.equal(info.status, 200);
    assert.deepEqual(info.body, { type: 'key', scopes: ['profile:me', 'profile:owned'], oauth_application_id: C.clients.demo.id });
    const profile = await api(emulator, '/api/profile', { bearer: token });
    assert.equal(profile.body.user.id, C.users.press);
  });

  test('issues a different token each time', async () => {
    const first = await approve(emulator, valid(), C.users.gamer);
    const second = await approve(emulator, valid(), C.users.gamer);
    assert.notEqual(first.token, second.token);
  });

  test('ignores redirect_uri, scope or client_id added to the form: they come from the checked request', async () => {
    const page = await openAuthorization(emulator, valid({ scope: 'profile:me', state: 'kept' }));
    const answer = await submitConsent(emulator, {
      request: page.requestId ?? '',
      decision: 'approve',
      user_id: String(C.users.gamer),
      redirect_uri: 'https://evil.example/',
      scope: 'profile',
      client_id: C.clients.other.clientId,
      state: 'forged',
    });
    assert.equal(answer.status, 302);
    assert.ok(answer.location?.startsWith(`${C.clients.demo.redirectUri}#`));
    assert.equal(fragmentOf(answer.location ?? '').get('state'), 'kept');
    const info = await api(emulator, '/api/credentials/info', { bearer: fragmentOf(answer.location ?? '').get('access_token') ?? '' });
    assert.deepEqual(info.body.scopes, ['profile:me']);
  });

  test('sends the redirect with no-store and no-referrer', async () => {
    const page = await openAuthorization(emulator, valid());
    const answer = await submitConsent(emulator, { request: page.requestId ?? '', decision: 'approve', user_id: String(C.users.gamer) });
    assert.equal(answer.status, 302);
    assert.equal(answer.headers.get('cache-control'), 'no-store');
    assert.equal(answer.headers.get('referrer-policy'), 'no-referrer');
  });

  test('refuses an unknown user', async () => {
    const page = await openAuthorization(emulator, valid());
    const answer = await submitConsent(emulator, { request: page.requestId ?? '', decision: 'approve', user_id: '424242' });
    assert.equal(answer.status, 400);
    assert.equal(answer.location, null);
    assert.match(answer.html, /Unknown user/);
  });
});

describe('the consent form', () => {
  test('can be used once', async () => {
    const page = await openAuthorization(emulator, valid());
    const form = { request: page.requestId ?? '', decision: 'approve', user_id: String(C.users.gamer) };
    assert.equal((await submitConsent(emulator, form)).status, 302);
    const again = await submitConsent(emulator, form);
    assert.equal(again.status, 400);
    assert.equal(again.location, null);
    assert.match(again.html, /This authorization form has expired/);
  });

  test('expires after 10 minutes', async () => {
    const page = await openAuthorization(emulator, valid());
    clock = new Date(clock.getTime() + 10 * 60 * 1000);
    const answer = await submitConsent(emulator, { request: page.requestId ?? '', decision: 'approve', user_id: String(C.users.gamer) });
    assert.equal(answer.status, 400);
    assert.equal(answer.location, null);
  });

  test('is refused with an unknown id', async () => {
    const answer = await submitConsent(emulator, { request: 'made-up', decision: 'approve', user_id: String(C.users.gamer) });
    assert.equal(answer.status, 400);
    assert.equal(answer.location, null);
  });

  test('is refused when posted from another site, and issues nothing', async () => {
    const keysBefore = emulator.store.apiKeys.length;
    const page = await openAuthorization(emulator, valid());
    const answer = await submitConsent(
      emulator,
      { request: page.requestId ?? '', decision: 'approve', user_id: String(C.users.gamer) },
      'https://evil.example',
    );
    assert.equal(answer.status, 403);
    assert.equal(answer.location, null);
    assert.match(answer.html, /The form was not sent from this page/);
    assert.equal(emulator.store.apiKeys.length, keysBefore);
  });

  test('is refused without Approve or Deny', async () => {
    const page = await openAuthorization(emulator, valid());
    const answer = await submitConsent(emulator, { request: page.requestId ?? '', decision: 'maybe', user_id: String(C.users.gamer) });
    assert.equal(answer.status, 400);
    assert.equal(answer.location, null);
  });
});

describe('Deny', () => {
  test('shows an access-denied page, does not redirect, and issues no token', async () => {
    const keysBefore = emulator.store.apiKeys.length;
    const page = await openAuthorization(emulator, valid({ state: 'deny-state' }));
    const answer = await submitConsent(emulator, { request: page.requestId ?? '', decision: 'deny', user_id: String(C.users.gamer) });
    assert.equal(answer.status, 200);
    assert.equal(answer.location, null);
    assert.match(answer.html, /<h1>Access denied<\/h1>/);
    assert.doesNotMatch(answer.html, /access_token/);
    assert.match(answer.html, /href="http:\/\/127\.0\.0\.1:5173\/">Back to 127\.0\.0\.1:5173</);
    assert.match(answer.html, /href="\/user\/oauth\?client_id=emu-starfall-companion&amp;/);
    assert.equal(emulator.store.apiKeys.length, keysBefore);
  });

  test('"Back to the site" leads to the page the player came from (its Referer on the redirect URI\'s origin), never to another site', async () => {
    const cases: [referer: string, back: string][] = [
      ['http://127.0.0.1:5173/games/starfall?tab=saves', 'http://127.0.0.1:5173/games/starfall?tab=saves'],
      ['https://evil.example/phish', 'http://127.0.0.1:5173/'],
    ];
    for (const [referer, back] of cases) {
      const opened = await fetch(`${emulator.url}${authorizePath(valid({ state: 'deny-from' }))}`, { headers: { Referer: referer } });
      const requestId = /<input type="hidden" name="request" value="([^"]+)">/.exec(await opened.text())?.[1] ?? '';
      const answer = await submitConsent(emulator, { request: requestId, decision: 'deny', user_id: String(C.users.gamer) });
      assert.ok(answer.html.includes(`href="${back.replace(/&/g, '&amp;')}">Back to 127.0.0.1:5173<`), `${referer}: ${answer.html}`);
    }
  });

  test('redirects with #error=access_denied and state when the emulator is started with onDeny: "redirect"', async () => {
    const rfc = await startEmulator({ onDeny: 'redirect' });
    try {
      const keysBefore = rfc.store.apiKeys.length;
      const page = await openAuthorization(rfc, valid({ state: 'st' }));
      const answer = await submitConsent(rfc, { request: page.requestId ?? '', decision: 'deny', user_id: String(C.users.gamer) });
      assert.equal(answer.status, 302);
      assert.equal(answer.location, `${C.clients.demo.redirectUri}#error=access_denied&state=st`);
      assert.equal(rfc.store.apiKeys.length, keysBefore);
    } finally {
      await rfc.close();
    }
  });
});

describe('the out-of-band redirect URI', () => {
  test('Approve shows the key on a page instead of redirecting', async () => {
    const page = await openAuthorization(emulator, valid({ redirect_uri: OOB, scope: 'profile' }));
    assert.equal(page.status, 200);
    assert.match(page.html, /your key is shown on a page/);
    assert.doesNotMatch(page.headers.get('content-security-policy') ?? '', /urn:/);
    const answer = await submitConsent(emulator, { request: page.requestId ?? '', decision: 'approve', user_id: String(C.users.gamer) });
    assert.equal(answer.status, 200);
    assert.equal(answer.location, null);
    const key = /<code class="key" id="key">([0-9a-f]{40})<\/code>/.exec(answer.html)?.[1];
    assert.ok(key, 'the page shows the key');
    assert.equal(answer.headers.get('cache-control'), 'no-store');
    const info = await api(emulator, '/api/credentials/info', { bearer: key });
    assert.deepEqual(info.body.scopes, ['profile']);
  });

  test('Deny shows the access-denied page even with onDeny: "redirect"', async () => {
    const rfc = await startEmulator({ onDeny: 'redirect' });
    try {
      const page = await openAuthorization(rfc, valid({ redirect_uri: OOB }));
      const answer = await submitConsent(rfc, { request: page.requestId ?? '', decision: 'deny', user_id: String(C.users.gamer) });
      assert.equal(answer.status, 200);
      assert.equal(answer.location, null);
      assert.match(answer.html, /Access denied/);
    } finally {
      await rfc.close();
    }
  });
});

describe('escaping', () => {
  test('seed values and request values are escaped in the pages', async () => {
    const hostile = await startEmulator({
      data: {
        users: [{ id: 1, username: 'eve', display_name: '<img src=x onerror=alert(1)>' }],
        oauth_applications: [
          { id: 1, client_id: 'x', name: '<script>alert("app")</script>', user_id: 1, redirect_uris: ['https://app.example/cb?a=1&b="2"'] },
        ],
      },
    });
    try {
      const consent = await openAuthorization(hostile, {
        client_id: 'x',
        redirect_uri: 'https://app.example/cb?a=1&b="2"',
        response_type: 'token',
        scope: 'profile:me',
        state: '"><script>alert(2)</script>',
      });
      assert.equal(consent.status, 200);
      assert.doesNotMatch(consent.html, /<script>|<img/);
      assert.match(consent.html, /&lt;script&gt;alert\(&quot;app&quot;\)&lt;\/script&gt;/);
      assert.match(consent.html, /&lt;img src=x onerror=alert\(1\)&gt;/);
      assert.match(consent.html, /<code>https:\/\/app\.example\/cb\?a=1&amp;b=&quot;2&quot;<\/code>/);
      const error = await openAuthorization(hostile, {
        client_id: 'x',
        redirect_uri: 'https://app.example/<script>',
        response_type: 'token',
        scope: '<b>bold</b>',
      });
      assert.equal(error.status, 400);
      assert.doesNotMatch(error.html, /<script>|<b>/);
    } finally {
      await hostile.close();
    }
  });
});

describe('the home page', () => {
  test('lists the OAuth applications with their client ids and redirect URIs, under the page CSP', async () => {
    const response = await fetch(`${emulator.url}/`);
    const html = await response.text();
    assert.equal(response.status, 200);
    assert.match(html, /<h2>Starfall Keep Companion<\/h2>\n<p>Client ID <code>emu-starfall-companion<\/code>/);
    assert.ok(html.includes(`<li><code>${LOOPBACK_CALLBACK}</code></li>`), 'redirect URIs registered at start are listed');
    assert.match(response.headers.get('content-security-policy') ?? '', /default-src 'none'/);
  });

  test('other paths are 404', async () => {
    const response = await fetch(`${emulator.url}/user/settings`);
    assert.equal(response.status, 404);
    await response.body?.cancel();
  });
});

testRecordedAnswersMatchSchemas();
