// <itch-oauth-callback> in a popup whose login ended there (the capture keeps no flow for a popup
// login: `flow: 0`): what happened, what to do next, and Close, never "Try again" (which would
// lead the popup to a page of the backend's site).
import { expect, fixture, html } from '@open-wc/testing';
import { ifDefined } from 'lit/directives/if-defined.js';
import '../../src/define.js';
import { OUTCOME_KEY, type CaptureOutcome } from '../../src/capture/outcome.js';
import { ERROR_CODES, type ItchOAuthErrorCode } from '../../src/core/errors.js';
import { documentOutcomes, type ItchOAuthCallback } from '../../src/elements/itch-oauth-callback.js';
import { problems, callback as words } from '../../src/i18n/locales/en.js';

function leave(outcome: CaptureOutcome) {
  documentOutcomes.delete(document);
  sessionStorage.clear();
  sessionStorage.setItem(OUTCOME_KEY, JSON.stringify(outcome));
}

const refusal = (code: ItchOAuthErrorCode, response?: unknown): CaptureOutcome => ({ code: ERROR_CODES.indexOf(code), response, flow: 0 });

async function shown(outcome: CaptureOutcome | undefined, backUrl?: string) {
  if (outcome) leave(outcome);
  else documentOutcomes.delete(document);
  const el = await fixture<ItchOAuthCallback>(
    html`<itch-oauth-callback store-url="https://pixelforge.itch.io/starfall-keep" back-url=${ifDefined(backUrl)}></itch-oauth-callback>`,
  );
  await new Promise((resolve) => setTimeout(resolve));
  const root = el.shadowRoot!;
  return {
    el,
    text: root.querySelector('[part=status]')!.textContent!.replace(/\s+/g, ' '),
    close: root.querySelector<HTMLButtonElement>('[part=close]'),
    retry: root.querySelector('[part=retry]'),
    back: root.querySelector('[part=back]'),
  };
}

describe('<itch-oauth-callback> in a popup whose login ended there', () => {
  it('says how to get the game or switch accounts after not_owner, with Close and no Try again', async () => {
    const { text, close, retry, back } = await shown(refusal('backend_rejected', { errors: ['no'], code: 'not_owner' }));
    expect(text).to.contain('You need to own this game on itch.io to continue.');
    expect(text).to.contain('log out there to use the account that owns it');
    expect(close?.textContent).to.equal('Close');
    expect(retry).to.equal(null);
    expect(back, 'no link to the backend’s site').to.equal(null);
  });

  it('says how to use another account after a refusal the backend explained', async () => {
    const { text } = await shown(refusal('backend_rejected', { errors: ['the token lacks game:view:ownership'] }));
    expect(text).to.contain('To use another itch.io account, log out on itch.io');
  });

  it('says to try again in a minute, not a refusal, when the server or itch.io could not answer', async () => {
    const { text, close } = await shown(refusal('service_unavailable'));
    expect(text).to.contain('is not answering right now. Try again in a minute.');
    expect(text).not.to.contain('refused');
    expect(Boolean(close), 'a Close control').to.equal(true);
  });

  it('says to try later when the backend could not be reached', async () => {
    const { text } = await shown(refusal('network_error'));
    expect(text).to.contain('Try again in a few minutes.');
  });

  it('closes its window with Close', async () => {
    const { el, close } = await shown(refusal('access_denied'));
    let closed = 0;
    el.closeWindow = () => void closed++;
    close!.click();
    expect(closed).to.equal(1);
  });

  it('still offers Try again after a redirect login (a flow record)', async () => {
    const flow = {
      returnTo: '/',
      mode: 'redirect',
      clientId: 'abc',
      redirectUri: 'https://game.example/cb',
      scope: 'profile:me',
      baseUrl: 'https://itch.io',
      createdAt: Date.now(),
    } as const;
    const { close, retry } = await shown({ code: ERROR_CODES.indexOf('access_denied'), flow });
    expect(close).to.equal(null);
    expect(retry).not.to.equal(null);
  });

  it('says a login link opened again works once, with Close, when the token endpoint answers that the login has an outcome (409)', async () => {
    // (The capture reports the relay's 409 as state_mismatch; its body names no code.)
    const { text, close, retry, back } = await shown(refusal('state_mismatch', { errors: ['this popup login already has an outcome'] }));
    expect(text).to.contain(words.state_used);
    expect(text).not.to.contain('refused');
    expect(close?.textContent).to.equal('Close');
    expect(retry).to.equal(null);
    expect(back, 'no link to the backend’s site').to.equal(null);
  });

  it('adds the link the site configured with back-url beside Close', async () => {
    const { close, back } = await shown(refusal('state_mismatch'), 'https://pixelforge.itch.io/starfall-keep');
    expect(close?.textContent).to.equal('Close');
    expect(back?.getAttribute('href')).to.equal('https://pixelforge.itch.io/starfall-keep');
  });

  it('offers Close only when reloaded with no login in progress, or with back-url the link it names', async () => {
    await shown(refusal('access_denied'));
    // The same tab, reloaded: the outcome is gone.
    const reloaded = await shown(undefined);
    expect(reloaded.text).to.contain(words.idle);
    expect(reloaded.close?.textContent).to.equal('Close');
    expect(reloaded.back).to.equal(null);
    const configured = await shown(undefined, '/games/starfall-keep');
    expect(configured.close?.textContent).to.equal('Close');
    expect(configured.back?.getAttribute('href')).to.equal('/games/starfall-keep');
  });

  it('never links back-url when it is not an http(s) address or a path of this site', async () => {
    for (const hostile of ['javascript:alert(1)', '//evil.example/', 'data:text/html,hi', ' https://evil.example']) {
      const { back } = await shown(refusal('state_mismatch'), hostile);
      expect(back, hostile).to.equal(null);
    }
  });

  it("says a problem in the player's words, never its code", async () => {
    const { text } = await shown(refusal('popup_unverified'));
    expect(text).to.contain(problems.popup_unverified);
    expect(text).not.to.contain('popup_unverified');
  });

  it('is accessible', async () => {
    const { el } = await shown(refusal('backend_rejected', { errors: ['no'], code: 'not_owner' }));
    await expect(el).to.be.accessible();
  });
});
