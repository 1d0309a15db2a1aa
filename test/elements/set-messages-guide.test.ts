// The languages guide's setMessages listing, as a page of the npm package runs it: a German button
// already on the page says the site's words, one added later too, and a button in another language
// keeps its own. Against the built package, as the guide imports it.
import { fixture, html, waitUntil } from '@open-wc/testing';
import 'itch-oauth-widget/define';

const label = (el: Element) => el.shadowRoot?.querySelector('[part=label] slot')?.textContent ?? '';

describe("the languages guide's setMessages listing", () => {
  it('gives every German button of the page the site’s words, on the page already and added later', async () => {
    const first = await fixture<HTMLElement>(
      html`<div lang="de"><itch-login-button client-id="c" redirect-uri="https://example.test/cb"></itch-login-button></div>`,
    );
    const already = first.querySelector('itch-login-button')!;
    await waitUntil(() => label(already) === 'Mit itch.io anmelden', 'the shipped German label first');
    await import('./fixtures/languages-guide-set-messages.js');
    await waitUntil(() => label(already) === 'Mit itch.io einloggen', `re-rendered: ${label(already)}`);
    const later = await fixture<HTMLElement>(
      html`<div lang="de"><itch-login-button client-id="c" redirect-uri="https://example.test/cb"></itch-login-button></div>`,
    );
    await waitUntil(() => label(later.querySelector('itch-login-button')!) === 'Mit itch.io einloggen');
    const english = await fixture<HTMLElement>(
      html`<div lang="en"><itch-login-button client-id="c" redirect-uri="https://example.test/cb"></itch-login-button></div>`,
    );
    await waitUntil(() => label(english.querySelector('itch-login-button')!) === 'Log in with itch.io', 'other languages keep theirs');
  });
});
