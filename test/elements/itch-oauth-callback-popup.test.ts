// <itch-oauth-callback> in a popup whose login ended there (the capture keeps no flow for a popup
// login: `flow: 0`): what happened, what to do next, and Close, never "Try again" (which would
// lead the popup to a page of the backend's site).
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/define.js';
import { OUTCOME_KEY, type CaptureOutcome } from '../../src/capture/outcome.js';
import { ERROR_CODES, type ItchOAuthErrorCode } from '../../src/core/errors.js';
import { documentOutcome, type ItchOAuthCallback } from '../../src/elements/itch-oauth-callback.js';

function leave(outcome: CaptureOutcome) {
  Object.assign(documentOutcome, { taken: false, outcome: undefined, announced: false });
  sessionStorage.clear();
  sessionStorage.setItem(OUTCOME_KEY, JSON.stringify(outcome));
}

const refusal = (code: ItchOAuthErrorCode, response?: unknown): CaptureOutcome => ({ code: ERROR_CODES.indexOf(code), response, flow: 0 });

async function shown(outcome: CaptureOutcome) {
  leave(outcome);
  const el = await fixture<ItchOAuthCallback>(
    html`<itch-oauth-callback store-url="https://pixelforge.itch.io/starfall-keep"></itch-oauth-callback>`,
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

  it('says to try again in a few minutes, not a refusal, when the server or itch.io could not answer', async () => {
    const { text, close } = await shown(refusal('service_unavailable'));
    expect(text).to.contain('is not answering right now. Try again in a few minutes.');
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

  it('is accessible', async () => {
    const { el } = await shown(refusal('backend_rejected', { errors: ['no'], code: 'not_owner' }));
    await expect(el).to.be.accessible();
  });
});
