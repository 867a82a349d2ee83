import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createError, isQuarryError } from '../../src/errors.js';
import { createHyperscanMatcherFactory } from '../../src/matcher/hyperscan.js';
import { createJsMatcherFactory } from '../../src/matcher/js-regexp.js';
import type { MatcherFactory, PatternSpec } from '../../src/matcher/matcher.js';
import { selectMatcher } from '../../src/matcher/select.js';
import { same, triples } from '../contracts/matcher.contract.js';

const hyperscan = createHyperscanMatcherFactory();
const js = createJsMatcherFactory();
const engines = [hyperscan, js];

const backreference: PatternSpec = same('(a)\\1');
const lookahead: PatternSpec = { hyperscan: null, js: 'foo(?=bar)', caseless: false };

function refusingCompile(error: Error): MatcherFactory {
  return { engine: 'hyperscan', supports: () => ({ ok: true }), compile: () => { throw error; } };
}

describe('selectMatcher', () => {
  it('prefers Hyperscan for what it can compile', () => {
    assert.equal(selectMatcher([same('foo'), same('ba[rz]', true)], engines, 'auto').engine, 'hyperscan');
  });

  it('sends backreferences and look-around to the JS engine, which matches them', () => {
    const backref = selectMatcher([backreference], engines, 'auto');
    assert.equal(backref.engine, 'js');
    assert.deepEqual(triples(backref, 'xaay'), [[0, 1, 3]]);
    const look = selectMatcher([same('plain'), lookahead], engines, 'auto');
    assert.equal(look.engine, 'js');
    assert.deepEqual(triples(look, 'foobar foobaz plain'), [[1, 0, 3], [0, 14, 19]]);
  });

  it('sends patterns that can match the empty string to the JS engine', () => {
    assert.equal(selectMatcher([same('x?')], engines, 'auto').engine, 'js');
  });

  it('uses only the named engine when one is preferred', () => {
    assert.equal(selectMatcher([same('foo')], engines, 'js').engine, 'js');
    assert.throws(
      () => selectMatcher([backreference], engines, 'hyperscan'),
      (err) => isQuarryError(err, 'PATTERN_UNSUPPORTED') && /hyperscan: pattern 0: Back-references/.test(err.message),
    );
  });

  it('falls through when an engine throws PATTERN_UNSUPPORTED from compile', () => {
    const refusing = refusingCompile(createError('PATTERN_UNSUPPORTED', 'not today'));
    assert.equal(selectMatcher([same('foo')], [refusing, js], 'auto').engine, 'js');
  });

  it('lets other compile errors through', () => {
    const broken = refusingCompile(createError('INTERNAL', 'boom'));
    assert.throws(() => selectMatcher([same('foo')], [broken, js], 'auto'), (err) => isQuarryError(err, 'INTERNAL'));
    assert.throws(() => selectMatcher([same('a(')], engines, 'auto'), (err) => isQuarryError(err, 'PATTERN_INVALID'));
  });

  it('says so when no engine is available', () => {
    assert.throws(
      () => selectMatcher([same('foo')], [js], 'hyperscan'),
      (err) => isQuarryError(err, 'PATTERN_UNSUPPORTED') && /no hyperscan engine/.test(err.message),
    );
  });
});
