/** The compact symbol encoding decodes to exactly what was encoded, and is smaller than JSON. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { decodeFileSymbols, encodeFileSymbols } from '../../src/symbols/codec.js';
import { parseFileSymbols } from '../../src/symbols/parse.js';

const FIXTURES = fileURLToPath(new URL('../../../test/fixtures/symbols/', import.meta.url));

for (const ext of ['ts', 'go', 'py', 'rs', 'java', 'c', 'cpp', 'js']) {
  test(`round trip of the ${ext} fixture`, () => {
    const outcome = parseFileSymbols(`a.${ext}`, readFileSync(`${FIXTURES}sample.${ext}.txt`));
    assert.equal(outcome.status, 'ok');
    if (outcome.status !== 'ok') return;
    const bytes = encodeFileSymbols(outcome.symbols);
    assert.deepEqual(decodeFileSymbols(bytes), outcome.symbols);
    assert.ok(bytes.length * 4 < JSON.stringify(outcome.symbols).length, `${bytes.length} bytes is compact`);
  });
}

test('an empty table and large numbers survive', () => {
  const symbols = {
    language: 'C', imports: [], references: [],
    definitions: [{ name: 'x', kind: 'macro' as const, parent: -1, exported: false, nameRange: { startLine: 300000, startColumn: 70000, endLine: 300000, endColumn: 70001 }, range: { startLine: 299999, startColumn: 0, endLine: 300001, endColumn: 2 } }],
  };
  assert.deepEqual(decodeFileSymbols(encodeFileSymbols(symbols)), symbols);
  const empty = { language: 'Go', definitions: [], references: [], imports: [] };
  assert.deepEqual(decodeFileSymbols(encodeFileSymbols(empty)), empty);
});
