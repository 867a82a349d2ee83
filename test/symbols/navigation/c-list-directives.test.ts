/**
 * C preprocessor lines inside enumerator and initializer lists (the X-macro idiom) no longer break
 * the declaration around them: the typedef, its macro and its include are all found; and a
 * function-like macro's parameters are its own locals.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { splitListDirectives } from '../../../src/symbols/list-directives.js';
import { definitionOf, everyone } from './nav-helpers.js';
import { createParsedSymbolIndex, parseSymbols } from './parsed-index.js';

const REPO = 'git.example.org/vm';

const header = [
  '#ifndef INSTR_H',
  '#define INSTR_H',
  'typedef enum {',
  '#define INSTR(name, arity) name,',
  '#include "instr_list.h"',
  '#undef INSTR',
  '  INSTR_COUNT',
  '} instr;',
  'struct program { instr *code; int length; };',
  '#define each_instr(p, i) \\',
  '  for (int i = 0; i < (p)->length; i++)',
  '#endif',
].join('\n');

const source = [
  '#include "instr.h"',
  'static const char *names[] = {',
  '#define INSTR(name, arity) #name,',
  '#include "instr_list.h"',
  '#undef INSTR',
  '};',
  'int arity_of(instr op) { return op == PUSH ? 1 : 0; }',
].join('\n');

const index = createParsedSymbolIndex([
  { repo: REPO, path: 'src/instr.h', content: header },
  { repo: REPO, path: 'src/instr_list.h', content: 'INSTR(PUSH, 1)\nINSTR(POP, 0)\n' },
  { repo: REPO, path: 'src/names.c', content: source },
]);

test('the split keeps every offset: the directives are blanked in one text and alone in the other', () => {
  const split = splitListDirectives(header)!;
  assert.equal(split.main.length, header.length);
  assert.equal(split.directives.length, header.length);
  assert.deepEqual(split.directives.split('\n').map((l) => l.trim()).filter(Boolean), ['#define INSTR(name, arity) name,', '#include "instr_list.h"', '#undef INSTR']);
  assert.equal(splitListDirectives('int main(void) {\n#ifdef X\n  return 1;\n#endif\n}\n'), null, 'a function body keeps its directives');
});

test('an enum holding directives still defines its typedef, macro and enumerators, and includes its list', () => {
  const symbols = parseSymbols('src/instr.h', header)!;
  const names = symbols.definitions.map((d) => `${d.name}:${d.nameRange.startLine + 1}`);
  assert.equal(symbols.definitions.find((d) => d.name === 'INSTR')?.parent, -1, 'a macro is file level wherever it is written');
  for (const want of ['instr:8', 'INSTR:4', 'INSTR_COUNT:7', 'program:9', 'each_instr:10']) assert.ok(names.includes(want), `${want} in ${names.join(' ')}`);
  assert.ok(symbols.imports.some((i) => i.source === '"instr_list.h"' && i.range.startLine === 4));
  assert.equal(definitionOf(index, REPO, 'src/instr.h', 'instr', everyone, { line: 9, column: 18 }).best, `${REPO} src/instr.h:8`);
  assert.equal(definitionOf(index, REPO, 'src/names.c', 'instr', everyone, { line: 7 }).best, `${REPO} src/instr.h:8`);
});

test('a list file the header includes finds the macro a header defines', () => {
  assert.equal(definitionOf(index, REPO, 'src/instr_list.h', 'INSTR', everyone, { line: 1, column: 1 }).best, `${REPO} src/instr.h:4`);
});

test("a name in a function-like macro's body is its parameter", () => {
  assert.equal(definitionOf(index, REPO, 'src/instr.h', 'i', everyone, { line: 11, column: 23 }).best, `${REPO} src/instr.h:10`);
});
