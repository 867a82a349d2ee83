/** The compact symbol encoding decodes to exactly what was encoded, and is smaller than JSON. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { referenceGroupOf, type ReferenceGroup } from '../../src/model/symbols.js';
import { decodeFileSymbols, decodeLanguageAndImports, decodeNamedReferences, decodeReferenceHead, encodeFileSymbols, nameNeedle } from '../../src/symbols/codec.js';
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

const sortedReceivers = (receivers: readonly (string | undefined)[]): string[] => receivers.map((r) => r ?? '(bare)').sort();

for (const ext of ['c', 'ts', 'py']) {
  test(`one name's references of the ${ext} fixture read alone equal the whole table's`, () => {
    const outcome = parseFileSymbols(`a.${ext}`, readFileSync(`${FIXTURES}sample.${ext}.txt`));
    assert.equal(outcome.status, 'ok');
    if (outcome.status !== 'ok') return;
    const bytes = encodeFileSymbols(outcome.symbols);
    const names = new Set(outcome.symbols.references.map((r) => r.name));
    assert.ok(names.size > 5);
    let withReceivers = 0;
    for (const name of names) {
      const head = decodeReferenceHead(bytes, nameNeedle(name));
      const whole: ReferenceGroup = referenceGroupOf({ repo: 'r', commit: 'c', path: `a.${ext}` }, outcome.symbols, name)!;
      assert.ok(head !== null, name);
      assert.deepEqual([head.language, head.definesName, head.count], [whole.language, whole.definesName, whole.count], name);
      assert.deepEqual(sortedReceivers(head.receivers), sortedReceivers(whole.receivers), name);
      assert.deepEqual(head.imports, outcome.symbols.imports);
      assert.deepEqual(decodeNamedReferences(bytes, nameNeedle(name)), whole.references(), name);
      if (head.receivers.some((r) => r !== undefined)) withReceivers++;
    }
    if (ext !== 'c') assert.ok(withReceivers > 0, 'some names are used through receivers');
    const defOnly = outcome.symbols.definitions.find((d) => !names.has(d.name));
    if (defOnly !== undefined) assert.equal(decodeReferenceHead(bytes, nameNeedle(defOnly.name)), null);
    assert.equal(decodeReferenceHead(bytes, nameNeedle('no_such_name_anywhere')), null);
    assert.deepEqual(decodeNamedReferences(bytes, nameNeedle('no_such_name_anywhere')), []);
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
  assert.deepEqual(decodeNamedReferences(bytes, nameNeedle('foo')), [symbols.references[1]]);
  assert.deepEqual(decodeReferenceHead(bytes, nameNeedle('foo'))?.receivers, ['ptr->xfoo']);
  assert.deepEqual(decodeNamedReferences(bytes, nameNeedle('xfoo')), [symbols.references[0]]);
  assert.equal(decodeReferenceHead(bytes, nameNeedle('oo')), null);
  assert.deepEqual(decodeFileSymbols(bytes), symbols);
});

test('a truncated encoding is an error, not an endless read', () => {
  const range = { startLine: 1, startColumn: 0, endLine: 1, endColumn: 3 };
  const bytes = encodeFileSymbols({ language: 'C', definitions: [], imports: [], references: [{ name: 'foo', range, scope: -1 }] });
  const cut = bytes.subarray(0, bytes.length - 2);
  assert.throws(() => decodeFileSymbols(cut), RangeError);
  assert.throws(() => decodeNamedReferences(cut, nameNeedle('foo')), RangeError);
});

test('imports are read only where one of their strings mentions what matters, matched literally', () => {
  const include = (source: string, line: number) => ({ localName: '*', importedName: '*', source, range: { startLine: line, startColumn: 0, endLine: line, endColumn: 20 } });
  const imports = [include('<linux/slab.h>', 0), include('<linux/mm.h>', 1), include('"a+b.h"', 2), include('"axb.h"', 3)];
  const bytes = encodeFileSymbols({ language: 'C', definitions: [], references: [], imports });
  const read = (mentions: readonly string[] | null) => decodeLanguageAndImports(bytes, () => mentions, [undefined]);
  assert.deepEqual(read(null), { language: 'C', imports });
  assert.deepEqual(read(['slab.h']).imports, [imports[0]]);
  assert.deepEqual(read(['kfree', 'mm.h', 'slab.h']).imports, [imports[0], imports[1]]);
  assert.deepEqual(read(['a+b.h']).imports, [imports[2]]);
  assert.deepEqual(read(['kfree']).imports, []);
  assert.deepEqual(read([]).imports, []);
  assert.deepEqual(read(['']).imports, imports);
});
