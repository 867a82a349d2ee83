/** The compact symbol encoding decodes to exactly what was encoded, and is smaller than JSON. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { decodeFileSymbols, decodeNamedReferences, encodeFileSymbols } from '../../src/symbols/codec.js';
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

for (const ext of ['c', 'ts', 'py']) {
  test(`one name's references of the ${ext} fixture read alone equal the whole table's`, () => {
    const outcome = parseFileSymbols(`a.${ext}`, readFileSync(`${FIXTURES}sample.${ext}.txt`));
    assert.equal(outcome.status, 'ok');
    if (outcome.status !== 'ok') return;
    const bytes = encodeFileSymbols(outcome.symbols);
    const names = new Set(outcome.symbols.references.map((r) => r.name));
    assert.ok(names.size > 5);
    for (const name of names) {
      const named = decodeNamedReferences(bytes, name);
      assert.ok(named !== null, name);
      assert.deepEqual(named.references, outcome.symbols.references.filter((r) => r.name === name), name);
      assert.equal(named.definesName, outcome.symbols.definitions.some((d) => d.name === name), name);
      assert.deepEqual(named.imports, outcome.symbols.imports);
      assert.equal(named.language, outcome.symbols.language);
    }
    const defOnly = outcome.symbols.definitions.find((d) => !names.has(d.name));
    if (defOnly !== undefined) assert.equal(decodeNamedReferences(bytes, defOnly.name), null);
    assert.equal(decodeNamedReferences(bytes, 'no_such_name_anywhere'), null);
  });
}

test('a name that is the tail of another string is not mistaken for it', () => {
  const range = { startLine: 1, startColumn: 0, endLine: 1, endColumn: 3 };
  const symbols = {
    language: 'C', definitions: [], imports: [],
    references: [
      { name: 'xfoo', range, scope: -1 },
      { name: 'foo', range: { ...range, startLine: 2, endLine: 2 }, scope: -1, receiver: 'ptr->xfoo' },
    ],
  };
  const bytes = encodeFileSymbols(symbols);
  assert.deepEqual(decodeNamedReferences(bytes, 'foo')?.references, [symbols.references[1]]);
  assert.deepEqual(decodeNamedReferences(bytes, 'xfoo')?.references, [symbols.references[0]]);
  assert.equal(decodeNamedReferences(bytes, 'oo'), null);
  assert.deepEqual(decodeFileSymbols(bytes), symbols);
});
