import { expect } from '@open-wc/testing';
import { ItchOAuthError } from '../../src/core/errors.js';
import { checkLoginOptions, preparePopupLogin, type LoginOptions } from '../../src/core/login.js';
import { login, startLogin } from '../../src/ui/login.js';
import { popupStateOfBinding } from '../../src/core/state.js';

const OPTIONS: LoginOptions = {
  clientId: 'abc',
  redirectUri: 'https://game.example/callback.html',
  backend: '/auth/itch',
  mode: 'popup',
};

function expectConfigError(fn: () => unknown, message: RegExp): void {
  expect(fn).to.throw(ItchOAuthError, message).with.property('code', 'config_invalid');
}

/** Replaces window.open and fetch for one test; `restore()` puts them back. */
function stubWindow(open: (url: string) => Window | null, answers: (body: string) => Response) {
  const realOpen = window.open;
  const realFetch = window.fetch;
  const opened: string[] = [];
  const posted: string[] = [];
  window.open = ((url: string) => {
    opened.push(url);
    return open(url);
  }) as typeof window.open;
  window.fetch = (async (_input: RequestInfo | URL, init?: RequestInit) => {
    posted.push(String(init?.body));
    return answers(String(init?.body));
  }) as typeof window.fetch;
  return {
    opened,
    posted,
    restore() {
      window.open = realOpen;
      window.fetch = realFetch;
    },
  };
}

const fakePopup = () => ({ closed: false, close() {}, focus() {}, location: { href: '' } }) as unknown as Window;

