/** Packing line matches for the thread boundary loses nothing. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LineMatch } from '../../src/model/result.js';
import { packLines, unpackLines } from '../../src/shard/packed-lines.js';

test('lines with several pieces, empty lines, carriage returns and non-ASCII text round-trip', () => {
  const lines: LineMatch[] = [
    { line: 'foo bar foo', lineNumber: 0, offsetAndLengths: [[0, 3], [8, 3]] },
    { line: '', lineNumber: 4, offsetAndLengths: [[0, 0]] },
    { line: 'a\rb héllo 🙂', lineNumber: 70000, offsetAndLengths: [[4, 5]] },
  ];
  const packed = packLines(lines);
  assert.equal(packed.meta.length, 2 + 4 + 2 + 2 + 2 + 2);
  assert.deepEqual(unpackLines(packed), lines);
});

test('no lines pack to nothing', () => {
  assert.deepEqual(unpackLines(packLines([])), []);
});
