/**
 * Block maps against the text they were built from, in a small geometry so strings cross many
 * block boundaries: a string the text holds is never ruled out (exact case or not); strings whose
 * trigrams the text holds only apart are ruled out; a damaged map is refused by its checksum.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bitmapBytes, blockMapBitmaps, encodeBlockMap, type BlockMapParams } from '../../src/index/block-map.js';
import { planLiteral, planRegex } from '../../src/regex/index.js';
import { compileBlockQuery, mayMatchInBlocks } from '../../src/shard/block-filter.js';
import { seededRandom } from '../helpers/random.js';

const SMALL: BlockMapParams = { blockBytes: 64, bits: 9, overlap: 6, minDocBytes: 0 };
const ALPHABET = 'abcdefgh_ \n';

function randomText(next: () => number, length: number): string {
  return Array.from({ length }, () => ALPHABET[Math.floor(next() * ALPHABET.length)]).join('');
}

function mayHold(text: string, query: ReturnType<typeof planLiteral>['trigrams'], params = SMALL): boolean {
  const bitmaps = blockMapBitmaps(encodeBlockMap(Buffer.from(text), params), Buffer.byteLength(text), params)!;
  const compiled = compileBlockQuery(query, params);
  return compiled === null || mayMatchInBlocks(compiled, bitmaps, bitmapBytes(params));
}

test('a string the text holds is never ruled out, wherever it starts and however long it is', () => {
  const next = seededRandom(91);
  for (let i = 0; i < 400; i++) {
    const text = randomText(next, 200 + Math.floor(next() * 800));
    const start = Math.floor(next() * (text.length - 4));
    const needle = text.slice(start, start + 4 + Math.floor(next() * 20));
    assert.ok(mayHold(text, planLiteral(needle, { caseSensitive: true }).trigrams), `${JSON.stringify(needle)} at ${start}`);
    assert.ok(mayHold(text, planLiteral(needle.toUpperCase(), { caseSensitive: false }).trigrams), `${JSON.stringify(needle)} in any case`);
    assert.ok(mayHold(text, planRegex(`${escape(needle)}|zzzzzz`, { caseSensitive: true }).trigrams), `${JSON.stringify(needle)} as an alternative`);
  }
});

test('strings whose trigrams occur only in blocks apart are ruled out', () => {
  const filler = 'x'.repeat(200);
  const text = `need ${filler} eedle ${filler}`;
  assert.equal(mayHold(text, planLiteral('needle', { caseSensitive: true }).trigrams), false);
  assert.equal(mayHold(`${filler}needle${filler}`, planLiteral('needle', { caseSensitive: true }).trigrams), true);
  // A query a map cannot judge (no string of four bytes or more) is not compiled at all.
  assert.equal(compileBlockQuery(planLiteral('nee', { caseSensitive: true }).trigrams, SMALL), null);
});

test('a map that does not match its checksum or its document size is refused', () => {
  const text = Buffer.from('abcdefgh'.repeat(40));
  const stored = encodeBlockMap(text, SMALL);
  assert.ok(blockMapBitmaps(stored, text.length, SMALL));
  const flipped = Uint8Array.from(stored);
  flipped[10]! ^= 1;
  assert.equal(blockMapBitmaps(flipped, text.length, SMALL), null);
  assert.equal(blockMapBitmaps(stored, text.length + SMALL.blockBytes, SMALL), null);
});

function escape(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
}
