/** LineStarts turns string offsets into the rows and UTF-16 columns tree-sitter reports. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LineStarts } from '../../src/symbols/line-starts.js';
import { parseFileSymbols } from '../../src/symbols/parse.js';

/** The slow, obvious answer: count the newlines before the offset. */
function naive(text: string, at: number): { line: number; column: number } {
  const before = text.slice(0, at);
  return { line: before.split('\n').length - 1, column: at - (before.lastIndexOf('\n') + 1) };
}

test('every offset of a text maps to its line and column', () => {
  const text = 'first\r\n\n\tthird 😀 line\nlast without newline';
  const lines = new LineStarts(text);
  for (let at = 0; at <= text.length; at++) {
    const { line, column } = naive(text, at);
    assert.deepEqual(lines.range(at, at), { startLine: line, startColumn: column, endLine: line, endColumn: column }, `offset ${at}`);
  }
  assert.deepEqual(lines.range(2, 12), { startLine: 0, startColumn: 2, endLine: 2, endColumn: 4 });
});

test('the longest line is measured without its newline, the last line included', () => {
  assert.equal(new LineStarts('ab\nabcd\nabc').longestLine, 4);
  assert.equal(new LineStarts('ab\nabc\nabcdef').longestLine, 6);
  assert.equal(new LineStarts('').longestLine, 0);
  assert.equal(new LineStarts('\n\n').longestLine, 0);
});

test('a long single-line text grows the table past its first guess', () => {
  const text = 'x\n'.repeat(5000);
  const lines = new LineStarts(text);
  assert.deepEqual(lines.range(9999, 10000), { startLine: 4999, startColumn: 1, endLine: 5000, endColumn: 0 });
});

test('extracted ranges count UTF-16 units after CRLF lines and astral characters', () => {
  const outcome = parseFileSymbols('a.js', 'const s = "😀"; foo(s);\r\nbar.baz();\n');
  assert.equal(outcome.status, 'ok');
  if (outcome.status !== 'ok') return;
  assert.deepEqual(outcome.symbols.references.map((r) => [r.name, r.range.startLine, r.range.startColumn, r.range.endColumn, r.receiver]), [
    ['foo', 0, 16, 19, undefined],
    ['s', 0, 20, 21, undefined],
    ['bar', 1, 0, 3, undefined],
    ['baz', 1, 4, 7, 'bar'],
  ]);
  assert.deepEqual(outcome.symbols.definitions.map((d) => [d.name, d.nameRange.startColumn, d.range.endColumn]), [['s', 6, 14]]);
});
