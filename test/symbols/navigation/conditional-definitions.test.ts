/** Same-named file-level definitions in one file (C `#ifdef` branches) are alternatives of one symbol. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadLabelledSet, repoOfDir } from '../../fixtures/navigation-labels.js';
import { SymbolLookup } from '../../../src/symbols/navigation/lookup.js';
import { findReferences } from '../../../src/symbols/navigation/references.js';
import { Resolver } from '../../../src/symbols/navigation/resolve.js';
import { FAKE_COMMIT } from '../fake-symbol-index.js';
import { definitionOf, everyone, referencesOf } from './nav-helpers.js';
import { createParsedSymbolIndex } from './parsed-index.js';

const CLIB = repoOfDir('clib');
const FORK = 'kernel/fork.c';
const EXIT = 'kernel/exit.c';
const exitSource = [
  'struct task;',
  'static void free_thread_stack(struct task *tsk) { }',
  'void do_exit(struct task *tsk) {',
  '\tfree_thread_stack(tsk);',
  '}',
  'static int nr_threads;',
  'static void count_threads(void) { int nr_threads = 0; nr_threads++; }',
  'void fork_one(void) { nr_threads++; }',
].join('\n');

const fixtures = loadLabelledSet().files.filter((f) => f.dir === 'clib');
const index = createParsedSymbolIndex([...fixtures, { repo: CLIB, path: EXIT, content: exitSource }]);

/** References of the definition of `name` whose name starts on `line` (1-based). */
function referencesOfLine(path: string, name: string, line: number): string[] {
  const symbols = index.fileSymbols(CLIB, path)!;
  const at = symbols.definitions.findIndex((d) => d.name === name && d.nameRange.startLine === line - 1);
  assert.ok(at >= 0, `no ${name} defined at ${path}:${line}`);
  const file = { repo: CLIB, commit: FAKE_COMMIT, path, symbols };
  return findReferences(new Resolver(new SymbolLookup(index, everyone)), { file, index: at, definition: symbols.definitions[at]! }).sites
    .map((r) => `${r.file.repo} ${r.file.path}:${r.range.startLine + 1}`);
}

test('go_to_definition in the file picks the first #ifdef copy and lists the other as an alternative', () => {
  assert.deepEqual(definitionOf(index, CLIB, FORK, 'free_thread_stack'), { best: `${CLIB} ${FORK}:6`, also: [`${CLIB} ${FORK}:11`] });
});

test('find_references from the chosen copy reports the calls that bind to another copy', () => {
  assert.deepEqual(referencesOf(index, CLIB, FORK, 'free_thread_stack'), [`${CLIB} ${FORK}:18`, `${CLIB} ${FORK}:23`]);
});

test('every copy has the same references, and a same-named static function of another file stays apart', () => {
  const calls = [`${CLIB} ${FORK}:18`, `${CLIB} ${FORK}:23`];
  assert.deepEqual(referencesOfLine(FORK, 'free_thread_stack', 6), calls);
  assert.deepEqual(referencesOfLine(FORK, 'free_thread_stack', 11), calls);
  assert.deepEqual(referencesOfLine(EXIT, 'free_thread_stack', 2), [`${CLIB} ${EXIT}:4`]);
});

test('a local of the same name as a file-level variable still shadows it', () => {
  assert.deepEqual(referencesOfLine(EXIT, 'nr_threads', 6), [`${CLIB} ${EXIT}:8`]);
  assert.deepEqual(referencesOfLine(EXIT, 'nr_threads', 7), [`${CLIB} ${EXIT}:7`]);
});
