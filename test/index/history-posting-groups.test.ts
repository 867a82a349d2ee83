/**
 * Posting groups give back exactly the lists they packed: every key's list from the group that
 * starts at or before it, nothing for keys between lists, for group sizes from one list per group
 * to all lists in one, including keys far apart (multi-byte gaps) and long lists.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodePostings, encodePostings } from '../../src/index/postings.js';
import { findInGroup, packGroups } from '../../src/index/history/posting-groups.js';

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

test('packGroups and findInGroup round-trip every list and find no list for absent keys', () => {
  const rand = random(3);
  const keys: number[] = [];
  const lists: Uint32Array[] = [];
  let key = 0;
  for (let i = 0; i < 3000; i++) {
    key += 1 + Math.floor(rand() < 0.1 ? rand() * 2 ** 20 : rand() * 40);
    keys.push(key);
    const ids = new Set<number>();
    const length = rand() < 0.05 ? 2000 : 1 + Math.floor(rand() * 6);
    while (ids.size < length) ids.add(Math.floor(rand() * 70_000));
    lists.push(Uint32Array.from([...ids].sort((a, b) => a - b)));
  }
  const encoded = lists.map(encodePostings);
  const ends = new Uint32Array(encoded.length);
  let total = 0;
  encoded.forEach((e, i) => (ends[i] = total += e.length));
  const bytes = new Uint8Array(total);
  encoded.forEach((e, i) => bytes.set(e, i === 0 ? 0 : ends[i - 1]!));
  const run = { keys: Uint32Array.from(keys), ends, bytes };
  for (const groupBytes of [1, 256, 16 * 1024, 2 ** 30]) {
    const groups = packGroups(run, groupBytes);
    if (groupBytes === 1) assert.equal(groups.length, keys.length);
    if (groupBytes === 2 ** 30) assert.equal(groups.length, 1);
    const groupOf = (k: number) => groups.filter((g) => g.firstKey <= k).at(-1)!;
    keys.forEach((k, i) => {
      const group = groupOf(k);
      const at = findInGroup(group.bytes, group.firstKey, k);
      assert.ok(at !== null, `key ${k} with groups of ${groupBytes} bytes`);
      assert.deepEqual(decodePostings(group.bytes, at[0], at[1]), lists[i]);
      if (!keys.includes(k + 1)) assert.equal(findInGroup(groupOf(k + 1).bytes, groupOf(k + 1).firstKey, k + 1), null);
    });
  }
});
