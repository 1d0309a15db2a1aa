import { expect, fixture, html } from '@open-wc/testing';
import { emulateMedia } from '@web/test-runner-commands';
import '../../src/define.js';
import { OUTCOME_KEY, type CaptureOutcome } from '../../src/capture/outcome.js';
import { ERROR_CODES, type ItchOAuthErrorCode } from '../../src/core/errors.js';
import { STATE_KEY_PREFIX, type FlowRecord } from '../../src/core/state.js';
import { documentOutcomes, type ItchOAuthCallback } from '../../src/elements/itch-oauth-callback.js';

const flow: FlowRecord = {
  returnTo: '/play?level=2',
  mode: 'redirect',
  clientId: 'abc',
  redirectUri: 'https://game.example/callback.html',
  scope: 'profile:me',
  baseUrl: 'https://itch.io',
  createdAt: Date.now(),
};

function leave(outcome: CaptureOutcome | undefined) {
  documentOutcomes.delete(document);
  sessionStorage.clear();
  if (outcome) sessionStorage.setItem(OUTCOME_KEY, JSON.stringify(outcome));
}

/** The link back to the site, if drawn. */
const back = (el: ItchOAuthCallback) => el.shadowRoot!.querySelector<HTMLAnchorElement>('a[part=back]');

function code(name: ItchOAuthErrorCode) {
  return ERROR_CODES.indexOf(name);
}

/** The element, with navigation recorded; the events it fires, caught on document. */
async function callback(template = html`<itch-oauth-callback></itch-oauth-callback>`) {
  const events: CustomEvent[] = [];
  const record = (e: Event) => events.push(e as CustomEvent);
  document.addEventListener('itch-login-success', record);
  document.addEventListener('itch-login-error', record);
  const replaced: string[] = [];
  const visited: string[] = [];
  const proto = customElements.get('itch-oauth-callback')!.prototype as ItchOAuthCallback;
  const { replace, navigate } = proto;
  proto.replace = (url) => void replaced.push(url);
  proto.navigate = (url) => void visited.push(url);
  const el = await fixture<ItchOAuthCallback>(template);
  await new Promise((resolve) => setTimeout(resolve));
  Object.assign(proto, { replace, navigate });
  document.removeEventListener('itch-login-success', record);
  document.removeEventListener('itch-login-error', record);
  const status = () => el.shadowRoot!.querySelector('[part=status]')!;
  return { el, events, replaced, visited, status, retry: () => el.shadowRoot!.querySelector<HTMLButtonElement>('[part=retry]') };
}

