// The elements' language: the closest `lang` attribute, else the browser's, else English; a
// locale is loaded the first time it is needed; a site overrides any message.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../src/define.js';
import { OUTCOME_KEY } from '../../src/capture/outcome.js';
import { ERROR_CODES } from '../../src/core/errors.js';
import { documentOutcomes, type ItchOAuthCallback } from '../../src/elements/itch-oauth-callback.js';
import type { ItchLoginButton } from '../../src/elements/itch-login-button.js';
import { messagesFor, setMessages } from '../../src/i18n/messages.js';
import { widget } from '../../src/i18n/locales/en.js';

const label = (el: ItchLoginButton) => el.shadowRoot?.querySelector('[part=label] slot')?.textContent ?? '';
const says = async (el: ItchLoginButton, text: string) =>
  waitUntil(() => label(el) === text, `label is "${label(el)}", not "${text}"`, { timeout: 3000 });
const button = (lang?: string) =>
  fixture<HTMLElement>(
    html`<div lang=${lang ?? ''}><itch-login-button client-id="c" redirect-uri="https://example.test/cb"></itch-login-button></div>`,
  ).then((div) => div.querySelector('itch-login-button')!);

/** A callback element in a Turkish part of the page, after a popup login refused on itch.io, its Close drawn. */
async function turkishPopupRefusal(): Promise<{ div: HTMLElement; el: ItchOAuthCallback }> {
  documentOutcomes.delete(document);
  sessionStorage.setItem(OUTCOME_KEY, JSON.stringify({ code: ERROR_CODES.indexOf('access_denied'), flow: 0 }));
  const div = await fixture<HTMLElement>(html`<div lang="tr"><itch-oauth-callback></itch-oauth-callback></div>`);
  const el = div.querySelector<ItchOAuthCallback>('itch-oauth-callback')!;
  await waitUntil(() => el.shadowRoot?.querySelector('[part=close]')?.textContent === 'Kapat', 'no Turkish Close', { timeout: 3000 });
  return { div, el };
}

describe('the elements choose their language', () => {
  afterEach(() => {
    document.documentElement.lang = 'en';
    delete (navigator as { languages?: unknown }).languages;
  });

  it('speak English without a lang attribute and with an English browser', async () => {
    document.documentElement.removeAttribute('lang');
    Object.defineProperty(navigator, 'languages', { configurable: true, get: () => ['en-US'] });
    await says(await button(), 'Log in with itch.io');
  });

  it("follow the closest lang attribute, loading that locale's words", async () => {
    await says(await button('de'), 'Mit itch.io anmelden');
  });

  it('take a region of a shipped language to that language (de-AT is de)', async () => {
    await says(await button('de-AT'), 'Mit itch.io anmelden');
  });

  it("follow the document's lang when no closer element has one", async () => {
    document.documentElement.lang = 'fr';
    await says(await button(), 'Se connecter avec itch.io');
  });

  it("follow the browser's languages when the page has no lang, skipping those the package lacks", async () => {
    document.documentElement.removeAttribute('lang');
    Object.defineProperty(navigator, 'languages', { configurable: true, get: () => ['nl-NL', 'ru-RU', 'en'] });
    await says(await button(), 'Войти через itch.io');
  });

  it('are forced to a language by lang on the element itself', async () => {
    const div = await fixture<HTMLElement>(
      html`<div lang="de"><itch-login-button lang="ja" client-id="c" redirect-uri="https://example.test/cb"></itch-login-button></div>`,
    );
    await says(div.querySelector('itch-login-button')!, 'itch.io でログイン');
  });

  it("render the languages guide's listing in German on an English page", async () => {
    document.documentElement.lang = 'en';
    const page = await (await fetch(new URL('./fixtures/languages-guide.html', import.meta.url))).text();
    const host = await fixture<HTMLElement>(html`<div></div>`);
    host.innerHTML = page;
    await says(host.querySelector('itch-login-button')!, 'Mit itch.io anmelden');
  });

  it('re-render when a lang attribute changes', async () => {
    const el = await button('de');
    await says(el, 'Mit itch.io anmelden');
    el.parentElement!.lang = 'es';
    await says(el, 'Iniciar sesión con itch.io');
  });

  it('take messages from the messages property over the shipped ones', async () => {
    const el = await button('it');
    el.messages = { login: 'Entra' };
    await says(el, 'Entra');
  });

  it('take messages a site set with setMessages, and a language the package does not ship', async () => {
    setMessages('pl', { login: 'Zaloguj' });
    await says(await button('pl'), 'Zaloguj');
    setMessages('nl', { login: 'Inloggen met itch.io' });
    const dutch = await button('nl-BE');
    await says(dutch, 'Inloggen met itch.io');
    // A message the site left out is English (messagesFor takes the English words its caller shows).
    expect(messagesFor(dutch, widget)?.cancel).to.equal('Cancel');
  });

  it('keep a slotted label over any message', async () => {
    const div = await fixture<HTMLElement>(
      html`<div lang="ko"><itch-login-button client-id="c" redirect-uri="https://example.test/cb">Play</itch-login-button></div>`,
    );
    const el = div.querySelector('itch-login-button')!;
    await says(el, 'itch.io로 로그인');
    const slot = el.shadowRoot!.querySelector<HTMLSlotElement>('[part=label] slot')!;
    expect(slot.assignedNodes().map((node) => node.textContent)).to.deep.equal(['Play']);
  });

  it("show the callback's error in the page's language, with its Close", async () => {
    const { el } = await turkishPopupRefusal();
    expect(el.shadowRoot!.querySelector('.error')!.textContent).to.equal('itch.io’da girişi reddettiniz.');
  });

  it('keep the text nodes of the alert when it is drawn again with the same words: nothing to announce again', async () => {
    const { div, el } = await turkishPopupRefusal();
    const alert = el.shadowRoot!.querySelector('[role=alert]')!;
    const nodes = () =>
      [...alert.querySelectorAll('*')].flatMap((node) => [...node.childNodes].filter((child) => child.nodeType == Node.TEXT_NODE));
    const before = nodes();
    // A translation tool or the page sets lang again (the same language), or the site's messages.
    div.lang = 'tr-TR';
    el.messages = {};
    await el.updateComplete;
    expect(nodes()).to.have.length(before.length);
    nodes().forEach((node, index) => expect(node, `text node ${index}`).to.equal(before[index]));
  });
});
