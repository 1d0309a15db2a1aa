import { expect } from '@open-wc/testing';
import { ItchOAuthError } from '../../src/core/errors.js';
import { keyStore, newKeyPair } from '../../src/core/dpop-proof.js';
import type { GameSessionOptions } from '../../src/core/game-session.js';
import { gameSession } from '../../src/ui/login.js';

const SITE = 'https://site.example';
const OPTIONS: GameSessionOptions = {
  clientId: 'abc',
  redirectUri: `${SITE}/callback.html`,
  backend: `${SITE}/auth/itch`,
  renew: `${SITE}/api/renew`,
};
const KEY = `itch-oauth-game-token ${SITE}/api/renew`;
const USER = { id: 7, username: 'zoé', display_name: 'Zoé Ünal', url: 'https://zoe.itch.io', cover_url: null };

/** The name the tokens below give their DPoP key (their `cnf.jkt`): the key kept in IndexedDB by `keepKey()`. */
const JKT = 'test-key-thumbprint';

/** A DPoP key pair kept as an earlier page of the game left it (IndexedDB, under the token's `cnf.jkt`). */
async function keepKey(): Promise<CryptoKeyPair> {
  const pair = await newKeyPair();
  await keyStore((store) => store.put(pair, JKT), true);
  return pair;
}

/** A game token as the site's `createSessions` makes one, bound to the key of {@link JKT} (the session reads it, never checks its signature). */
function gameToken(lifetimeS = 3600, name = 'first', iat = Math.floor(Date.now() / 1000)): string {
  const claims = { sub: '7', iat, exp: iat + lifetimeS, user: USER, owns: { 42: true }, name, cnf: { jkt: JKT } };
  const bytes = new TextEncoder().encode(JSON.stringify(claims));
  const payload = btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
  return `eyJhbGciOiJFZERTQSJ9.${payload}.c2ln`;
}

/** The requests fetch() was given, and the site's answers: `renew` gives each call's token. */
function stubFetch(answer: (request: Request) => Response | Promise<Response>) {
  const real = window.fetch;
  const seen: Request[] = [];
  window.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    seen.push(request);
    return answer(request);
  }) as typeof window.fetch;
  return { seen, restore: () => (window.fetch = real) };
}

/** Runs `act` in a frame whose sessionStorage throws, as some browsers' third-party frames do. */
async function withoutSessionStorage(act: () => Promise<void>) {
  const real = Object.getOwnPropertyDescriptor(window, 'sessionStorage')!;
  Object.defineProperty(window, 'sessionStorage', {
    configurable: true,
    get: () => {
      throw new DOMException('denied', 'SecurityError');
    },
  });
  try {
    await act();
  } finally {
    Object.defineProperty(window, 'sessionStorage', real);
  }
}

