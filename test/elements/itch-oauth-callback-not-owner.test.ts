// <itch-oauth-callback> after a `not_owner` refusal: the words, the event, and the store link of
// its `store-url` attribute (http and https only).
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/define.js';
import { OUTCOME_KEY, type CaptureOutcome } from '../../src/capture/outcome.js';
import { ERROR_CODES } from '../../src/core/errors.js';
import type { FlowRecord } from '../../src/core/state.js';
import { documentOutcomes, type ItchOAuthCallback } from '../../src/elements/itch-oauth-callback.js';

const flow: FlowRecord = {
  returnTo: '/vault.html',
  mode: 'redirect',
  clientId: 'abc',
  redirectUri: 'https://game.example/callback.html',
  scope: 'profile:me',
  baseUrl: 'https://itch.io',
  createdAt: Date.now(),
};

function leaveNotOwner() {
  documentOutcomes.delete(document);
  sessionStorage.clear();
  sessionStorage.setItem(OUTCOME_KEY, JSON.stringify({ code: ERROR_CODES.indexOf('not_owner'), flow } satisfies CaptureOutcome));
}

async function shown(template: ReturnType<typeof html>) {
  const events: CustomEvent[] = [];
  const record = (e: Event) => events.push(e as CustomEvent);
  document.addEventListener('itch-login-error', record);
  const el = await fixture<ItchOAuthCallback>(template);
  await new Promise((resolve) => setTimeout(resolve));
  document.removeEventListener('itch-login-error', record);
  return { el, events, link: () => el.shadowRoot!.querySelector<HTMLAnchorElement>('[part=store]') };
}

describe('<itch-oauth-callback> after not_owner', () => {
  it('says the game must be owned, and fires itch-login-error with code not_owner', async () => {
    leaveNotOwner();
    const { el, events } = await shown(html`<itch-oauth-callback></itch-oauth-callback>`);
    expect(el.shadowRoot!.querySelector('[part=status]')!.textContent).to.contain('You need to own this game on itch.io to continue.');
    expect(events.map((e) => e.detail.code)).to.deep.equal(['not_owner']);
  });

  it('links the store-url page', async () => {
    leaveNotOwner();
    const { link } = await shown(html`<itch-oauth-callback store-url="https://pixelforge.itch.io/starfall-keep"></itch-oauth-callback>`);
    expect(link()?.href).to.equal('https://pixelforge.itch.io/starfall-keep');
    expect(link()?.textContent).to.equal('Get it on itch.io');
  });

  it('shows no link without store-url', async () => {
    leaveNotOwner();
    const { link } = await shown(html`<itch-oauth-callback></itch-oauth-callback>`);
    expect(link()?.getAttribute('href') ?? null).to.equal(null);
  });

  it('shows no link for a store-url that is not http(s)', async () => {
    leaveNotOwner();
    const { link } = await shown(html`<itch-oauth-callback store-url="javascript:alert(1)"></itch-oauth-callback>`);
    expect(link()?.getAttribute('href') ?? null).to.equal(null);
  });

  it('shows no store link after other errors', async () => {
    documentOutcomes.delete(document);
    sessionStorage.setItem(OUTCOME_KEY, JSON.stringify({ code: ERROR_CODES.indexOf('backend_rejected'), flow } satisfies CaptureOutcome));
    const { link } = await shown(html`<itch-oauth-callback store-url="https://pixelforge.itch.io/starfall-keep"></itch-oauth-callback>`);
    expect(link()?.getAttribute('href') ?? null).to.equal(null);
  });
});
