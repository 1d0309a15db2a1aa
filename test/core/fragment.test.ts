import { expect } from '@open-wc/testing';
import fc from 'fast-check';
import { ItchOAuthError } from '../../src/core/errors.js';
import { MAX_FRAGMENT_LENGTH, isCallbackFragment, parseCallbackFragment } from '../../src/core/fragment.js';

const TOKEN = 'tok_SECRET_8e1f0c2a9b';

function expectInvalid(fragment: string, message: RegExp) {
  let caught: unknown;
  try {
    parseCallbackFragment(fragment);
  } catch (error) {
    caught = error;
  }
  expect(caught).to.be.instanceOf(ItchOAuthError);
  expect((caught as ItchOAuthError).code).to.equal('invalid_response');
  expect((caught as ItchOAuthError).message).to.match(message);
  expect((caught as ItchOAuthError).message).to.not.contain(TOKEN);
}

describe('parseCallbackFragment', () => {
  it('reads a token and its state', () => {
    expect(parseCallbackFragment(`#access_token=${TOKEN}&state=S1`)).to.deep.equal({
      type: 'token',
      accessToken: TOKEN,
      state: 'S1',
    });
  });

  it('reads a token without state (the state check then refuses it)', () => {
    expect(parseCallbackFragment(`access_token=${TOKEN}`)).to.deep.equal({ type: 'token', accessToken: TOKEN });
  });

  it('decodes form encoding', () => {
    expect(parseCallbackFragment('#access_token=a%2Bb&state=x%20y+z')).to.deep.equal({
      type: 'token',
      accessToken: 'a+b',
      state: 'x y z',
    });
  });

  it('reads the RFC 6749 error form', () => {
    expect(parseCallbackFragment('#error=access_denied&error_description=The+user+said+no&state=S1')).to.deep.equal({
      type: 'error',
      error: 'access_denied',
      errorDescription: 'The user said no',
      state: 'S1',
    });
  });

  it('ignores unrecognised parameters (RFC 6749 section 4.2.2)', () => {
    expect(parseCallbackFragment(`#access_token=${TOKEN}&token_type=bearer&state=S`)).to.deep.equal({
      type: 'token',
      accessToken: TOKEN,
      state: 'S',
    });
  });

  it('refuses a repeated parameter', () => expectInvalid(`#access_token=${TOKEN}&access_token=other&state=S`, /repeated/));
  it('refuses a repeated state', () => expectInvalid(`#access_token=${TOKEN}&state=A&state=B`, /repeated/));
  it('refuses a bad percent-escape', () => expectInvalid(`#access_token=${TOKEN}%E0%A4%A&state=S`, /percent-escape/));
  it('refuses an empty token', () => expectInvalid('#access_token=&state=S', /access_token is empty/));
  it('refuses a token with a space', () => expectInvalid('#access_token=a%20b&state=S', /access_token/));
  it('refuses a token with a control character', () => expectInvalid('#access_token=a%0Ab&state=S', /access_token/));
  it('refuses both a token and an error', () => expectInvalid(`#access_token=${TOKEN}&error=x&state=S`, /both/));
  it('refuses neither a token nor an error', () => expectInvalid('#state=S', /neither/));
  it('refuses an empty state', () => expectInvalid(`#access_token=${TOKEN}&state=`, /state is empty/));
  it('refuses an oversized fragment', () =>
    expectInvalid(`#access_token=${TOKEN}&state=${'x'.repeat(MAX_FRAGMENT_LENGTH)}`, /longer than/));
  it('refuses an error with a quote', () => expectInvalid('#error=a%22b&state=S', /error is empty/));

  it('drops an error_description outside the RFC character set', () => {
    expect(parseCallbackFragment('#error=access_denied&error_description=%3Cb%3E%22x%22&state=S')).to.deep.equal({
      type: 'error',
      error: 'access_denied',
      state: 'S',
    });
  });
});

describe('isCallbackFragment', () => {
  it('recognises a token response', () => expect(isCallbackFragment(`#access_token=${TOKEN}&state=S`)).to.equal(true));
  it('recognises a token response whatever the order', () => expect(isCallbackFragment(`#state=S&access_token=t`)).to.equal(true));
  it('recognises an error response', () => expect(isCallbackFragment('#error=access_denied')).to.equal(true));
  it('leaves an app fragment alone', () => expect(isCallbackFragment('#/games/42')).to.equal(false));
  it('leaves a lookalike alone', () => expect(isCallbackFragment('#my_access_token=1&terror=2')).to.equal(false));
  it('leaves an empty fragment alone', () => expect(isCallbackFragment('')).to.equal(false));
});

describe('parseCallbackFragment properties', () => {
  const vschar = fc.stringMatching(/^[\x21-\x7e]{1,64}$/);

  it('round-trips any well-formed token and state', () => {
    fc.assert(
      fc.property(vschar, vschar, (token, state) => {
        const fragment = `#${new URLSearchParams({ access_token: token, state })}`;
        expect(parseCallbackFragment(fragment)).to.deep.equal({ type: 'token', accessToken: token, state });
        expect(isCallbackFragment(fragment)).to.equal(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('round-trips with the parameters in any order', () => {
    fc.assert(
      fc.property(vschar, vschar, (token, state) => {
        const fragment = `state=${encodeURIComponent(state)}&access_token=${encodeURIComponent(token)}`;
        expect(parseCallbackFragment(fragment)).to.deep.equal({ type: 'token', accessToken: token, state });
      }),
    );
  });

  it('never throws anything but ItchOAuthError, and never echoes the token', () => {
    const parts = fc.oneof(
      fc.string(),
      fc.constantFrom('access_token=', 'state=', 'error=', '&', '=', '%', '%E0', '%zz', '+', '#', 'error_description='),
      fc.string({ unit: 'binary' }),
    );
    fc.assert(
      fc.property(fc.array(parts, { maxLength: 12 }), fc.boolean(), (pieces, withToken) => {
        const fragment = (withToken ? `access_token=${TOKEN}&` : '') + pieces.join('');
        try {
          parseCallbackFragment(fragment);
        } catch (error) {
          expect(error).to.be.instanceOf(ItchOAuthError);
          expect((error as ItchOAuthError).code).to.equal('invalid_response');
          expect(String((error as Error).message)).to.not.contain(TOKEN);
          expect(String((error as Error).stack)).to.not.contain(TOKEN);
        }
      }),
      { numRuns: 3000 },
    );
  });
});
