/** Posting list encoding: round trips, gap edge cases, range decoding. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { seededRandom } from '../helpers/random.js';
import { decodePostings, encodePostings } from '../../src/index/postings.js';


test('round-trips ascending ids including 0, adjacent ids and large gaps', () => {
  const ids = [0, 1, 2, 127, 128, 129, 16383, 16384, 2 ** 21, 2 ** 28 + 5, 2 ** 32 - 2];
  assert.deepEqual([...decodePostings(encodePostings(ids))], ids);
});

test('adjacent ids cost one byte each', () => {
  const ids = Array.from({ length: 1000 }, (_, i) => i);
  assert.equal(encodePostings(ids).length, 1000);
});

test('empty list encodes to nothing and decodes to nothing', () => {
  assert.equal(encodePostings([]).length, 0);
  assert.equal(decodePostings(new Uint8Array(0)).length, 0);
});

test('random lists round-trip and decode into a reused buffer that grows', () => {
  const next = seededRandom(7);
  let scratch = new Uint32Array(1);
  for (let round = 0; round < 200; round++) {
    const ids: number[] = [];
    let id = -1;
    const n = Math.floor(next() * 500);
    for (let i = 0; i < n; i++) ids.push((id += 1 + Math.floor(next() ** 4 * 100000)));
    const decoded = decodePostings(encodePostings(ids), 0, undefined, scratch);
    assert.deepEqual([...decoded], ids);
    if (decoded.length > scratch.length) scratch = new Uint32Array(decoded.buffer as ArrayBuffer);
  }
});

test('decodes a sub-range of a byte array', () => {
  const a = encodePostings([3, 9, 20]);
  const b = encodePostings([1, 5, 6, 50, 51]);
  const both = new Uint8Array([...a, ...b]);
  assert.deepEqual([...decodePostings(both, a.length, both.length)], [1, 5, 6, 50, 51]);
});
