import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isQuarryError } from '../../src/errors.js';
import { MatcherCache, matcherCacheKey } from '../../src/matcher/cache.js';
import { createHyperscanMatcherFactory } from '../../src/matcher/hyperscan.js';
import { createJsMatcherFactory } from '../../src/matcher/js-regexp.js';
import { same } from '../contracts/matcher.contract.js';

const engines = [createHyperscanMatcherFactory(), createJsMatcherFactory()];

describe('MatcherCache', () => {
  it('compiles once and then hits for the same pattern set and preference', () => {
    const cache = new MatcherCache(engines);
    const first = cache.get([same('foo'), same('bar', true)], 'auto');
    const again = cache.get([same('foo'), same('bar', true)], 'auto');
    assert.equal(again, first);
    assert.deepEqual([cache.size, cache.hits, cache.misses], [1, 1, 1]);
  });

  it('keys on every pattern field and on the preference', () => {
    const cache = new MatcherCache(engines);
    cache.get([same('foo')], 'auto');
    cache.get([same('foo', true)], 'auto');
    cache.get([{ hyperscan: 'foo', js: 'fo{2}', caseless: false }], 'auto');
    assert.equal(cache.get([same('foo')], 'js').engine, 'js');
    assert.deepEqual([cache.size, cache.hits, cache.misses], [4, 0, 4]);
    const reordered = { caseless: false, js: 'x', hyperscan: 'x' };
    assert.equal(matcherCacheKey([same('x')], 'auto'), matcherCacheKey([reordered], 'auto'));
  });

  it('evicts the least recently used entry beyond its capacity', () => {
    const cache = new MatcherCache(engines, 2);
    const a = cache.get([same('a')], 'auto');
    cache.get([same('b')], 'auto');
    cache.get([same('a')], 'auto');
    cache.get([same('c')], 'auto');
    assert.equal(cache.size, 2);
    assert.equal(cache.get([same('a')], 'auto'), a);
    cache.get([same('b')], 'auto');
    assert.deepEqual([cache.hits, cache.misses], [2, 4]);
  });

  it('does not cache failures', () => {
    const cache = new MatcherCache(engines);
    for (let i = 0; i < 2; i++) {
      assert.throws(() => cache.get([same('a(')], 'auto'), (err) => isQuarryError(err, 'PATTERN_INVALID'));
    }
    assert.deepEqual([cache.size, cache.misses], [0, 2]);
  });
});
