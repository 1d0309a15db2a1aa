// The server's in-memory cache: never more than its bound, least recently used out first,
// expired entries never returned, any string a key.
import assert from 'node:assert/strict';
import { describe, it, mock } from 'node:test';
import { boundedCache } from '../../src/server/bounded-cache.js';

describe('boundedCache', () => {
  it('holds at most max entries, however many are written, and drops the least recently used', () => {
    const cache = boundedCache<number>(3);
    for (let i = 0; i < 1000; i++) cache.set(`k${i}`, i);
    assert.deepEqual(cache.keys(), ['k997', 'k998', 'k999']);
    assert.equal(cache.get('k997'), 997); // now the most recently used
    cache.set('k1000', 1000);
    assert.deepEqual(cache.keys(), ['k999', 'k997', 'k1000']);
    assert.equal(cache.has('k998'), false);
  });

  it('never returns an entry past its time to live, counted from its last write', () => {
    mock.timers.enable({ apis: ['Date'], now: 0 });
    try {
      const cache = boundedCache<string>(10, 1000);
      cache.set('a', 'first');
      mock.timers.tick(900);
      cache.set('a', 'second');
      mock.timers.tick(900);
      assert.equal(cache.get('a'), 'second');
      mock.timers.tick(100);
      assert.equal(cache.get('a'), undefined);
      assert.equal(cache.has('a'), false);
      assert.deepEqual(cache.keys(), []);
    } finally {
      mock.timers.reset();
    }
  });

  it('takes any string as a key, __proto__ and constructor too', () => {
    const cache = boundedCache<string>(10);
    assert.equal(cache.get('__proto__'), undefined);
    assert.equal(cache.get('constructor'), undefined);
    assert.equal(cache.has('toString'), false);
    cache.set('__proto__', 'x');
    assert.equal(cache.get('__proto__'), 'x');
    cache.delete('__proto__');
    assert.equal(cache.has('__proto__'), false);
  });
});
