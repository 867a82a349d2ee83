/**
 * Per language, a fixture (test/fixtures/symbols/sample.*) with every definition kind the language
 * has, shadowing, same-named symbols in different scopes, imports, member accesses, and names
 * mentioned in comments and strings; its exact definitions, references and imports are pinned.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parseFileSymbols } from '../../src/symbols/parse.js';
import { definitionLines, importLines, referenceLines } from './format.js';

const FIXTURES = fileURLToPath(new URL('../../../test/fixtures/symbols/', import.meta.url));
const LANGUAGES: Record<string, string> = {
  go: 'Go', ts: 'TypeScript', tsx: 'TSX', js: 'JavaScript', py: 'Python', rs: 'Rust', java: 'Java', c: 'C', cpp: 'C++',
};

for (const [ext, language] of Object.entries(LANGUAGES)) {
  test(`${language}: definitions, references and imports of the fixture`, () => {
    const source = readFileSync(`${FIXTURES}sample.${ext}.txt`);
    const expected = JSON.parse(readFileSync(`${FIXTURES}sample.${ext}.expected.json`, 'utf8')) as Record<string, string[]>;
    const outcome = parseFileSymbols(`src/sample.${ext}`, source);
    assert.equal(outcome.status, 'ok');
    if (outcome.status !== 'ok') return;
    assert.equal(outcome.symbols.language, language);
    assert.deepEqual(definitionLines(outcome.symbols), expected['defs']);
    assert.deepEqual(referenceLines(outcome.symbols), expected['refs']);
    assert.deepEqual(importLines(outcome.symbols), expected['imports']);
  });

  test(`${language}: names in comments and strings are not references`, () => {
    const source = readFileSync(`${FIXTURES}sample.${ext}.txt`, 'utf8');
    const outcome = parseFileSymbols(`sample.${ext}`, source);
    assert.equal(outcome.status, 'ok');
    if (outcome.status !== 'ok') return;
    const lines = source.split('\n');
    const commentLine = lines.findIndex((l) => /in a (doc )?comment/.test(l));
    assert.ok(commentLine >= 0, 'the fixture mentions a name in a comment');
    assert.deepEqual(outcome.symbols.references.filter((r) => r.range.startLine === commentLine), []);
    for (const r of outcome.symbols.references) {
      const text = lines[r.range.startLine]!.slice(r.range.startColumn, r.range.endColumn);
      assert.equal(text, r.name, `reference ${r.name} points at its text`);
      const before = lines[r.range.startLine]!.slice(0, r.range.startColumn);
      assert.ok((before.match(/(?<!\\)"/g)?.length ?? 0) % 2 === 0 || ext === 'tsx', `${r.name} at ${r.range.startLine}:${r.range.startColumn} is not inside a "string"`);
    }
  });
}

test('shadowing: the inner definition is its own symbol, scoped to the inner function', () => {
  const outcome = parseFileSymbols('a.ts', 'function outer() {\n  const v = 1;\n  function inner() { const v = 2; return v; }\n  return v;\n}\n');
  assert.equal(outcome.status, 'ok');
  if (outcome.status !== 'ok') return;
  const defs = outcome.symbols.definitions;
  const vs = defs.flatMap((d, i) => (d.name === 'v' ? [{ parent: defs[d.parent]!.name, line: d.nameRange.startLine, i }] : []));
  assert.deepEqual(vs.map(({ parent, line }) => [parent, line]), [['outer', 1], ['inner', 2]]);
  const uses = outcome.symbols.references.filter((r) => r.name === 'v').map((r) => [r.range.startLine, defs[r.scope]!.name]);
  assert.deepEqual(uses, [[2, 'inner'], [3, 'outer']]);
});

test('columns count UTF-16 code units of the line', () => {
  const outcome = parseFileSymbols('a.py', 'x = "é😀"; y = x\n');
  assert.equal(outcome.status, 'ok');
  if (outcome.status !== 'ok') return;
  const ref = outcome.symbols.references.find((r) => r.name === 'x')!;
  assert.deepEqual(ref.range, { startLine: 0, startColumn: 15, endLine: 0, endColumn: 16 });
});

test('unknown languages are unsupported; big and minified files are skipped', () => {
  assert.equal(parseFileSymbols('README.md', '# hi\n').status, 'unsupported');
  assert.equal(parseFileSymbols('Makefile.unknownext', 'x').status, 'unsupported');
  assert.equal(parseFileSymbols('big.js', `${'a;\n'.repeat(600_000)}`).status, 'skipped');
  assert.equal(parseFileSymbols('min.js', `var a=${'1+'.repeat(5000)}1;\n`).status, 'skipped');
  assert.equal(parseFileSymbols('ok.js', 'var a = 1;\n').status, 'ok');
});