async function sha256(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return btoa(String.fromCharCode(...digest))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

describe('checkLoginOptions', () => {
  it('defaults to redirect mode on a top-level page', () => {
    expect(checkLoginOptions({ ...OPTIONS, mode: undefined }).mode).to.equal('redirect');
  });

  it('refuses popup mode without a backend, naming it', () => {
    expectConfigError(() => checkLoginOptions({ ...OPTIONS, backend: undefined }), /popup mode needs backend/);
  });

  it('refuses an unknown mode and a backend that is not http(s)', () => {
    expectConfigError(() => checkLoginOptions({ ...OPTIONS, mode: 'tab' as never }), /mode must be "redirect" or "popup"/);
    expectConfigError(() => checkLoginOptions({ ...OPTIONS, backend: 'javascript:alert(1)' }), /backend must be an http\(s\) URL/);
  });

  it('resolves the backend against the page address', () => {
    expect(checkLoginOptions(OPTIONS).backend?.href).to.equal(new URL('/auth/itch', location.href).href);
  });
});

describe('login with an AbortSignal', () => {
  it('rejects with aborted when the page aborts, and closes the popup once its start page has asked, unanswered (a popup closed while its first page loads may stay open)', async () => {
    await preparePopupLogin();
    let closed = 0;
    const replies: unknown[] = [];
    const popup = {
      ...fakePopup(),
      close: () => void closed++,
      postMessage: (message: unknown) => void replies.push(message),
    } as unknown as Window;
    const stub = stubWindow(
      () => popup,
      () => Response.json({ pending: true }, { status: 202 }),
    );
    // Called as in a click (without an activation, login() shows its Continue button first: login-continue.test.ts).
    Object.defineProperty(navigator, 'userActivation', { value: { isActive: true }, configurable: true });
    try {
      const cancel = new AbortController();
      const result = login({ ...OPTIONS, signal: cancel.signal });
      expect(stub.opened).to.have.length(1);
      cancel.abort();
      const error = await result.then(
        () => undefined,
        (failure: unknown) => failure,
      );
      expect(error).to.be.instanceOf(ItchOAuthError).with.property('code', 'aborted');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(closed, 'not while its start page has not asked').to.equal(0);
      const state = new URL(stub.opened[0]!).searchParams.get('state')!;
      const event = new MessageEvent('message', { data: { itchOAuth: 'popup-start', state }, origin: location.origin });
      Object.defineProperty(event, 'source', { value: popup });
      dispatchEvent(event);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(closed, 'closed once its start page asked (well before its second)').to.equal(1);
      expect(replies, 'the start page of a cancelled login is not answered').to.deep.equal([]);
    } finally {
      delete (navigator as { userActivation?: unknown }).userActivation;
      stub.restore();
    }
  });

  it('closes the popup of an aborted login after a second when its start page never asks', async () => {
    await preparePopupLogin();
    let closed = 0;
    const popup = { ...fakePopup(), close: () => void closed++ } as unknown as Window;
    const stub = stubWindow(
      () => popup,
      () => Response.json({ pending: true }, { status: 202 }),
    );
    Object.defineProperty(navigator, 'userActivation', { value: { isActive: true }, configurable: true });
    try {
      const cancel = new AbortController();
      const result = login({ ...OPTIONS, signal: cancel.signal });
      cancel.abort();
      await result.catch(() => undefined);
      expect(closed).to.equal(0);
      // About a second: twenty waits of 50 ms, which a busy machine stretches; given 3 s here.
      const given = Date.now() + 3000;
      while (closed === 0 && Date.now() < given) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(closed, 'closed after about a second').to.equal(1);
    } finally {
      delete (navigator as { userActivation?: unknown }).userActivation;
      stub.restore();
    }
  });

  it('rejects with aborted when the page aborts while a pending answer is being read, never with that answer', async () => {
    await preparePopupLogin();
    const realOpen = window.open;
    const realFetch = window.fetch;
    let reading: () => void = () => undefined;
    const bodyRead = new Promise<void>((resolve) => (reading = resolve));
    window.open = (() => fakePopup()) as typeof window.open;
    // A 202 whose body is still arriving: aborting the request errors its body, as fetch does.
    window.fetch = (async (_input: RequestInfo | URL, init?: RequestInit) => {
      const signal = init!.signal!;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"pending":'));
          signal.addEventListener('abort', () => controller.error(new DOMException('aborted', 'AbortError')));
          reading();
        },
      });
      return new Response(body, { status: 202, headers: { 'Content-Type': 'application/json' } });
    }) as typeof window.fetch;
    Object.defineProperty(navigator, 'userActivation', { value: { isActive: true }, configurable: true });
    try {
      const cancel = new AbortController();
      const result = login({ ...OPTIONS, signal: cancel.signal });
      await bodyRead;
      cancel.abort();
      const outcome = await result.then(
        (value) => value,
        (failure: unknown) => failure,
      );
      expect(outcome).to.be.instanceOf(ItchOAuthError).with.property('code', 'aborted');
    } finally {
      delete (navigator as { userActivation?: unknown }).userActivation;
      window.open = realOpen;
      window.fetch = realFetch;
    }
  });

  it('opens nothing when the signal is aborted already', async () => {
    const stub = stubWindow(fakePopup, () => Response.json({ pending: true }, { status: 202 }));
    try {
      const error = await login({ ...OPTIONS, signal: AbortSignal.abort() }).then(
        () => undefined,
        (failure: unknown) => failure,
      );
      expect(error).to.be.instanceOf(ItchOAuthError).with.property('code', 'aborted');
      expect(stub.opened).to.deep.equal([]);
    } finally {
      stub.restore();
    }
  });
});

