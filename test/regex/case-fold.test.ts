/** Case-fold orbits and class closure agree with what the JS engine's `iu` flags treat as equal. */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { foldClose, orbitOf } from '../../src/regex/case-fold.js';
import { codePointsOf, rangeSet } from '../../src/regex/charset.js';

test('orbits match the JS engine exactly over every code point that changes case', () => {
  const pool: number[] = [];
  const changesCase = /\p{Changes_When_Casemapped}/u;
  for (let cp = 0; cp <= 0x10ffff; cp++) {
    if ((cp < 0xd800 || cp > 0xdfff) && changesCase.test(String.fromCodePoint(cp))) pool.push(cp);
  }
  const haystack = pool.map((cp) => String.fromCodePoint(cp)).join('\n');
  for (const cp of pool) {
    const engine = [...haystack.matchAll(new RegExp(`^\\u{${cp.toString(16)}}$`, 'gimu'))].map((m) => m[0].codePointAt(0));
    assert.deepEqual(orbitOf(cp), engine.sort((a, b) => (a as number) - (b as number)), `U+${cp.toString(16)}`);
  }
});

test('ASCII orbits include KELVIN SIGN and LONG S, and nothing else non-ASCII', () => {
  assert.deepEqual(orbitOf(0x6b), [0x4b, 0x6b, 0x212a]);
  assert.deepEqual(orbitOf(0x53), [0x53, 0x73, 0x17f]);
  assert.deepEqual(orbitOf(0x61), [0x41, 0x61]);
  assert.deepEqual(orbitOf(0x31), [0x31]);
  assert.deepEqual(orbitOf(0x212a), [0x4b, 0x6b, 0x212a]);
});

test('foldClose adds every variant, for small sets and for near-complete ones', () => {
  const closed = foldClose(rangeSet([[0x61, 0x63]]));
  assert.deepEqual(codePointsOf(closed), [0x41, 0x42, 0x43, 0x61, 0x62, 0x63]);
  const notK = rangeSet([[0, 0x4a], [0x4c, 0x10ffff]]);
  assert.deepEqual(foldClose(notK), [0, 0x10ffff]);
  const notKk = rangeSet([[0, 0x4a], [0x4c, 0x6a], [0x6c, 0x2129], [0x212b, 0x10ffff]]);
  assert.deepEqual(foldClose(notKk), notKk);
  assert.deepEqual(codePointsOf(foldClose(rangeSet([[0xe9, 0xe9]]))), [0xc9, 0xe9]);
});
