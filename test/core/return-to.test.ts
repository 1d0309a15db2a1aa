import { expect } from '@open-wc/testing';
import fc from 'fast-check';
import { ItchOAuthError } from '../../src/core/errors.js';
import { assertReturnTo, safeReturnTo } from '../../src/core/return-to.js';

const origin = 'https://game.example';

describe('assertReturnTo', () => {
  it('accepts a same-origin path with a query', () => {
    expect(assertReturnTo('/games/42?tab=saves&q=a%20b', origin)).to.equal('/games/42?tab=saves&q=a%20b');
  });

  it('accepts an encoded space in the path', () => {
    expect(assertReturnTo('/games/my%20game', origin)).to.equal('/games/my%20game');
  });

  it('drops a fragment', () => {
    expect(assertReturnTo('/play#level-2', origin)).to.equal('/play');
  });

  it('normalises dot segments without leaving the origin', () => {
    expect(assertReturnTo('/a/../b', origin)).to.equal('/b');
  });

  const refused: [string, string][] = [
    ['an absolute URL', 'https://evil.example/'],
    ['a same-origin absolute URL (path only is the rule)', 'https://game.example/'],
    ['a protocol-relative URL', '//evil.example'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a data: URL', 'data:text/html,hi'],
    ['a backslash trick', '/\\evil.example'],
    ['a double backslash', '\\\\evil.example'],
    ['a tab that the URL parser would drop', '/\t/evil.example'],
    ['a newline', '/\n/evil.example'],
    ['an encoded slash pair', '/%2F%2Fevil.example'],
    ['an encoded protocol-relative start', '%2F%2Fevil.example'],
    ['a doubly encoded slash pair', '/%252F%252Fevil.example'],
    ['an encoded backslash', '/%5Cevil.example'],
    ['an encoded tab', '/%09/evil.example'],
    ['a relative path', 'games/42'],
    ['a bad percent-escape', '/%E0%A4%A'],
    ['dot segments that collapse into a protocol-relative path', '/.//evil.example'],
    ['an empty string', ''],
  ];
  for (const [what, value] of refused) {
    it(`refuses ${what}`, () => {
      expect(() => assertReturnTo(value, origin))
        .to.throw(ItchOAuthError, /return-to must be a same-origin path\+query/)
        .with.property('code', 'config_invalid');
    });
  }

  it('falls back instead of throwing in safeReturnTo', () => {
    expect(safeReturnTo('//evil.example', origin, '/home')).to.equal('/home');
    expect(safeReturnTo(null, origin)).to.equal('/');
    expect(safeReturnTo('/ok', origin)).to.equal('/ok');
  });

  it('never returns anything that leaves the origin (property)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.webUrl(),
          fc.webPath(),
          fc.string().map((s) => `/${s}`),
        ),
        (value) => {
          const result = safeReturnTo(value, origin, '/');
          expect(result.startsWith('/')).to.equal(true);
          expect(result.startsWith('//')).to.equal(false);
          expect(new URL(result, origin).origin).to.equal(origin);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
