import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createJsMatcherFactory } from '../../src/matcher/js-regexp.js';
import { runMatcherContract, same, triples } from '../contracts/matcher.contract.js';

const factory = createJsMatcherFactory();
runMatcherContract({ name: 'js', factory });

describe('js matcher specifics', () => {
  it('uses leftmost-first extents (Hyperscan uses leftmost-longest)', () => {
    assert.deepEqual(triples(factory.compile([same('a|ab')]), 'ab'), [[0, 0, 1]]);
  });

  it('reports zero-width matches and steps over whole code points after them', () => {
    assert.deepEqual(triples(factory.compile([same('(?<![^\\n])')]), 'a\nb'), [[0, 0, 0], [0, 2, 2]]);
    assert.deepEqual(triples(factory.compile([same('(?:)')]), '😀é'), [[0, 0, 0], [0, 4, 4], [0, 6, 6]]);
  });

  it('searches non-UTF-8 hay with lossy decoding when a pattern needs Unicode semantics', () => {
    const hay = Uint8Array.from([0xff, 0xf0, 0x9f, 0x98, 0x80, 0x41]);
    assert.deepEqual(triples(factory.compile([same('\\u{1F600}\\p{Lu}')]), hay, false), [[0, 1, 6]]);
  });

  it('keeps a byte order mark so offsets stay byte-exact', () => {
    assert.deepEqual(triples(factory.compile([same('x')]), '\uFEFFx'), [[0, 3, 4]]);
  });
});