describe('<itch-oauth-callback>', () => {
  it('says no login is in progress when the capture left nothing, and links back to the site', async () => {
    leave(undefined);
    const { el, status, events } = await callback();
    expect(status().textContent).to.contain('No itch.io login in progress');
    expect(back(el)?.textContent).to.equal('Back to the site');
    expect(back(el)?.getAttribute('href')).to.equal('/');
    expect(events).to.deep.equal([]);
  });

  it('links back to back-url, not the site root, when set and no login is in progress', async () => {
    leave(undefined);
    const { el } = await callback(html`<itch-oauth-callback back-url="https://pixelforge.itch.io/starfall-keep"></itch-oauth-callback>`);
    expect(back(el)?.getAttribute('href')).to.equal('https://pixelforge.itch.io/starfall-keep');
  });

  it('falls back to the site root for a back-url that is no http(s) address nor path', async () => {
    leave(undefined);
    const { el } = await callback(html`<itch-oauth-callback back-url="javascript:alert(1)"></itch-oauth-callback>`);
    expect(back(el)?.getAttribute('href')).to.equal('/');
  });

  it("offers Close, not a way into the site, when no login is in progress in a popup login's window (its page reloaded)", async () => {
    leave({ code: code('backend_rejected'), flow: 0 });
    await callback();
    // The same tab, reloaded: the outcome is gone.
    documentOutcomes.delete(document);
    const { el, status } = await callback();
    expect(status().textContent).to.contain('No itch.io login in progress');
    expect(back(el)).to.equal(null);
    const close = el.shadowRoot!.querySelector<HTMLButtonElement>('[part=close]')!;
    expect(close.textContent).to.equal('Close');
    let closed = 0;
    el.closeWindow = () => void closed++;
    close.click();
    expect(closed).to.equal(1);
  });

  it('shows success, fires itch-login-success with the response and returns the user with replace', async () => {
    leave({ response: { user: { username: 'leafo' } }, flow });
    const { status, events, replaced } = await callback();
    expect(status().textContent).to.contain("You're logged in");
    expect(events.map((e) => [e.type, e.detail])).to.deep.equal([['itch-login-success', { response: { user: { username: 'leafo' } } }]]);
    expect(replaced).to.deep.equal(['/play?level=2']);
  });

  it('stays with no-redirect', async () => {
    leave({ response: null, flow });
    const { replaced, events } = await callback(html`<itch-oauth-callback no-redirect></itch-oauth-callback>`);
    expect(events).to.have.length(1);
    expect(replaced).to.deep.equal([]);
  });

  it('never returns the user off the origin', async () => {
    leave({ response: null, flow: { ...flow, returnTo: '//evil.example/' } });
    const { replaced } = await callback();
    expect(replaced).to.deep.equal(['/']);
  });

  for (const name of ERROR_CODES) {
    it(`puts ${name} in plain words and fires itch-login-error`, async () => {
      leave({ code: code(name), flow });
      const { status, events } = await callback();
      expect(status().getAttribute('role')).to.equal('alert');
      expect(status().textContent!.trim()).to.not.equal('');
      expect(events.map((e) => [e.type, e.detail.code])).to.deep.equal([['itch-login-error', name]]);
      expect(events[0]!.detail.message).to.be.a('string').and.not.equal('');
    });

    it(`offers a way on after ${name}: Try again where the login can start again, and a link back to where it started`, async () => {
      leave({ code: code(name), flow });
      const { el } = await callback();
      expect(el.shadowRoot!.querySelector('[part=retry]') !== null, 'Try again').to.equal(name !== 'config_invalid');
      expect(back(el)?.getAttribute('href')).to.equal('/play?level=2');
    });
  }

  it('says a reopened login link works once in the tab that started it, never that the player is logged in, and links to the site', async () => {
    leave({ code: code('state_mismatch'), flow: code('state_mismatch') });
    const { el, status, events } = await callback();
    expect(status().textContent).to.contain('This login link works only once, in the tab where the login started');
    expect(status().textContent).to.not.match(/^You're logged in/);
    expect(status().querySelector('p')!.className, 'explained, not in the colour of errors').to.equal('');
    expect(events.map((e) => e.detail.code)).to.deep.equal(['state_mismatch']);
    expect(el.shadowRoot!.querySelector('[part=retry]')).to.equal(null);
    expect(back(el)?.getAttribute('href')).to.equal('/');
  });

  it('links back to the site root, not to an off-origin return-to', async () => {
    leave({ code: code('access_denied'), flow: { ...flow, returnTo: '//evil.example/' } });
    const { el } = await callback();
    expect(back(el)?.getAttribute('href')).to.equal('/');
  });

  it('gives the focus to the link back when there is nothing to try again', async () => {
    leave({ code: code('state_expired'), flow: code('state_expired') });
    const { el } = await callback();
    await el.updateComplete;
    expect(el.shadowRoot!.activeElement).to.equal(back(el));
  });

  it('shows an unknown code as invalid_response', async () => {
    leave({ code: 99, flow });
    const { events } = await callback();
    expect(events[0]!.detail.code).to.equal('invalid_response');
  });

  it('shows a state problem without a flow', async () => {
    leave({ code: code('state_mismatch'), flow: code('state_mismatch') });
    const { events } = await callback();
    expect(events[0]!.detail.code).to.equal('state_mismatch');
  });

  it('is accessible in each state', async () => {
    leave({ code: code('access_denied'), flow });
    const { el } = await callback();
    await expect(el).to.be.accessible();
  });

  it('is accessible in dark mode', async () => {
    await emulateMedia({ colorScheme: 'dark' });
    document.documentElement.style.cssText = 'color-scheme: light dark; background: #16161a; color: #eee';
    try {
      leave({ code: code('backend_rejected'), flow });
      const { el } = await callback();
      await expect(el).to.be.accessible();
    } finally {
      document.documentElement.style.cssText = '';
      await emulateMedia({ colorScheme: 'light' });
    }
  });

  it('fires once per document, however many elements upgrade', async () => {
    leave({ code: code('access_denied'), flow });
    const { events } = await callback(
      html`<div><itch-oauth-callback></itch-oauth-callback><itch-oauth-callback></itch-oauth-callback></div>`,
    );
    expect(events).to.have.length(1);
  });

  it('reads the outcome once: it is gone from storage afterwards', async () => {
    leave({ code: code('access_denied'), flow });
    await callback();
    expect(sessionStorage.getItem(OUTCOME_KEY)).to.equal(null);
  });

  it('never renders text from the outcome as HTML', async () => {
    leave({ response: '<img src=x onerror="window.__pwned=1">', flow });
    const { el } = await callback(html`<itch-oauth-callback no-redirect></itch-oauth-callback>`);
    expect(el.shadowRoot!.querySelector('img')).to.equal(null);
    expect((window as { __pwned?: number }).__pwned).to.equal(undefined);
  });
});

describe('<itch-oauth-callback> Try again', () => {
  it('starts a fresh login with a new state and the same application, scopes and return-to', async () => {
    leave({ code: code('backend_rejected'), flow });
    const el = await fixture<ItchOAuthCallback>(html`<itch-oauth-callback></itch-oauth-callback>`);
    const visited: string[] = [];
    el.navigate = (url) => void visited.push(url);
    el.shadowRoot!.querySelector<HTMLButtonElement>('[part=retry]')!.click();
    expect(visited).to.have.length(1);
    const url = new URL(visited[0]!);
    expect(Object.fromEntries(url.searchParams)).to.include({ client_id: 'abc', scope: 'profile:me', response_type: 'token' });
    const state = url.searchParams.get('state')!;
    expect(JSON.parse(sessionStorage.getItem(STATE_KEY_PREFIX + state)!)).to.include({ returnTo: '/play?level=2', clientId: 'abc' });
  });

  it('is not offered when this tab does not remember the login (its state unknown, expired or missing)', async () => {
    for (const name of ['state_mismatch', 'state_expired', 'state_missing'] as const) {
      leave({ code: code(name), flow: code(name) });
      const { el } = await callback();
      expect(el.shadowRoot!.querySelector('[part=retry]'), name).to.equal(null);
      expect(back(el)?.getAttribute('href'), name).to.equal('/');
    }
  });
});
