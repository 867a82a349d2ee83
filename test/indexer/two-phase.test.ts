/**
 * Two-phase index runs over a real git repository and real LMDB: the text phase publishes a
 * searchable index without symbol tables, navigation in that window parses on demand and says so,
 * and the symbols phase completes the index with the tables a parse of each file gives.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { goToDefinitionTool } from '../../src/api/mcp/tools/go-to-definition.js';
import { segmentsDir } from '../../src/index/lmdb/catalog.js';
import { mcpServices } from '../../src/server/mcp.js';
import { getRepo } from '../../src/store/repos.js';
import { callTool } from '../api/mcp/tool-context.js';
import { addRepository, syncRepository } from '../../src/repos/registry.js';
import { loadConfig } from '../../src/config.js';
import { createServices } from '../../src/services.js';
import { createEngineFixture, type EngineFixture } from '../e2e/engine-fixture.js';
import { commitAll, initRepo, makeTempDir, removeDir, writeFiles } from '../git/fixtures.js';
import type { PhaseProgress } from '../../src/indexer/index-progress.js';

const REPO = 'example.com/phases';
let fixture: EngineFixture;
let source = '';

function files(version: number): Record<string, string> {
  const out: Record<string, string> = {
    'main.ts': `function localThing(): number {\n  return ${version};\n}\nexport const answer = localThing() + 1;\n`,
    'notes.txt': `phase_marker ${version}\n`,
  };
  for (let i = 0; i < 40; i++) out[`lib/m${i}.ts`] = `export function helper${i}(x: number): number {\n  return x + ${i * version};\n}\nexport class Widget${i} { run() { return helper${i}(${version}); } }\n`;
  return out;
}

const repo = () => getRepo(fixture.engine.store, REPO)!;
const manifest = () => fixture.engine.catalog.get(REPO)!;
const segmentDirNames = () => readdirSync(segmentsDir(fixture.dataDir)).filter((n) => !n.includes('.lock') && !n.includes('.progress'));

before(async () => {
  fixture = await createEngineFixture({ pool: 'in-thread' });
  source = initRepo(makeTempDir('quarry-phases-src'));
  writeFiles(source, files(1));
  commitAll(source, 'first');
  await addRepository({ dataDir: fixture.dataDir, store: fixture.engine.store }, REPO, source);
});

after(async () => {
  await fixture.engine.close();
  removeDir(source);
  removeDir(fixture.dataDir);
});

test('--text-only publishes a searchable index whose symbols are pending; navigation parses on demand and says so', async () => {
  const phases: PhaseProgress[] = [];
  const outcome = await fixture.engine.index(repo(), { textOnly: true, onPhase: (p) => phases.push(p) });
  assert.equal(outcome.manifest.symbolsPending, true);
  assert.equal(outcome.manifest.symbols, undefined);
  assert.deepEqual([...new Set(phases.map((p) => p.phase))], ['text'], 'a text-only run stops after the text phase');
  const text = phases.filter((p) => p.phase === 'text');
  assert.equal(text.at(-1)!.finished, true);
  assert.equal(text.at(-1)!.done, 42);
  assert.equal(text.at(-1)!.total, 42);

  const found = await fixture.engine.search.search({ query: 'phase_marker' });
  assert.deepEqual(found.matches.map((m) => (m as { path: string }).path), ['notes.txt']);
  assert.equal(fixture.engine.symbols.fileSymbols(REPO, 'lib/m3.ts'), null, 'no stored tables before the symbols phase');
  assert.deepEqual(fixture.engine.symbols.filesDefining('helper3', () => true), []);
  assert.equal(await fixture.engine.reasonToIndex(repo()), 'its symbol tables are not extracted yet (a text-only or interrupted run)');

  const answer = await callTool(mcpServices(fixture.engine), goToDefinitionTool, { repo: REPO, path: 'main.ts', symbol: 'localThing', line: 4 });
  assert.equal(answer.isError, undefined, answer.text);
  assert.match(answer.text, /function localThing\(\): number/);
  assert.match(answer.text, /symbol tables of example\.com\/phases are still being extracted: main\.ts was parsed on demand/);
});

test('the next run adds the symbols: tables equal a parse of each file, the text-only segment is replaced, no note', async () => {
  const before = manifest().segments.map((s) => s.id);
  const phases: PhaseProgress[] = [];
  const outcome = await fixture.engine.index(repo(), { onPhase: (p) => phases.push(p) });
  assert.equal(outcome.mode, 'unchanged');
  assert.equal(outcome.manifest.symbolsPending, undefined);
  assert.deepEqual(outcome.manifest.symbols, { files: 41, unsupported: 1, skipped: 0, failed: 0 });
  const symbols = phases.filter((p) => p.phase === 'symbols');
  assert.equal(symbols.at(-1)!.done, 42);
  assert.equal(symbols.at(-1)!.finished, true);
  assert.ok(symbols.every((p, i) => i === 0 || p.done >= symbols[i - 1]!.done), 'progress never goes back');

  const after = manifest().segments.map((s) => s.id);
  assert.equal(after.length, before.length);
  assert.notDeepEqual(after, before, 'the segment with tables is a new one');
  assert.deepEqual(segmentDirNames().sort(), [...after].sort(), 'the text-only segment is removed once replaced');
  for (const path of ['main.ts', 'lib/m0.ts', 'lib/m39.ts']) {
    const content = fixture.engine.docs.read(manifest(), path)!;
    assert.deepEqual(fixture.engine.symbols.fileSymbols(REPO, path), await fixture.engine.symbols.parse(path, content), path);
  }
  assert.deepEqual(fixture.engine.symbols.filesDefining('helper3', () => true).map((f) => f.path), ['lib/m3.ts']);
  assert.equal(await fixture.engine.reasonToIndex(repo()), null);

  const answer = await callTool(mcpServices(fixture.engine), goToDefinitionTool, { repo: REPO, path: 'main.ts', symbol: 'localThing', line: 4 });
  assert.doesNotMatch(answer.text, /still being extracted/);
});

test('an incremental run extracts symbols for its new segment only and keeps the older tables', async () => {
  writeFiles(source, { 'lib/m5.ts': 'export function renamedHelper(): number {\n  return 5;\n}\n' });
  commitAll(source, 'second');
  await syncRepository({ dataDir: fixture.dataDir, store: fixture.engine.store }, REPO);
  const phases: PhaseProgress[] = [];
  const outcome = await fixture.engine.index(repo(), { onPhase: (p) => phases.push(p) });
  assert.equal(outcome.mode, 'incremental');
  assert.equal(manifest().segments.length, 2);
  assert.equal(phases.filter((p) => p.phase === 'symbols').at(-1)!.total, 1, 'only the new segment\'s one file is parsed');
  assert.deepEqual(outcome.manifest.symbols, { files: 41, unsupported: 1, skipped: 0, failed: 0 });
  assert.deepEqual(fixture.engine.symbols.filesDefining('renamedHelper', () => true).map((f) => f.path), ['lib/m5.ts']);
  assert.deepEqual(fixture.engine.symbols.filesDefining('helper5', () => true), []);
  assert.deepEqual(fixture.engine.symbols.filesDefining('helper6', () => true).map((f) => f.path), ['lib/m6.ts']);
});

test('with symbols turned off there is no symbols phase and nothing is pending', async () => {
  const dataDir = makeTempDir('quarry-phases-off');
  const engine = createServices(loadConfig({ dataDir, threads: 1 }, { ...process.env, QUARRY_SYMBOLS: '0' }), { pool: 'in-thread' });
  try {
    await addRepository({ dataDir, store: engine.store }, REPO, source);
    const phases: PhaseProgress[] = [];
    const outcome = await engine.index(getRepo(engine.store, REPO)!, { onPhase: (p) => phases.push(p) });
    assert.equal(outcome.manifest.symbolsPending, undefined);
    assert.equal(outcome.manifest.symbols, undefined);
    assert.deepEqual([...new Set(phases.map((p) => p.phase))], ['text', 'history']);
    assert.equal(await engine.reasonToIndex(getRepo(engine.store, REPO)!), null);
  } finally {
    await engine.close();
    removeDir(dataDir);
  }
});

test('the progress file is removed when the run ends', () => {
  assert.deepEqual(readdirSync(segmentsDir(fixture.dataDir)).filter((n) => n.includes('.progress')), []);
});