describe('startLogin in popup mode', () => {
  it("confirms the state only to its own popup's start page, on the backend's origin, for its own state", async () => {
    await preparePopupLogin();
    const replies: unknown[] = [];
    const popup = {
      ...fakePopup(),
      postMessage: (message: unknown, origin: string) => void replies.push([message, origin]),
    } as unknown as Window;
    const stub = stubWindow(
      () => popup,
      () => Response.json({ pending: true }, { status: 202 }),
    );
    const handle = startLogin(OPTIONS);
    try {
      const state = new URL(stub.opened[0]!).searchParams.get('state')!;
      const backendOrigin = location.origin;
      const ask = (data: unknown, origin: string, source: unknown) => {
        // (A MessageEvent's source must be a real window: a stand-in is set on the event.)
        const event = new MessageEvent('message', { data, origin });
        Object.defineProperty(event, 'source', { value: source });
        dispatchEvent(event);
      };
      ask({ itchOAuth: 'popup-start', state }, 'https://evil.example', popup);
      ask({ itchOAuth: 'popup-start', state: `p.${'A'.repeat(43)}` }, backendOrigin, popup);
      ask({ itchOAuth: 'popup-start', state }, backendOrigin, window);
      ask({ itchOAuth: 'something-else', state }, backendOrigin, popup);
      expect(replies, 'another origin, another state, another window, another message: no answer').to.deep.equal([]);
      ask({ itchOAuth: 'popup-start', state }, backendOrigin, popup);
      // The answer hands over the login's binding: p. + SHA-256(binding) is the state.
      const [[reply, to]] = replies as [[{ binding: string }, string]];
      expect(reply).to.deep.equal({ itchOAuth: 'popup-opener', state, binding: reply.binding });
      expect(to).to.equal(backendOrigin);
      expect(await popupStateOfBinding(reply.binding)).to.equal(state);
    } finally {
      handle.abandon();
      await handle.result.catch(() => undefined);
      stub.restore();
    }
  });

  it('closes a popup whose backend cannot keep the login once its start page has asked (a popup closed while its first page loads may stay open)', async () => {
    await preparePopupLogin();
    let closed = 0;
    const popup = { ...fakePopup(), close: () => void closed++, postMessage: () => undefined } as unknown as Window;
    const stub = stubWindow(
      () => popup,
      () => new Response(null, { status: 503 }),
    );
    const handle = startLogin(OPTIONS);
    const settled = handle.result.catch((error: unknown) => error);
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(closed, 'not while its start page has not asked').to.equal(0);
      const state = new URL(stub.opened[0]!).searchParams.get('state')!;
      const event = new MessageEvent('message', { data: { itchOAuth: 'popup-start', state }, origin: location.origin });
      Object.defineProperty(event, 'source', { value: popup });
      dispatchEvent(event);
      expect(await settled)
        .to.be.instanceOf(ItchOAuthError)
        .with.property('code', 'service_unavailable');
      expect(closed).to.equal(1);
    } finally {
      stub.restore();
    }
  });

  it('waits, in a frame, for the backend to say whether a popup that window.open did not return arrived', async () => {
    // (This page is not framed: only the blocked case on a top-level page is immediate.)
    await preparePopupLogin();
    const stub = stubWindow(
      () => null,
      () => Response.json({ pending: true }, { status: 202 }),
    );
    try {
      let blocked: ItchOAuthError | undefined;
      const handle = startLogin({ ...OPTIONS }, { blocked: (error) => ((blocked = error), false) });
      handle.result.catch(() => undefined);
      expect(blocked?.code, 'a top-level page is told at once').to.equal('popup_blocked');
      expect(handle.following).to.equal(false);
      expect(stub.posted, 'and asks nothing').to.deep.equal([]);
    } finally {
      stub.restore();
    }
  });

  it('opens itch.io with a p. state whose verifier only the collection carries, and resolves the answer', async () => {
    await preparePopupLogin();
    let polls = 0;
    const stub = stubWindow(fakePopup, () => {
      polls++;
      return polls < 2 ? Response.json({ pending: true }, { status: 202 }) : Response.json({ user: { id: 7 } });
    });
    try {
      const handle = startLogin(OPTIONS);
      // Opened synchronously, on the backend's start page, which ties the popup to this page
      // before it goes on to itch.io with these parameters.
      expect(stub.opened).to.have.length(1);
      const url = new URL(stub.opened[0]!);
      expect(url.origin + url.pathname).to.equal(new URL(OPTIONS.backend!, location.href).href);
      expect([...url.searchParams.keys()].sort()).to.deep.equal(['client_id', 'redirect_uri', 'scope', 'state']);
      const state = url.searchParams.get('state')!;
      expect(state).to.match(/^p\.[A-Za-z0-9_-]{43}$/);
      expect(await handle.result).to.deep.equal({ response: { user: { id: 7 } } });

      const verifier = (JSON.parse(stub.posted[0]!) as { popup_verifier: string }).popup_verifier;
      expect(verifier).to.match(/^[A-Za-z0-9_-]{43}$/);
      expect(`p.${await sha256(await sha256(verifier))}`, 'the state is p. + SHA-256(SHA-256(verifier))').to.equal(state);
      expect(stub.posted.join()).not.to.contain(state);
      // Nothing about the login is kept in storage.
      expect(JSON.stringify({ ...sessionStorage, ...localStorage })).not.to.contain(verifier);
    } finally {
      stub.restore();
    }
  });

  it('makes a fresh pair for every login', async () => {
    const states: string[] = [];
    for (let i = 0; i < 2; i++) {
      await preparePopupLogin();
      const stub = stubWindow(fakePopup, () => Response.json({ ok: true }));
      try {
        await startLogin(OPTIONS).result;
        states.push(new URL(stub.opened[0]!).searchParams.get('state')!);
      } finally {
        stub.restore();
      }
    }
    expect(states[0]).not.to.equal(states[1]);
  });

  it('rejects with backend_rejected when the backend refuses the login', async () => {
    const stub = stubWindow(fakePopup, () =>
      Response.json({ errors: ['the access token lacks the required scope profile:me'] }, { status: 403 }),
    );
    try {
      const error = await startLogin(OPTIONS).result.catch((e: unknown) => e);
      expect(error).to.be.instanceOf(ItchOAuthError).with.property('code', 'backend_rejected');
      expect((error as Error).message).to.contain('lacks the required scope');
    } finally {
      stub.restore();
    }
  });

  it("rejects with service_unavailable when the backend's rate limit refuses the collection (429)", async () => {
    // The token handler's answer over a per-client limit, as createTokenHandler sends it.
    const stub = stubWindow(fakePopup, () =>
      Response.json(
        { errors: ['too many requests from this address: try again in 42 s'], code: 'service_unavailable' },
        { status: 429, headers: { 'Retry-After': '42' } },
      ),
    );
    try {
      const error = await startLogin(OPTIONS).result.catch((e: unknown) => e);
      expect(error).to.be.instanceOf(ItchOAuthError).with.property('code', 'service_unavailable');
    } finally {
      stub.restore();
    }
  });

  it('reports a blocked popup to the hook, and goes on in redirect mode when the hook says so', async () => {
    const navigated: string[] = [];
    const stub = stubWindow(
      () => null,
      () => Response.json({}),
    );
    try {
      const reported: string[] = [];
      const stay = startLogin(OPTIONS, { blocked: (error) => (reported.push(error.code), false), navigate: (url) => navigated.push(url) });
      expect(await stay.result.catch((e: ItchOAuthError) => e.code)).to.equal('popup_blocked');
      expect(navigated).to.deep.equal([]);

      startLogin(OPTIONS, { blocked: (error) => (reported.push(error.code), true), navigate: (url) => navigated.push(url) });
      expect(reported).to.deep.equal(['popup_blocked', 'popup_blocked']);
      expect(navigated).to.have.length(1);
      // A redirect login's state: stored in sessionStorage, and not a popup state.
      const state = new URL(navigated[0]!).searchParams.get('state')!;
      expect(state).to.match(/^[A-Za-z0-9_-]{43}$/);
      expect(sessionStorage.getItem(`itch-oauth:state:${state}`)).not.to.equal(null);
      sessionStorage.clear();
    } finally {
      stub.restore();
    }
  });

  it('login() rejects a bad configuration instead of throwing', async () => {
    const error = await login({ ...OPTIONS, backend: undefined }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(ItchOAuthError).with.property('code', 'config_invalid');
  });
});
