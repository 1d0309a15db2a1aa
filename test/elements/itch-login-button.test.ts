import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { emulateMedia } from '@web/test-runner-commands';
import '../../src/define.js';
import type { ItchLoginButton } from '../../src/elements/itch-login-button.js';
import { ITCH_LOGIN_BUTTON_PREUPGRADE_CSS } from '../../src/elements/itch-login-button.styles.js';
import { STATE_KEY_PREFIX } from '../../src/core/state.js';
import { problems } from '../../src/i18n/locales/en.js';

const REDIRECT = 'https://game.example/callback.html';

/** A button whose navigation is recorded instead of leaving the test page. */
async function button(template = html`<itch-login-button client-id="abc" redirect-uri=${REDIRECT}></itch-login-button>`) {
  const el = await fixture<ItchLoginButton>(template);
  const visits: string[] = [];
  el.navigate = (url) => void visits.push(url);
  return { el, visits, inner: el.shadowRoot!.querySelector('button')! };
}

function savedFlows() {
  return Object.keys(sessionStorage).filter((key) => key.startsWith(STATE_KEY_PREFIX));
}

describe('<itch-login-button>', () => {
  let errors: unknown[][];
  const originalError = console.error;
  beforeEach(() => {
    sessionStorage.clear();
    errors = [];
    console.error = (...args: unknown[]) => void errors.push(args);
  });
  afterEach(() => {
    console.error = originalError;
  });

  it('renders a native button named by its default label', async () => {
    const { inner } = await button();
    expect(inner.tagName).to.equal('BUTTON');
    expect(inner.getAttribute('part')).to.equal('button');
    expect(inner.textContent).to.contain('Log in with itch.io');
    expect(inner.disabled).to.equal(false);
  });

  it('takes its label from the default slot', async () => {
    const { el } = await button(html`<itch-login-button client-id="abc" redirect-uri=${REDIRECT}>Sign in</itch-login-button>`);
    const slot = el.shadowRoot!.querySelector('slot')!;
    expect(slot.assignedNodes().map((n) => n.textContent)).to.deep.equal(['Sign in']);
  });

  it('is accessible', async () => {
    const { el } = await button();
    await expect(el).to.be.accessible();
  });

  it('is accessible in dark mode, with its dark colours', async () => {
    await emulateMedia({ colorScheme: 'dark' });
    document.documentElement.style.cssText = 'color-scheme: light dark; background: #16161a; color: #eee';
    try {
      const { el, inner } = await button();
      expect(getComputedStyle(inner).backgroundColor).to.equal('rgb(255, 107, 107)');
      await expect(el).to.be.accessible();
    } finally {
      document.documentElement.style.cssText = '';
      await emulateMedia({ colorScheme: 'light' });
    }
  });

  it('stays light on a page that does not declare dark support, even on a dark system', async () => {
    await emulateMedia({ colorScheme: 'dark' });
    try {
      const { inner } = await button();
      expect(getComputedStyle(inner).backgroundColor).to.equal('rgb(214, 59, 59)');
    } finally {
      await emulateMedia({ colorScheme: 'light' });
    }
  });

  it('offers exactly the parts button, icon and label for ::part() styling', async () => {
    const { el } = await button();
    const parts = [...el.shadowRoot!.querySelectorAll('[part]')].map((n) => n.getAttribute('part'));
    expect(parts).to.have.members(['button', 'icon', 'label']);
  });

  it('builds the authorization address with every parameter on click', async () => {
    const { inner, visits } = await button(
      html`<itch-login-button client-id="abc" redirect-uri=${REDIRECT} scope="profile:me profile:games" base-url="http://127.0.0.1:4824/itch"></itch-login-button>`,
    );
    inner.click();
    expect(visits).to.have.length(1);
    const url = new URL(visits[0]!);
    expect(url.origin + url.pathname).to.equal('http://127.0.0.1:4824/itch/user/oauth');
    const params = Object.fromEntries(url.searchParams);
    expect(params).to.include({ client_id: 'abc', redirect_uri: REDIRECT, response_type: 'token', scope: 'profile:me profile:games' });
    expect(params['state']).to.match(/^[A-Za-z0-9_-]{43}$/);
  });

  it('stores the flow under the state it sends', async () => {
    const { inner, visits } = await button(
      html`<itch-login-button client-id="abc" redirect-uri=${REDIRECT} return-to="/play?level=2"></itch-login-button>`,
    );
    inner.click();
    const state = new URL(visits[0]!).searchParams.get('state');
    const record = JSON.parse(sessionStorage.getItem(STATE_KEY_PREFIX + state)!);
    expect(record).to.include({
      returnTo: '/play?level=2',
      mode: 'redirect',
      clientId: 'abc',
      redirectUri: REDIRECT,
      scope: 'profile:me',
      baseUrl: 'https://itch.io',
    });
    expect(Date.now() - record.createdAt).to.be.within(0, 1000);
  });

  it('returns to the current path and query by default', async () => {
    const { inner } = await button();
    inner.click();
    const record = JSON.parse(sessionStorage.getItem(savedFlows()[0]!)!);
    expect(record.returnTo).to.equal(location.pathname + location.search);
  });

  it('fires a cancelable itch-login-start with the address before navigating', async () => {
    const { el, inner, visits } = await button();
    setTimeout(() => inner.click());
    const event = await oneEvent(el, 'itch-login-start');
    expect(event.cancelable).to.equal(true);
    expect(event.bubbles && event.composed).to.equal(true);
    expect(visits).to.deep.equal([event.detail.url]);
  });

  it('does not navigate, and forgets the flow, when itch-login-start is canceled', async () => {
    const { el, inner, visits } = await button();
    el.addEventListener('itch-login-start', (e) => e.preventDefault());
    inner.click();
    expect(visits).to.deep.equal([]);
    expect(savedFlows()).to.deep.equal([]);
  });

  it('starts one flow on a double click', async () => {
    const { inner, visits } = await button();
    inner.click();
    inner.click();
    expect(visits).to.have.length(1);
    expect(savedFlows()).to.have.length(1);
  });

  it('is aria-busy while its popup login is under way, and not once the outcome is reported', async () => {
    const realOpen = window.open;
    const realFetch = window.fetch;
    let answer: Response = Response.json({ pending: true }, { status: 202 });
    window.open = (() => ({ closed: false, close() {}, focus() {}, location: { href: '' } }) as unknown as Window) as typeof window.open;
    window.fetch = (async () => answer.clone()) as typeof window.fetch;
    try {
      const { el, inner } = await button(
        html`<itch-login-button client-id="abc" redirect-uri=${REDIRECT} mode="popup" backend="/auth/itch"></itch-login-button>`,
      );
      expect(inner.hasAttribute('aria-busy')).to.equal(false);
      inner.click();
      await el.updateComplete;
      expect(inner.getAttribute('aria-busy')).to.equal('true');
      answer = Response.json({ user: { id: 7 } });
      await oneEvent(el, 'itch-login-success');
      await el.updateComplete;
      expect(inner.hasAttribute('aria-busy')).to.equal(false);
    } finally {
      window.open = realOpen;
      window.fetch = realFetch;
    }
  });

  it('does nothing when disabled', async () => {
    const { inner, visits } = await button(html`<itch-login-button client-id="abc" redirect-uri=${REDIRECT} disabled></itch-login-button>`);
    inner.click();
    expect(inner.disabled).to.equal(true);
    expect(visits).to.deep.equal([]);
  });

  const bad: [string, ReturnType<typeof html>, RegExp][] = [
    ['a missing client-id', html`<itch-login-button redirect-uri=${REDIRECT}></itch-login-button>`, /client-id is required/],
    ['a missing redirect-uri', html`<itch-login-button client-id="abc"></itch-login-button>`, /redirect-uri is required/],
    [
      'an unknown scope',
      html`<itch-login-button client-id="abc" redirect-uri=${REDIRECT} scope="profile:email"></itch-login-button>`,
      /unknown itch.io scope/,
    ],
    [
      'a non-http base-url',
      html`<itch-login-button client-id="abc" redirect-uri=${REDIRECT} base-url="javascript:alert(1)"></itch-login-button>`,
      /base-url/,
    ],
    [
      'an off-origin return-to',
      html`<itch-login-button client-id="abc" redirect-uri=${REDIRECT} return-to="//evil.example"></itch-login-button>`,
      /return-to/,
    ],
    [
      'popup mode without a backend',
      html`<itch-login-button client-id="abc" redirect-uri=${REDIRECT} mode="popup"></itch-login-button>`,
      /popup/,
    ],
  ];
  for (const [what, template, message] of bad) {
    it(`disables itself, says why once and fires config_invalid for ${what}`, async () => {
      const caught: CustomEvent[] = [];
      document.addEventListener('itch-login-error', (e) => caught.push(e), { once: true });
      const { el, inner, visits } = await button(template);
      // A re-render checks the configuration again: the reason is still said once.
      el.messages = {};
      await el.updateComplete;
      inner.click();
      expect(inner.disabled).to.equal(true);
      expect(visits).to.deep.equal([]);
      expect(errors).to.have.length(1);
      expect(String(errors[0]![0])).to.match(message);
      expect(caught.map((e) => e.detail.code)).to.deep.equal(['config_invalid']);
    });
  }

  it('becomes usable once its configuration is fixed', async () => {
    const { el, inner } = await button(html`<itch-login-button redirect-uri=${REDIRECT}></itch-login-button>`);
    el.clientId = 'abc';
    await el.updateComplete;
    expect(inner.disabled).to.equal(false);
  });

  it('reports cookies_blocked instead of throwing when the browser refuses storage', async () => {
    const { el, inner, visits } = await button();
    const original = Storage.prototype.setItem;
    Storage.prototype.setItem = () => {
      throw new DOMException('denied', 'SecurityError');
    };
    try {
      setTimeout(() => inner.click());
      const event = await oneEvent(el, 'itch-login-error');
      expect(event.detail.code).to.equal('cookies_blocked');
    } finally {
      Storage.prototype.setItem = original;
    }
    expect(visits).to.deep.equal([]);
  });

  it("says cookies_blocked in the player's words, which a page may show, and not in the console: nothing there to fix", async () => {
    const { el, inner } = await button();
    const original = Storage.prototype.setItem;
    Storage.prototype.setItem = () => {
      throw new DOMException('denied', 'SecurityError');
    };
    try {
      setTimeout(() => inner.click());
      const event = await oneEvent(el, 'itch-login-error');
      expect(event.detail.message).to.equal(problems.cookies_blocked);
    } finally {
      Storage.prototype.setItem = original;
    }
    expect(errors).to.deep.equal([]);
  });

  it('takes the properties a script set before the element was defined', async () => {
    const host = await fixture<HTMLElement>(html`<div><early-login-button></early-login-button></div>`);
    const early = host.querySelector('early-login-button') as ItchLoginButton;
    Object.assign(early, { clientId: 'abc', redirectUri: REDIRECT, disabled: true });
    const { ItchLoginButton } = await import('../../src/elements/itch-login-button.js');
    customElements.define('early-login-button', class extends ItchLoginButton {});
    await early.updateComplete;
    expect([early.clientId, early.redirectUri, early.hasAttribute('disabled')]).to.deep.equal(['abc', REDIRECT, true]);
    const inner = early.shadowRoot!.querySelector('button')!;
    expect(inner.disabled).to.equal(true);
    early.disabled = false;
    await early.updateComplete;
    expect(inner.disabled).to.equal(false);
    expect(errors).to.deep.equal([]);
  });

  it('gives a property its default back when its attribute is removed', async () => {
    const { el } = await button(html`<itch-login-button client-id="abc" redirect-uri=${REDIRECT} scope="profile:me"></itch-login-button>`);
    el.removeAttribute('scope');
    el.removeAttribute('client-id');
    expect([el.scope, el.clientId]).to.deep.equal(['profile:me', '']);
  });

  it('takes clicks on its whole box when the page makes it a block, with a width and a height', async () => {
    const { el, inner } = await button(
      html`<itch-login-button style="display: block; width: 30rem; height: 5rem" client-id="abc" redirect-uri=${REDIRECT}></itch-login-button>`,
    );
    const box = el.getBoundingClientRect();
    const points = [
      [box.left + 2, box.top + 2],
      [box.right - 2, box.top + 2],
      [box.left + 2, box.bottom - 2],
      [box.right - 2, box.bottom - 2],
      [box.left + box.width / 2, box.top + box.height / 2],
    ] as const;
    const missed = points.filter(([x, y]) => el.shadowRoot!.elementFromPoint(x, y)?.closest('[part=button]') !== inner);
    expect(missed, 'the points of the box that the inner button does not cover').to.deep.equal([]);
  });

  it("renders the styling guide's listings as the guide says: round, no icon, a block up to 24rem wide", async () => {
    const page = await (await fetch(new URL('./fixtures/styling-guide.html', import.meta.url))).text();
    const host = await fixture<HTMLElement>(html`<div style="width: 60rem"></div>`);
    host.innerHTML = page;
    const buttons = [...host.querySelectorAll<ItchLoginButton>('itch-login-button')];
    expect(buttons).to.have.length(2);
    const [labelled, plain] = buttons as [ItchLoginButton, ItchLoginButton];
    await Promise.all([labelled.updateComplete, plain.updateComplete]);
    const inner = labelled.shadowRoot!.querySelector<HTMLElement>('[part=button]')!;
    expect(getComputedStyle(inner).borderTopLeftRadius).to.equal('999px');
    expect(getComputedStyle(labelled.shadowRoot!.querySelector('[part=icon]')!).display).to.equal('none');
    expect(labelled.textContent).to.equal('Sign in');
    expect(getComputedStyle(plain).display).to.equal('block');
    expect(plain.getBoundingClientRect().width).to.equal(24 * 16);
  });

  it('takes the same box before and after it upgrades, with the documented rule', async () => {
    const style = document.createElement('style');
    style.textContent = ITCH_LOGIN_BUTTON_PREUPGRADE_CSS.replace(/itch-login-button/g, 'late-login-button');
    document.head.append(style);
    const host = await fixture<HTMLElement>(
      html`<div style="font: 16px sans-serif"><late-login-button>Log in with itch.io</late-login-button></div>`,
    );
    const late = host.querySelector('late-login-button')!;
    const before = late.getBoundingClientRect();
    const { ItchLoginButton } = await import('../../src/elements/itch-login-button.js');
    customElements.define('late-login-button', class extends ItchLoginButton {});
    await (late as ItchLoginButton).updateComplete;
    const after = late.getBoundingClientRect();
    expect(Math.abs(after.width - before.width)).to.be.below(1.5);
    expect(Math.abs(after.height - before.height)).to.be.below(1.5);
    style.remove();
  });
});
