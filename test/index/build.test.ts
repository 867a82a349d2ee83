/** Trigram extraction, runs and merging, checked against a naive reference index. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { seededRandom } from '../helpers/random.js';
import { mergeRuns } from '../../src/index/build/merge.js';
import { buildRun } from '../../src/index/build/run.js';
import { TrigramExtractor } from '../../src/index/build/trigrams.js';
import { LOC_BITSET } from '../../src/index/format.js';
import { decodeList } from '../../src/index/postings.js';
import { packTrigram } from '../../src/model/trigram.js';

const tables = { extractor: new TrigramExtractor(), counts: new Uint32Array(1 << 24) };

function naiveIndex(docs: Uint8Array[]): Map<number, number[]> {
  const index = new Map<number, number[]>();
  docs.forEach((doc, id) => {
    const seen = new Set<number>();
    for (let i = 2; i < doc.length; i++) seen.add(packTrigram(doc[i - 2]!, doc[i - 1]!, doc[i]!));
    for (const t of seen) {
      const list = index.get(t) ?? [];
      list.push(id);
      index.set(t, list);
    }
  });
  return index;
}

function randomDocs(seed: number, count: number): Uint8Array[] {
  const next = seededRandom(seed);
  const alphabet = Buffer.from('abcABC xyz\n\t_é🙂\u0000\r');
  return Array.from({ length: count }, () => Uint8Array.from({ length: Math.floor(next() * 300) }, () => alphabet[Math.floor(next() * alphabet.length)]!));
}

test('extractor finds each distinct exact-case trigram once per document', () => {
  const out = new Uint32Array(64);
  const n = tables.extractor.extract(Buffer.from('abcABCabc'), out, 0);
  const found = [...out.subarray(0, n)].sort();
  const expected = [...new Set(['abc', 'bcA', 'cAB', 'ABC', 'BCa', 'Cab'].map((t) => packTrigram(t.charCodeAt(0), t.charCodeAt(1), t.charCodeAt(2))))].sort();
  assert.deepEqual(found, expected);
  assert.equal(tables.extractor.extract(Buffer.from('ab'), out, 0), 0);
});

test('runs merged in any order equal the naive index', () => {
  const docs = randomDocs(42, 120);
  const runs = [buildRun(tables, 0, docs.slice(0, 50)), buildRun(tables, 80, docs.slice(80)), buildRun(tables, 50, docs.slice(50, 80))];
  const merged = mergeRuns(runs);
  const expected = naiveIndex(docs);
  assert.deepEqual([...merged.trigrams], [...expected.keys()].sort((a, b) => a - b));
  merged.trigrams.forEach((t, i) => {
    const [block, offset, length] = [merged.locations[i * 3]!, merged.locations[i * 3 + 1]!, merged.locations[i * 3 + 2]!];
    assert.deepEqual([...decodeList(merged.blocks[block]!, offset, length)], expected.get(t), `trigram ${t}`);
  });
  assert.equal(merged.postingBytes, merged.blocks.reduce((n, b) => n + b.length, 0));
});

test('counts table is left zeroed so the next run is exact', () => {
  buildRun(tables, 0, randomDocs(3, 10));
  assert.equal(tables.counts.some((c) => c !== 0), false);
});

test('a long posting list spans into its own block and stays correct', () => {
  const docs = Array.from({ length: 70000 }, (_, i) => Buffer.from(i % 9 === 0 ? 'zzz' : 'yyy'));
  const merged = mergeRuns([buildRun(tables, 0, docs)]);
  assert.equal(merged.trigrams.length, 2);
  const sparse = merged.trigrams.indexOf(packTrigram(0x7a, 0x7a, 0x7a));
  const ids = decodeList(merged.blocks[merged.locations[sparse * 3]!]!, merged.locations[sparse * 3 + 1]!, merged.locations[sparse * 3 + 2]!);
  assert.equal(ids.length, 7778);
  assert.equal(ids[7777], 69993);
});

test('a list in more than one document in eight is stored as a bitset, smaller than its varints', () => {
  const docs = Array.from({ length: 70000 }, (_, i) => Buffer.from(i % 3 === 0 ? 'zzz' : 'yyy'));
  const merged = mergeRuns([buildRun(tables, 0, docs)]);
  const slot = merged.trigrams.indexOf(packTrigram(0x7a, 0x7a, 0x7a));
  const loc = merged.locations[slot * 3 + 2]!;
  assert.notEqual(loc & LOC_BITSET, 0);
  assert.equal(loc & ~LOC_BITSET, Math.floor(69999 / 8) + 1);
  const ids = decodeList(merged.blocks[merged.locations[slot * 3]!]!, merged.locations[slot * 3 + 1]!, loc, 300, 310);
  assert.deepEqual([...ids], [300, 303, 306, 309]);
});
