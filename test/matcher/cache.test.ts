import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createRequire } from 'node:module';
import type * as Addon from '../../native/hyperscan/index.js';
import { isQuarryError } from '../../src/errors.js';
import { MatcherCache, matcherCacheKey } from '../../src/matcher/cache.js';
import { createHyperscanMatcherFactory } from '../../src/matcher/hyperscan.js';
import { createJsMatcherFactory } from '../../src/matcher/js-regexp.js';
import { same } from '../contracts/matcher.contract.js';
import { settledDatabases } from '../native/live-databases.js';

const engines = [createHyperscanMatcherFactory(), createJsMatcherFactory()];
const hs = createRequire(import.meta.url)('../../../native/hyperscan/index.js') as typeof Addon;
const UTF8_HAY = new TextEncoder().encode('some text w1x2 and more\n'.repeat(20));
const BYTE_HAY = Uint8Array.from([0x77, 0x31, 0xff, 0x0a]);

/** A distinct alternation of `words` words, as a hostile caller sends a new one each time. */
const alternation = (serial: number, words: number) => same(Array.from({ length: words }, (_, j) => `w${serial}x${j.toString(36)}`).join('|'));

/** Scans and tests both kinds of hay, so every lazily compiled form exists, as in a worker. */
function use(matcher: { scan(h: Uint8Array, u: boolean): unknown; test(h: Uint8Array, u: boolean): number }): void {
  for (const [hay, utf8] of [[UTF8_HAY, true], [BYTE_HAY, false]] as const) {
    matcher.scan(hay, utf8);
    matcher.test(hay, utf8);
  }
}

const settled = (): Promise<number> => settledDatabases(() => hs.liveDatabases());

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

  it('holds distinct costly pattern sets under its byte budget, and what it evicts is freed', { timeout: 300_000 }, async () => {
    const budget = 2 ** 20;
    const cache = new MatcherCache(engines, 256, budget);
    const before = await settled();
    const sets = 40;
    let largest = 0;
    for (let i = 0; i < sets; i++) {
      const matcher = cache.get([alternation(i, 60)], 'auto');
      assert.equal(matcher.engine, 'hyperscan');
      use(matcher);
      largest = Math.max(largest, matcher.retainedBytes);
      // A hit weighs the entry again, now that its lazy forms exist.
      cache.get([alternation(i, 60)], 'auto');
    }
    assert.ok(largest * sets > 2 * budget, `the sets must overrun the budget to test it: ${largest} bytes each`);
    assert.ok(cache.bytes <= budget, `${cache.bytes} bytes held`);
    assert.ok(cache.size < sets && cache.size >= Math.floor(budget / largest) - 1, `${cache.size} entries`);
    // Evicted matchers are garbage: their native databases go with them.
    assert.ok((await settled()) - before <= cache.size, `${hs.liveDatabases() - before} databases alive for ${cache.size} entries`);
  });

  it('weighs an entry again on a hit, as its lazily compiled forms add to it', () => {
    const cache = new MatcherCache(engines);
    const matcher = cache.get([alternation(1000, 20)], 'auto');
    const first = cache.bytes;
    assert.equal(first, matcher.retainedBytes);
    use(matcher);
    cache.get([alternation(1000, 20)], 'auto');
    assert.ok(cache.bytes > first, `${cache.bytes} after use, ${first} before`);
    assert.equal(cache.bytes, matcher.retainedBytes);
  });

  it('serves a matcher larger than its whole budget without keeping it', () => {
    const cache = new MatcherCache(engines, 256, 1024);
    const matcher = cache.get([same('foo')], 'auto');
    assert.ok(matcher.retainedBytes > 1024);
    assert.deepEqual([cache.size, cache.bytes], [0, 0]);
  });
});
