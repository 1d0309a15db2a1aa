import { expect } from '@open-wc/testing';
import { buildAuthorizeUrl, type AuthorizeUrlOptions } from '../../src/core/authorize-url.js';
import { ItchOAuthError } from '../../src/core/errors.js';

const base: AuthorizeUrlOptions = {
  clientId: 'abc123',
  redirectUri: 'https://game.example/callback?from=button',
  scope: 'profile:me',
  state: 'STATE',
};

function configError(options: Partial<AuthorizeUrlOptions>, message: RegExp) {
  expect(() => buildAuthorizeUrl({ ...base, ...options }))
    .to.throw(ItchOAuthError, message)
    .with.property('code', 'config_invalid');
}

describe('buildAuthorizeUrl', () => {
  it('builds the itch.io authorization address with every parameter', () => {
    const url = buildAuthorizeUrl(base);
    expect(url.origin + url.pathname).to.equal('https://itch.io/user/oauth');
    expect(Object.fromEntries(url.searchParams)).to.deep.equal({
      client_id: 'abc123',
      scope: 'profile:me',
      redirect_uri: 'https://game.example/callback?from=button',
      response_type: 'token',
      state: 'STATE',
    });
  });

  it('form-encodes the parameters and separates scopes with a space', () => {
    const url = buildAuthorizeUrl({ ...base, scope: ['profile:me', 'profile:games'] });
    expect(url.search).to.contain('scope=profile%3Ame+profile%3Agames');
    expect(url.search).to.contain('redirect_uri=https%3A%2F%2Fgame.example%2Fcallback%3Ffrom%3Dbutton');
  });

  it('keeps a path prefix of the base URL', () => {
    const url = buildAuthorizeUrl({ ...base, baseUrl: 'http://127.0.0.1:4824/itch/' });
    expect(url.href.split('?')[0]).to.equal('http://127.0.0.1:4824/itch/user/oauth');
  });

  it('accepts the out-of-band redirect URI', () => {
    const url = buildAuthorizeUrl({ ...base, redirectUri: 'urn:ietf:wg:oauth:2.0:oob' });
    expect(url.searchParams.get('redirect_uri')).to.equal('urn:ietf:wg:oauth:2.0:oob');
  });

  it('always asks for response_type=token', () => {
    expect(buildAuthorizeUrl(base).searchParams.getAll('response_type')).to.deep.equal(['token']);
  });

  it('refuses an empty client id', () => configError({ clientId: ' ' }, /client-id is required/));
  it('refuses an empty redirect URI', () => configError({ redirectUri: '' }, /redirect-uri is required/));
  it('refuses a relative redirect URI', () => configError({ redirectUri: '/callback' }, /absolute URL/));
  it('refuses a non-http redirect URI', () => configError({ redirectUri: 'javascript:alert(1)' }, /http\(s\)/));
  it('refuses a redirect URI with a fragment', () => configError({ redirectUri: 'https://a.example/cb#x' }, /fragment/));
  it('refuses an unknown scope', () => configError({ scope: 'profile:me admin' }, /unknown itch.io scope "admin"/));
  it('refuses a non-http base URL', () => configError({ baseUrl: 'ftp://itch.io' }, /base-url must be an http\(s\) URL/));
  it('refuses a relative base URL', () => configError({ baseUrl: 'itch.io' }, /base-url must be an absolute URL/));
  it('refuses a base URL with credentials', () => configError({ baseUrl: 'https://u:p@itch.io' }, /credentials/));
  it('refuses an empty state', () => configError({ state: '' }, /state is required/));

  it('sends an unknown scope only when dangerouslyAllowUnknownScopes is set', () => {
    const url = buildAuthorizeUrl({ ...base, scope: 'beta:thing', dangerouslyAllowUnknownScopes: true });
    expect(url.searchParams.get('scope')).to.equal('beta:thing');
  });
});
