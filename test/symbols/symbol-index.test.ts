/**
 * The SymbolIndex over a real index: symbols stored per segment at index time (by the pool's handlers),
 * name lookups, counts in the manifest, incremental re-index keeping unchanged files' symbols,
 * and on-demand parsing through the pool.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Manifest } from '../../src/index/manifest.js';
import { referenceGroupOf, type SymbolIndex } from '../../src/model/symbols.js';
import { syncRepository } from '../../src/repos/registry.js';
import { addAndIndex, createEngineFixture, type EngineFixture } from '../e2e/engine-fixture.js';
import { commitAll, initRepo, makeTempDir, removeDir, writeFiles } from '../git/fixtures.js';

const NAME = 'example.com/symbols';
const OTHER = 'example.com/other';
const all = (): boolean => true;
let source = '';
let other = '';
let fixture: EngineFixture;
let index: SymbolIndex;

const manifest = (): Manifest => fixture.engine.catalog.get(NAME)!;
const paths = (refs: readonly { repo: string; path: string }[]): string[] => refs.map((r) => `${r.repo}:${r.path}`).sort();

before(async () => {
  source = initRepo(makeTempDir('quarry-symbols'));
  writeFiles(source, {
    'src/util.ts': 'export function oldHelper(): number {\n  return 1;\n}\n',
    'src/main.ts': "import { oldHelper } from './util.js';\nexport const total = oldHelper();\n",
    'cmd/tool.go': 'package main\n\nfunc Run() int {\n\tlocalOnly := 1\n\treturn localOnly\n}\n',
    'README.md': '# oldHelper\n',
  });
  commitAll(source, 'first');
  other = initRepo(makeTempDir('quarry-symbols-other'));
  writeFiles(other, { 'lib.py': 'def oldHelper():\n    return 2\n' });
  commitAll(other, 'first');
  fixture = await createEngineFixture({ pool: 'in-thread' });
  await addAndIndex(fixture, NAME, source);
  await addAndIndex(fixture, OTHER, other);
  index = fixture.engine.symbols;
});

after(async () => {
  await fixture.engine.close();
  removeDir(source);
  removeDir(other);
  removeDir(fixture.dataDir);
});

test('the manifest counts files with symbols and unsupported ones', () => {
  assert.deepEqual(manifest().symbols, { files: 3, unsupported: 1, skipped: 0, failed: 0 });
});

test('file symbols round-trip through the segment', () => {
  const util = index.fileSymbols(NAME, 'src/util.ts')!;
  assert.equal(util.language, 'TypeScript');
  assert.deepEqual(util.definitions, [{
    name: 'oldHelper', kind: 'function', parent: -1, exported: true,
    nameRange: { startLine: 0, startColumn: 16, endLine: 0, endColumn: 25 },
    range: { startLine: 0, startColumn: 7, endLine: 2, endColumn: 1 },
  }]);
  const main = index.fileSymbols(NAME, 'src/main.ts')!;
  assert.deepEqual(main.imports, [{ localName: 'oldHelper', importedName: 'oldHelper', source: './util.js', range: { startLine: 0, startColumn: 9, endLine: 0, endColumn: 18 } }]);
  assert.equal(index.fileSymbols(NAME, 'README.md'), null);
  assert.equal(index.fileSymbols(NAME, 'nope.ts'), null);
  assert.equal(index.fileSymbols('example.com/unknown', 'src/util.ts'), null);
});

test('name indexes find definers and users across repositories, filtered by canRead; locals are not indexed', () => {
  assert.deepEqual(paths(index.filesDefining('oldHelper', all)), [`${OTHER}:lib.py`, `${NAME}:src/util.ts`]);
  assert.deepEqual(paths(index.filesDefining('oldHelper', (repo) => repo === NAME)), [`${NAME}:src/util.ts`]);
  assert.deepEqual(paths(index.referenceGroups('oldHelper', all).map((g) => g.file)), [`${NAME}:src/main.ts`]);
  assert.deepEqual(index.filesDefining('localOnly', all), []);
  assert.deepEqual(paths(index.referenceGroups('localOnly', all).map((g) => g.file)), [`${NAME}:cmd/tool.go`]);
  assert.equal(index.filesDefining('oldHelper', all).find((f) => f.repo === NAME)!.commit, manifest().commit);
});

test('reference groups read from the name index equal the ones built from each file\'s whole tables', () => {
  for (const path of ['src/main.ts', 'src/util.ts', 'cmd/tool.go']) {
    const symbols = index.fileSymbols(NAME, path)!;
    for (const name of new Set(symbols.references.map((r) => r.name))) {
      const stored = index.referenceGroups(name, (repo) => repo === NAME).find((g) => g.file.path === path)!;
      const whole = referenceGroupOf(stored.file, symbols, name)!;
      assert.deepEqual(
        [stored.language, stored.definesName, stored.count, stored.receivers, stored.imports, stored.references()],
        [whole.language, whole.definesName, whole.count, whole.receivers, whole.imports, whole.references()], `${path} ${name}`);
    }
  }
  const [main] = index.referenceGroups('oldHelper', all);
  assert.deepEqual([main!.count, main!.definesName, main!.receivers, main!.imports.map((i) => i.source)], [2, false, [undefined], ['./util.js']]);
});

test('an incremental re-index finds the new symbols, drops the old ones and keeps unchanged files', async () => {
  writeFiles(source, { 'src/util.ts': 'export function newHelper(): number {\n  return 3;\n}\n' });
  commitAll(source, 'second');
  await syncRepository({ dataDir: fixture.dataDir, store: fixture.engine.store }, NAME);
  const outcome = await fixture.indexRepo(NAME);
  assert.equal(outcome.mode, 'incremental');
  assert.equal(manifest().segments.length, 2);
  assert.deepEqual(paths(index.filesDefining('newHelper', all)), [`${NAME}:src/util.ts`]);
  assert.deepEqual(paths(index.filesDefining('oldHelper', all)), [`${OTHER}:lib.py`]);
  assert.deepEqual(index.fileSymbols(NAME, 'src/util.ts')!.definitions.map((d) => d.name), ['newHelper']);
  assert.deepEqual(paths(index.referenceGroups('oldHelper', all).map((g) => g.file)), [`${NAME}:src/main.ts`], 'the unchanged file keeps its symbols');
  assert.deepEqual(manifest().symbols, { files: 3, unsupported: 1, skipped: 0, failed: 0 });
});

test('parse runs in the pool for files outside the index', async () => {
  const parsed = await index.parse('x/y.rs', new TextEncoder().encode('pub fn go_there() {}\n'));
  assert.deepEqual(parsed?.definitions.map((d) => [d.name, d.kind, d.exported]), [['go_there', 'function', true]]);
  assert.equal(await index.parse('notes.txt', new TextEncoder().encode('hello')), null);
});
