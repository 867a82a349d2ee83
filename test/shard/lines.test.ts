/** Byte ranges → line matches: line numbers, code point offsets, multi-line splits, CRLF. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { codePoints, toLineMatches } from '../../src/shard/lines.js';

const bytes = (s: string): Uint8Array => Buffer.from(s);
function rangeOf(content: string, needle: string, from = 0): [number, number] {
  const start = Buffer.from(content).indexOf(needle, from);
  return [start, start + Buffer.byteLength(needle)];
}

test('single-line matches give 0-based line numbers and code point offsets', () => {
  const text = 'first\nsecond héllo wörld\nthird';
  const lines = toLineMatches(bytes(text), [...rangeOf(text, 'héllo'), ...rangeOf(text, 'wörld')]);
  assert.deepEqual(lines, [{ line: 'second héllo wörld', lineNumber: 1, offsetAndLengths: [[7, 5], [13, 5]] }]);
});

test('a match spanning lines is split into one piece per line', () => {
  const text = 'aa foo\nbar bb\ncc';
  const [start] = rangeOf(text, 'foo');
  const [, end] = rangeOf(text, 'bar');
  assert.deepEqual(toLineMatches(bytes(text), [start, end]), [
    { line: 'aa foo', lineNumber: 0, offsetAndLengths: [[3, 3]] },
    { line: 'bar bb', lineNumber: 1, offsetAndLengths: [[0, 3]] },
  ]);
});

test('CRLF lines drop the carriage return from the text but keep offsets', () => {
  const text = 'x\r\nneedle\r\n';
  assert.deepEqual(toLineMatches(bytes(text), rangeOf(text, 'needle')), [{ line: 'needle', lineNumber: 1, offsetAndLengths: [[0, 6]] }]);
});

test('matches on the last line without a newline, zero-width matches and duplicates', () => {
  const text = 'a\nlast';
  assert.deepEqual(toLineMatches(bytes(text), [2, 2, 2, 6, 2, 6]), [{ line: 'last', lineNumber: 1, offsetAndLengths: [[0, 0], [0, 4]] }]);
});

test('a match ending right after a newline does not mark the next line', () => {
  const text = 'ab\ncd\n';
  assert.deepEqual(toLineMatches(bytes(text), [1, 3]), [{ line: 'ab', lineNumber: 0, offsetAndLengths: [[1, 1]] }]);
});

test('codePoints counts characters, not bytes', () => {
  assert.equal(codePoints(bytes('aé🙂b'), 0, Buffer.byteLength('aé🙂b')), 4);
});

test('a zero-width match after the final newline or in an empty file is not a line', () => {
  assert.deepEqual(toLineMatches(bytes('a\n'), [2, 2]), []);
  assert.deepEqual(toLineMatches(bytes(''), [0, 0]), []);
  assert.deepEqual(toLineMatches(bytes('a\nb'), [3, 3]), [{ line: 'b', lineNumber: 1, offsetAndLengths: [[1, 0]] }]);
});
