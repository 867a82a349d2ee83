/**
 * Attribute-like macros are blanked before C and C++ parse: kernel-style definitions keep their
 * names and exact positions, and nothing else in the file moves.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { attributeMacroBlanker } from '../../src/symbols/attribute-macros.js';
import { C_ATTRIBUTE_MACROS } from '../../src/symbols/languages/c.js';
import { parseFileSymbols } from '../../src/symbols/parse.js';
import { definitionLines } from './format.js';

const FIXTURES = fileURLToPath(new URL('../../../test/fixtures/symbols/', import.meta.url));
const blank = attributeMacroBlanker(C_ATTRIBUTE_MACROS);

test('blanks bare and called macros as whole words, in place', () => {
  const source = 'static __always_inline __alloc_size(1) void *kmalloc(size_t size)\nint my__init, __init_task = __initcall(f);\n';
  const blanked = blank(source);
  assert.equal(blanked, `static ${' '.repeat(16)}${' '.repeat(15)} void *kmalloc(size_t size)\nint my__init, __init_task = __initcall(f);\n`);
  assert.equal(blanked.length, source.length);
});

test('a called macro goes with its balanced argument, or stays when it has none on its line', () => {
  assert.equal(blank('__attribute__((aligned(8), section(".x"))) int a;'), `${' '.repeat(42)} int a;`);
  assert.equal(blank('x __attribute__ ((unused)) y'), `x ${' '.repeat(24)} y`);
  assert.equal(blank('int f(void) __attribute__((nonnull(1,\n2)));'), 'int f(void) __attribute__((nonnull(1,\n2)));');
  assert.equal(blank('__printf int x;'), '__printf int x;');
});

test('preprocessor lines keep the macros they define', () => {
  const source = '#define __init __section(".init.text")\n  #  ifndef __user\nvoid __init f(void);\n';
  assert.equal(blank(source), '#define __init __section(".init.text")\n  #  ifndef __user\nvoid        f(void);\n');
});

test('C: kernel-style definitions are found at their exact names', () => {
  const source = readFileSync(`${FIXTURES}kernel-attributes.c.txt`, 'utf8');
  const expected = JSON.parse(readFileSync(`${FIXTURES}kernel-attributes.c.expected.json`, 'utf8')) as Record<string, string[]>;
  const outcome = parseFileSymbols('mm/kernel.c', source);
  assert.equal(outcome.status, 'ok');
  if (outcome.status !== 'ok') return;
  assert.deepEqual(definitionLines(outcome.symbols), expected['defs']);
  const lines = source.split('\n');
  const at = (r: { startLine: number; startColumn: number; endColumn: number }): string => lines[r.startLine]!.slice(r.startColumn, r.endColumn);
  for (const d of outcome.symbols.definitions) assert.equal(at(d.nameRange), d.name, `definition ${d.name} points at its text`);
  for (const r of outcome.symbols.references) assert.equal(at(r.range), r.name, `reference ${r.name} points at its text`);
  const macros = new Set(C_ATTRIBUTE_MACROS.map((m) => m.replace('()', '')));
  const macroRefs = outcome.symbols.references.filter((r) => macros.has(r.name));
  assert.deepEqual(macroRefs.map((r) => `${r.name}@${r.range.startLine}`), [], 'blanked macros are no references');
});

test('C++: a definition behind __attribute__ is found too', () => {
  const outcome = parseFileSymbols('a.cpp', 'namespace n {\n__attribute__((visibility("default"))) __must_check int f(int x) { return x; }\n}\n');
  assert.equal(outcome.status, 'ok');
  if (outcome.status !== 'ok') return;
  assert.deepEqual(definitionLines(outcome.symbols), ['n namespace -@0:10 exported', 'f function n@1:56 exported', 'x variable f@1:62']);
});
