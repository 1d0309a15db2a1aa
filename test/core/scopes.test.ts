import { expect } from '@open-wc/testing';
import fc from 'fast-check';
import { ITCH_SCOPES, assertRequestScopes, missingScopes, parseScopes, satisfies } from '../../src/core/scopes.js';
import { ItchOAuthError } from '../../src/core/errors.js';

describe('scopes', () => {
  it('parses a space-separated list, dropping empties and duplicates', () => {
    expect(parseScopes('  profile:me   profile:games profile:me ')).to.deep.equal(['profile:me', 'profile:games']);
  });

  it('lets a scope give itself', () => {
    expect(satisfies('profile:me', 'profile:me')).to.equal(true);
  });

  it('lets a scope give its subscopes', () => {
    expect(satisfies('profile', 'profile:me profile:owned')).to.equal(true);
    expect(satisfies('game', 'game:view:ownership')).to.equal(true);
  });

  it('never lets a subscope give its parent', () => {
    expect(satisfies('game:view:purchases', 'game:view')).to.equal(false);
    expect(satisfies('profile:me', 'profile')).to.equal(false);
  });

  it('never lets a scope give a sibling', () => {
    expect(satisfies('profile:me', 'profile:games')).to.equal(false);
    expect(satisfies('game:view:ownership', 'game:view:rewards')).to.equal(false);
  });

  it('does not treat a shared prefix without a colon as a subscope', () => {
    expect(satisfies('profile', 'profiles')).to.equal(false);
    expect(satisfies('game:view', 'game:viewer')).to.equal(false);
  });

  it('needs every required scope', () => {
    expect(satisfies('profile:me', 'profile:me profile:games')).to.equal(false);
    expect(missingScopes('profile:me', 'profile:me profile:games')).to.deep.equal(['profile:games']);
  });

  it('is satisfied by anything when nothing is required', () => {
    expect(satisfies('', '')).to.equal(true);
  });

  it('refuses an unknown scope in a request with a clear config_invalid error', () => {
    expect(() => assertRequestScopes('profile:me profile:email'))
      .to.throw(ItchOAuthError, /unknown itch.io scope "profile:email"/)
      .with.property('code', 'config_invalid');
  });

  it('accepts an unknown scope only when explicitly allowed', () => {
    expect(assertRequestScopes('profile:email', true)).to.deep.equal(['profile:email']);
  });

  it('refuses an empty scope list', () => {
    expect(() => assertRequestScopes('   ')).to.throw(ItchOAuthError, /scope is empty/);
  });

  describe('properties', () => {
    const segment = fc.stringMatching(/^[a-z]{1,6}$/);
    const scope = fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => parts.join(':'));

    it('a scope gives every scope that extends it by segments', () => {
      fc.assert(
        fc.property(scope, fc.array(segment, { maxLength: 3 }), (granted, more) => {
          expect(satisfies(granted, [granted, ...more].join(':'))).to.equal(true);
        }),
      );
    });

    it('a strictly longer scope never gives a shorter one', () => {
      fc.assert(
        fc.property(scope, segment, (required, extra) => {
          expect(satisfies(`${required}:${extra}`, required)).to.equal(false);
        }),
      );
    });

    it('satisfaction is monotonic: granting more never takes a scope away', () => {
      fc.assert(
        fc.property(fc.array(scope), fc.array(scope), scope, (granted, extra, required) => {
          if (satisfies(granted, required)) expect(satisfies([...granted, ...extra], required)).to.equal(true);
        }),
      );
    });

    it('satisfaction is transitive', () => {
      fc.assert(
        fc.property(scope, scope, scope, (a, b, c) => {
          if (satisfies(a, b) && satisfies(b, c)) expect(satisfies(a, c)).to.equal(true);
        }),
      );
    });

    it('every known itch.io scope is accepted in a request', () => {
      expect(assertRequestScopes(ITCH_SCOPES.join(' '))).to.deep.equal([...ITCH_SCOPES]);
    });
  });
});
