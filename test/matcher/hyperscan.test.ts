import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isQuarryError } from '../../src/errors.js';
import { createHyperscanMatcherFactory } from '../../src/matcher/hyperscan.js';
import { runMatcherContract, same, triples } from '../contracts/matcher.contract.js';

const factory = createHyperscanMatcherFactory();
runMatcherContract({ name: 'hyperscan', factory });

describe('hyperscan matcher specifics', () => {
  it('uses leftmost-longest extents (the JS engine uses leftmost-first)', () => {
    assert.deepEqual(triples(factory.compile([same('a|ab')]), 'ab'), [[0, 0, 2]]);
  });

  it('declines sets it cannot take, saying why', () => {
    const reason = (support: ReturnType<typeof factory.supports>) => (support.ok ? 'ok' : support.reason);
    const lookahead = { hyperscan: null, js: '(?=a)a', caseless: false };
    assert.match(reason(factory.supports([same('a'), lookahead])), /pattern 1 has no Hyperscan form/);
    assert.match(reason(factory.supports([same('(a)\\1')])), /pattern 0: Back-references/);
    assert.match(reason(factory.supports([same('x?')])), /empty string/);
    assert.match(reason(factory.supports([])), /empty pattern set/);
    assert.deepEqual(factory.supports([same('ok')]), { ok: true });
  });

  it('throws PATTERN_UNSUPPORTED for constructs only the JS engine has', () => {
    assert.throws(() => factory.compile([same('(a)\\1')]), (err) => isQuarryError(err, 'PATTERN_UNSUPPORTED'));
  });

  it('falls back to the reference engine when byte mode cannot compile', () => {
    const matcher = factory.compile([{ hyperscan: '\\x{1F600}', js: '\\u{1F600}', caseless: false }]);
    assert.deepEqual(triples(matcher, Uint8Array.from([0xff, 0xf0, 0x9f, 0x98, 0x80]), false), [[0, 1, 5]]);
  });

  it('falls back to the reference engine when a scan overflows the report cap', () => {
    const hay = new Uint8Array((4 << 20) + 1).fill(0x61);
    assert.deepEqual(triples(factory.compile([same('a+')]), hay), [[0, 0, hay.length]]);
  });
});