describe('gameSession()', () => {
  let fetchStub: ReturnType<typeof stubFetch> | undefined;
  afterEach(() => {
    fetchStub?.restore();
    fetchStub = undefined;
    sessionStorage.clear();
  });
  beforeEach(() => keepKey());

  it('restores nothing when no login was kept', async () => {
    fetchStub = stubFetch(() => new Response(null, { status: 500 }));
    const session = gameSession(OPTIONS);
    expect(await session.restore()).to.equal(false);
    expect(session.signedIn).to.equal(false);
    expect(fetchStub.seen).to.have.length(0);
  });

  it('restores a kept login by renewing it at once, and reads the player from the token', async () => {
    const kept = gameToken(3600, 'kept');
    const fresh = gameToken(3600, 'fresh');
    sessionStorage.setItem(KEY, kept);
    fetchStub = stubFetch(() => Response.json({ gameToken: fresh }));
    const session = gameSession(OPTIONS);
    expect(await session.restore()).to.equal(true);
    expect(fetchStub.seen[0]!.url).to.equal(`${SITE}/api/renew`);
    expect(fetchStub.seen[0]!.method).to.equal('POST');
    expect(fetchStub.seen[0]!.headers.get('Authorization')).to.equal(`DPoP ${kept}`);
    expect(session.user).to.deep.equal(USER);
    expect(session.owns).to.deep.equal({ 42: true });
    expect(sessionStorage.getItem(KEY)).to.equal(fresh);
    await session.logout();
  });

  it('forgets a kept login that the site refuses, and says so', async () => {
    sessionStorage.setItem(KEY, gameToken());
    fetchStub = stubFetch(() => new Response(null, { status: 401 }));
    let told = 0;
    const session = gameSession({ ...OPTIONS, onSignedOut: () => told++ });
    expect(await session.restore()).to.equal(false);
    expect(session.signedIn).to.equal(false);
    expect(sessionStorage.getItem(KEY)).to.equal(null);
    expect(told).to.equal(1);
  });

  it('keeps the login in memory when the frame may not use sessionStorage', async () => {
    await withoutSessionStorage(async () => {
      const session = gameSession(OPTIONS);
      expect(await session.restore()).to.equal(false);
    });
  });

  it('restores nothing when the key the kept token is bound to is gone (IndexedDB cleared or refused)', async () => {
    await keyStore((store) => store.delete(JKT), true);
    sessionStorage.setItem(KEY, gameToken());
    fetchStub = stubFetch(() => Response.json({ gameToken: gameToken() }));
    expect(await gameSession(OPTIONS).restore()).to.equal(false);
    expect(fetchStub.seen).to.have.length(0);
  });

  it('keeps a key pair whose private key cannot be exported', async () => {
    const kept = await keyStore<CryptoKeyPair>((store) => store.get(JKT));
    expect(kept!.privateKey.extractable).to.equal(false);
    let exported: unknown;
    try {
      exported = await crypto.subtle.exportKey('jwk', kept!.privateKey);
    } catch (error) {
      exported = error;
    }
    expect(exported).to.be.instanceOf(DOMException);
  });

  describe('fetch()', () => {
    async function signedIn(answer: (request: Request) => Response | Promise<Response>, options: Partial<GameSessionOptions> = {}) {
      sessionStorage.setItem(KEY, gameToken(3600, 'kept'));
      const token = gameToken(3600, 'renewed');
      fetchStub = stubFetch((request) => (request.url === `${SITE}/api/renew` ? Response.json({ gameToken: token }) : answer(request)));
      const session = gameSession({ ...OPTIONS, ...options });
      await session.restore();
      fetchStub.seen.length = 0;
      return { session, token };
    }

    it("adds the game token to the backend's origin", async () => {
      const { session, token } = await signedIn(() => Response.json({ progress: null }));
      const answer = await session.fetch(`${SITE}/api/progress`, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json' },
        body: '{}',
      });
      expect(answer.status).to.equal(200);
      expect(fetchStub!.seen[0]!.headers.get('Authorization')).to.equal(`DPoP ${token}`);
      expect(fetchStub!.seen[0]!.headers.get('Content-Type')).to.equal('application/json');
      expect(fetchStub!.seen[0]!.redirect).to.equal('error');
      await session.logout();
    });

    /** A proof's parts, checked with the public key of its header as a server does. */
    async function readProof(proof: string) {
      const [header, payload, signature] = proof
        .split('.')
        .map((part) => Uint8Array.from(atob(part.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0)));
      const head = JSON.parse(new TextDecoder().decode(header)) as { typ: string; alg: string; jwk: JsonWebKey };
      const key = await crypto.subtle.importKey('jwk', head.jwk, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify']);
      const input = new TextEncoder().encode(proof.split('.').slice(0, 2).join('.'));
      const valid = await crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, key, signature!, input);
      return { head, claims: JSON.parse(new TextDecoder().decode(payload)) as Record<string, unknown>, valid };
    }
    const sha256 = async (text: string) =>
      btoa(String.fromCharCode(...new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)))))
        .replace(/\+/g, '-')
        .replace(/\//g, '_')
        .replace(/=+$/, '');

    it('sends a DPoP proof of each request (RFC 9449), signed by the kept key, never twice the same', async () => {
      const { session, token } = await signedIn(() => Response.json({}));
      await session.fetch(`${SITE}/api/progress?slot=2#top`, { method: 'PUT', body: '{}' });
      await session.fetch(`${SITE}/api/progress?slot=2#top`, { method: 'PUT', body: '{}' });
      const [first, second] = await Promise.all(fetchStub!.seen.map((request) => readProof(request.headers.get('DPoP')!)));
      expect(first!.valid).to.equal(true);
      expect(first!.head.typ).to.equal('dpop+jwt');
      expect(first!.head.alg).to.equal('ES256');
      expect(Object.keys(first!.head.jwk).sort()).to.deep.equal(['crv', 'kty', 'x', 'y']);
      expect(first!.claims.htm).to.equal('PUT');
      expect(first!.claims.htu).to.equal(`${SITE}/api/progress`);
      expect(first!.claims.ath).to.equal(await sha256(token));
      expect(Math.abs((first!.claims.iat as number) - Date.now() / 1000)).to.be.below(5);
      expect(first!.claims.jti).to.be.a('string').with.length.above(20);
      expect(second!.claims.jti).not.to.equal(first!.claims.jti);
      await session.logout();
    });

    it("dates its proofs by the site's clock, as the last token's iat told it", async () => {
      sessionStorage.setItem(KEY, gameToken());
      // The site's clock is an hour ahead of this page's.
      const ahead = gameToken(3600, 'ahead', Math.floor(Date.now() / 1000) + 3600);
      fetchStub = stubFetch(() => Response.json({ gameToken: ahead }));
      const session = gameSession(OPTIONS);
      await session.restore();
      await session.fetch(`${SITE}/api/progress`);
      const { claims } = await readProof(fetchStub.seen.at(-1)!.headers.get('DPoP')!);
      expect(Math.abs((claims.iat as number) - (Date.now() / 1000 + 3600))).to.be.below(5);
      await session.logout();
    });

    it('never sends the game token to another origin', async () => {
      const { session } = await signedIn(() => new Response('ok'));
      const elsewhere = [
        'https://evil.example/steal',
        `https://site.example.evil.example/api/progress`,
        `http://site.example/api/progress`,
        `https://site.example:8443/api/progress`,
        '//evil.example/steal',
        '/same-page-origin',
        new URL('https://evil.example/url-object'),
        new Request('https://evil.example/request-object', { headers: { 'X-Game': '1' } }),
      ];
      for (const input of elsewhere) await session.fetch(input);
      expect(fetchStub!.seen).to.have.length(elsewhere.length);
      for (const request of fetchStub!.seen) expect(request.headers.get('Authorization'), request.url).to.equal(null);
      // A URL with credentials is refused before anything is sent, as fetch() refuses it.
      let refused: unknown;
      await session.fetch('https://site.example@evil.example/api/progress').catch((error: unknown) => (refused = error));
      expect(refused).to.be.instanceOf(TypeError);
      expect(fetchStub!.seen).to.have.length(elsewhere.length);
      await session.logout();
    });

    it('adds the game token to the configured API origins', async () => {
      const { session, token } = await signedIn(() => new Response('ok'), { apiOrigins: ['https://api.site.example'] });
      await session.fetch('https://api.site.example/v1/scores');
      expect(fetchStub!.seen[0]!.headers.get('Authorization')).to.equal(`DPoP ${token}`);
      await session.logout();
    });

    it('renews once on a 401 and sends the request again with the new token', async () => {
      let calls = 0;
      const { session } = await signedIn(() => new Response(null, { status: ++calls == 1 ? 401 : 200 }));
      const answer = await session.fetch(`${SITE}/api/progress`, { method: 'PUT', body: 'stars=3' });
      expect(answer.status).to.equal(200);
      expect(fetchStub!.seen.map((request) => request.url)).to.deep.equal([
        `${SITE}/api/progress`,
        `${SITE}/api/renew`,
        `${SITE}/api/progress`,
      ]);
      expect(await fetchStub!.seen[2]!.text()).to.equal('stars=3');
      await session.logout();
    });

    it("carries the site's DPoP nonce (RFC 9449 section 9), and sends once more, with it, when asked for one", async () => {
      const nonceAsked = (nonce: string) =>
        new Response(null, { status: 401, headers: { 'WWW-Authenticate': 'DPoP error="use_dpop_nonce"', 'DPoP-Nonce': nonce } });
      let asked = 0;
      const { session } = await signedIn(async (request) => {
        const { claims } = await readProof(request.headers.get('DPoP')!);
        // The site asks twice for a nonce: first for one, then for a newer one.
        if (claims.nonce === undefined) return nonceAsked('nonce-of-minute-1');
        if (claims.nonce === 'nonce-of-minute-1' && ++asked == 2) return nonceAsked('nonce-of-minute-2');
        return new Response('ok', { headers: { 'DPoP-Nonce': String(claims.nonce) } });
      });
      const first = await session.fetch(`${SITE}/api/progress`, { method: 'PUT', body: 'stars=3' });
      expect(first.status).to.equal(200);
      // Asked once, sent again with the nonce and the same body; no renewal.
      const sent = await Promise.all(
        fetchStub!.seen.map(async (request) => [
          request.url,
          (await readProof(request.headers.get('DPoP')!)).claims.nonce,
          await request.text(),
        ]),
      );
      expect(sent).to.deep.equal([
        [`${SITE}/api/progress`, undefined, 'stars=3'],
        [`${SITE}/api/progress`, 'nonce-of-minute-1', 'stars=3'],
      ]);
      // The next request carries the kept nonce at once; asked for a newer one, it sends once more.
      fetchStub!.seen.length = 0;
      expect((await session.fetch(`${SITE}/api/progress`)).status).to.equal(200);
      const nonces = await Promise.all(
        fetchStub!.seen.map(async (request) => (await readProof(request.headers.get('DPoP')!)).claims.nonce),
      );
      expect(nonces).to.deep.equal(['nonce-of-minute-1', 'nonce-of-minute-2']);
      await session.logout();
    });

    it("keeps each origin's nonce apart: the site's and a game server's are never swapped", async () => {
      const API = 'https://api.site.example';
      const { session } = await signedIn(
        async (request) => {
          const { origin } = new URL(request.url);
          const { claims } = await readProof(request.headers.get('DPoP')!);
          const own = `nonce-of-${origin}`;
          return claims.nonce === own
            ? new Response('ok', { headers: { 'DPoP-Nonce': own } })
            : new Response(null, { status: 401, headers: { 'WWW-Authenticate': 'DPoP error="use_dpop_nonce"', 'DPoP-Nonce': own } });
        },
        { apiOrigins: [API] },
      );
      for (const url of [`${SITE}/api/progress`, `${API}/v1/scores`]) expect((await session.fetch(url)).status).to.equal(200);
      fetchStub!.seen.length = 0;
      // Learnt once each: from here on, every request carries its own origin's nonce at once.
      for (const url of [`${SITE}/api/progress`, `${API}/v1/scores`, `${SITE}/api/progress`])
        expect((await session.fetch(url)).status).to.equal(200);
      expect(fetchStub!.seen).to.have.length(3);
      await session.logout();
    });

    it('keeps the nonces for the next page of the frame: after a reload, the first proofs carry them (no 401 and resend)', async () => {
      const { session } = await signedIn((request) => new Response('ok', { headers: { 'DPoP-Nonce': `fresh ${request.method}` } }));
      await session.fetch(`${SITE}/api/progress`);
      // The next page of this frame: its game session, restored, sends the kept nonce at once.
      fetchStub!.seen.length = 0;
      const next = gameSession(OPTIONS);
      await next.restore();
      expect((await next.fetch(`${SITE}/api/progress`, { method: 'PUT', body: '{}' })).status).to.equal(200);
      const nonces = await Promise.all(
        fetchStub!.seen.map(async (request) => (await readProof(request.headers.get('DPoP')!)).claims.nonce),
      );
      expect(nonces).to.deep.equal(['fresh GET', 'fresh GET']);
      await next.logout();
    });

    it('keeps the nonce in memory where the frame may not use sessionStorage', async () => {
      let asked = 0;
      const { session } = await signedIn(async (request) => {
        const { claims } = await readProof(request.headers.get('DPoP')!);
        if (claims.nonce === 'the-nonce') return new Response('ok');
        asked++;
        return new Response(null, {
          status: 401,
          headers: { 'WWW-Authenticate': 'DPoP error="use_dpop_nonce"', 'DPoP-Nonce': 'the-nonce' },
        });
      });
      await withoutSessionStorage(async () => {
        expect((await session.fetch(`${SITE}/api/progress`)).status).to.equal(200);
        expect((await session.fetch(`${SITE}/api/progress`)).status).to.equal(200);
        expect(asked, 'asked once, then the nonce was kept').to.equal(1);
      });
      await session.logout();
    });

    it('asks once: a site that asks again for a nonce gets its 401 back, after one renewal, and no loop', async () => {
      let sent = 0;
      const { session } = await signedIn(() => {
        sent++;
        return new Response(null, {
          status: 401,
          headers: { 'WWW-Authenticate': 'DPoP error="use_dpop_nonce"', 'DPoP-Nonce': `n${sent}` },
        });
      });
      const answer = await session.fetch(`${SITE}/api/progress`);
      expect(answer.status).to.equal(401);
      // Two sends (the second with the nonce), a renewal, two sends with the new token.
      expect(sent).to.equal(4);
      await session.logout();
    });

    it('gives the 401 back when the site refuses to renew, signed out', async () => {
      sessionStorage.setItem(KEY, gameToken());
      let renewals = 0;
      fetchStub = stubFetch((request) => {
        if (!request.url.endsWith('/api/renew')) return new Response(null, { status: 401 });
        return ++renewals == 1 ? Response.json({ gameToken: gameToken() }) : new Response(null, { status: 401 });
      });
      const session = gameSession(OPTIONS);
      await session.restore();
      const answer = await session.fetch(`${SITE}/api/progress`);
      expect(answer.status).to.equal(401);
      expect(renewals).to.equal(2);
      expect(session.signedIn).to.equal(false);
    });

    it('hands a 429 to the game and stays signed in, even when a renewal is answered 429', async () => {
      // A player past its share of the proofs the site remembers is told to wait (429), not that
      // its session is over: neither the answer nor a renewal refused that way signs it out.
      sessionStorage.setItem(KEY, gameToken());
      let renewals = 0;
      let told = 0;
      fetchStub = stubFetch((request) => {
        if (request.url.endsWith('/api/renew') && ++renewals == 1) return Response.json({ gameToken: gameToken() });
        const busy = request.url.endsWith('/api/renew') || request.url.endsWith('/api/progress');
        return busy
          ? Response.json({ errors: ['too many'] }, { status: 429, headers: { 'Retry-After': '30' } })
          : new Response(null, { status: 401 });
      });
      const session = gameSession({ ...OPTIONS, onSignedOut: () => told++ });
      await session.restore();
      const answer = await session.fetch(`${SITE}/api/progress`);
      expect(answer.status).to.equal(429);
      expect(answer.headers.get('Retry-After')).to.equal('30');
      // A 401 whose renewal is answered 429: the 401 goes back to the game, the session stays.
      expect((await session.fetch(`${SITE}/api/other`)).status).to.equal(401);
      expect(renewals).to.equal(2);
      expect(session.signedIn).to.equal(true);
      expect(told).to.equal(0);
      expect(sessionStorage.getItem(KEY)).to.not.equal(null);
      await session.logout();
    });

    it('renews before the token expires', async () => {
      const { session } = await signedIn(() => new Response('ok'));
      // A token of 1 s: renewed a quarter of its lifetime before it ends.
      fetchStub!.restore();
      const short = gameToken(1, 'short');
      fetchStub = stubFetch((request) =>
        Response.json({ gameToken: request.headers.get('Authorization') === `DPoP ${short}` ? gameToken() : short }),
      );
      await session.logout();
      // (The logout forgot the key with the token.)
      await keepKey();
      sessionStorage.setItem(KEY, gameToken());
      const second = gameSession(OPTIONS);
      await second.restore();
      expect(sessionStorage.getItem(KEY)).to.equal(short);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(fetchStub.seen.map((request) => request.headers.get('Authorization'))).to.include(`DPoP ${short}`);
      expect(sessionStorage.getItem(KEY)).not.to.equal(short);
      await second.logout();
    });

    it('leaves the token out of localStorage, cookies and the document', async () => {
      const { session, token } = await signedIn(() => new Response('ok'));
      await session.fetch(`${SITE}/api/progress`);
      const places = [JSON.stringify({ ...localStorage }), document.cookie, document.documentElement.outerHTML, JSON.stringify(session)];
      for (const place of places) expect(place).not.to.include(token.split('.')[1]!);
      await session.logout();
    });
  });

  it('forgets the key with the login at logout', async () => {
    sessionStorage.setItem(KEY, gameToken());
    fetchStub = stubFetch(() => Response.json({ gameToken: gameToken() }));
    const session = gameSession(OPTIONS);
    await session.restore();
    await session.logout();
    expect(await keyStore((store) => store.get(JKT))).to.equal(undefined);
  });

  it('revokes the session at the logout URL with the token, then forgets it', async () => {
    sessionStorage.setItem(KEY, gameToken());
    const renewed = gameToken(3600, 'renewed');
    fetchStub = stubFetch((request) =>
      request.url.endsWith('/renew') ? Response.json({ gameToken: renewed }) : new Response(null, { status: 204 }),
    );
    const session = gameSession({ ...OPTIONS, logout: `${SITE}/logout` });
    await session.restore();
    await session.logout();
    expect(fetchStub.seen[1]!.url).to.equal(`${SITE}/logout`);
    expect(fetchStub.seen[1]!.headers.get('Authorization')).to.equal(`DPoP ${renewed}`);
    expect(session.signedIn).to.equal(false);
    expect(sessionStorage.getItem(KEY)).to.equal(null);
  });

  it('refuses a renewal URL on an origin that does not receive the token', () => {
    expect(() => gameSession({ ...OPTIONS, renew: 'https://elsewhere.example/api/renew' }))
      .to.throw(ItchOAuthError, /renew .* must be on the backend's origin/)
      .with.property('code', 'config_invalid');
  });

  it('refuses a missing renewal URL, which would resolve against the page as "undefined"', () => {
    expect(() => gameSession({ ...OPTIONS, renew: undefined as unknown as string }))
      .to.throw(ItchOAuthError, /renew must be an http\(s\) URL, got undefined/)
      .with.property('code', 'config_invalid');
  });
});
