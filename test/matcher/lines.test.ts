import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isQuarryError } from '../../src/errors.js';
import { hyperscanStatusName } from '../../src/matcher/hyperscan-status.js';
import { lineSpans, lineSpansEngine, lineSpansInJs } from '../../src/matcher/lines.js';
import { random } from './random-specs.js';

const bytes = (text: string) => new TextEncoder().encode(text);

/** The definition, one byte at a time. */
function oracle(hay: Uint8Array, offsets: readonly number[]): number[] {
  return offsets.flatMap((offset) => {
    let line = 0;
    let start = 0;
    for (let i = 0; i < offset; i++) if (hay[i] === 10) [line, start] = [line + 1, i + 1];
    let end = offset;
    while (end < hay.length && hay[end] !== 10) end++;
    return [line, start, end];
  });
}

function spans(run: typeof lineSpans, hay: Uint8Array, offsets: readonly number[]): number[] {
  const out = new Int32Array(offsets.length * 3);
  assert.equal(run(hay, Int32Array.from(offsets), offsets.length, out), offsets.length);
  return [...out];
}

function randomCase(next: () => number, long: boolean): { hay: Uint8Array; offsets: number[] } {
  const pieces = ['a', 'b', 'é', ' ', '\n', '\n', '\r\n', '\r'];
  const length = Math.floor(next() * (long ? 20_000 : 120));
  let text = '';
  for (let i = 0; i < length; i++) text += pieces[Math.floor(next() * pieces.length)];
  const hay = bytes(text);
  const newlines = [...hay.keys()].filter((at) => hay[at] === 10);
  const offsets = Array.from({ length: Math.floor(next() * (long ? 6 : 12)) }, () => {
    const kind = next();
    if (kind < 0.3 && newlines.length > 0) return newlines[Math.floor(next() * newlines.length)];
    if (kind < 0.4) return hay.length;
    return Math.floor(next() * (hay.length + 1));
  });
  return { hay, offsets: offsets.sort((a, b) => a - b) };
}

describe('lineSpans', () => {
  it('runs natively when the addon is built', () => {
    assert.equal(lineSpansEngine(), 'native');
  });

  it('gives line number, start and end, with \\r part of the line', () => {
    const hay = bytes('one\r\ntwo\n\nlast');
    const expected = [0, 0, 4, 0, 0, 4, 1, 5, 8, 2, 9, 9, 3, 10, 14, 3, 10, 14];
    for (const run of [lineSpans, lineSpansInJs]) {
      assert.deepEqual(spans(run, hay, [0, 4, 8, 9, 12, 14]), expected);
      assert.deepEqual(spans(run, new Uint8Array(0), [0]), [0, 0, 0]);
      assert.deepEqual(spans(run, bytes('a\n'), [2]), [1, 2, 2]);
    }
  });

  it('agrees with the JS fallback and the definition on random input', () => {
    const next = random(0x11e5);
    for (let round = 0; round < 600; round++) {
      const { hay, offsets } = randomCase(next, round % 20 === 0);
      const expected = oracle(hay, offsets);
      const where = `offsets ${JSON.stringify(offsets)} in ${JSON.stringify(new TextDecoder().decode(hay).slice(0, 200))}`;
      assert.deepEqual(spans(lineSpans, hay, offsets), expected, where);
      assert.deepEqual(spans(lineSpansInJs, hay, offsets), expected, where);
    }
  });

  it('throws INTERNAL naming the same status the fallback returns', () => {
    const hay = bytes('a\nb');
    const bad: [Int32Array, number, Int32Array][] = [
      [Int32Array.from([2, 1]), 2, new Int32Array(6)],
      [Int32Array.from([-1]), 1, new Int32Array(3)],
      [Int32Array.from([4]), 1, new Int32Array(3)],
      [Int32Array.from([0, 1]), 2, new Int32Array(5)],
    ];
    for (const [offsets, count, out] of bad) {
      const status = hyperscanStatusName(lineSpansInJs(hay, offsets, count, new Int32Array(out.length)));
      assert.notEqual(status, 'UNKNOWN_STATUS');
      assert.throws(() => lineSpans(hay, offsets, count, out), (err) => isQuarryError(err, 'INTERNAL') && err.details['status'] === status);
    }
    assert.throws(() => lineSpans(hay, Int32Array.from([0]), 2, new Int32Array(6)), (err) => isQuarryError(err, 'INTERNAL'));
  });
});
