/**
 * Incremental indexing: a new commit costs only its changed blobs, and the index then answers
 * exactly like git grep on the new commit (modified, deleted, added and renamed files).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { commitAll, git, makeTempDir, removeDir, writeFiles } from '../git/fixtures.js';
import { syncRepository } from '../../src/repos/registry.js';
import { buildCorpus, CORPUS_MAX_FILE_SIZE } from './corpus.js';
import { addAndIndex, createEngineFixture, matchedLines, type EngineFixture } from './engine-fixture.js';

const NAME = 'example.com/incremental';
let source = '';
let fixture: EngineFixture;

function grep(pattern: string): string[] {
  try {
    const out = execFileSync('git', ['grep', '-z', '-n', '-I', '-i', '-F', '-e', pattern, 'HEAD', '--', '.', ':(exclude)big/huge.txt'], { cwd: source, encoding: 'utf8' });
    return out.split('\n').filter(Boolean).map((r) => r.replace(/^HEAD:/, '').split('\0').slice(0, 2).join(':')).sort();
  } catch (err) {
    if ((err as { status?: number }).status === 1) return [];
    throw err;
  }
}

async function reindex() {
  await syncRepository({ dataDir: fixture.dataDir, store: fixture.engine.store }, NAME);
  return fixture.indexRepo(NAME);
}

async function assertMatchesGitGrep(patterns: string[]): Promise<void> {
  for (const p of patterns) {
    const response = await fixture.engine.search.search({ query: `type:file count:all "${p}"` });
    assert.deepEqual(matchedLines(response), grep(p), p);
  }
}

before(async () => {
  source = makeTempDir('quarry-incr');
  buildCorpus(source, 5, 200);
  fixture = await createEngineFixture({ maxFileSize: CORPUS_MAX_FILE_SIZE });
  await addAndIndex(fixture, NAME, source);
});

after(async () => {
  await fixture.engine.close();
  removeDir(source);
  removeDir(fixture.dataDir);
});

test('a commit changing four paths reads four blobs and serves the new tree', async () => {
  writeFiles(source, { 'file3.ts': 'modified zebra_unique_token\n', 'added/new.go': 'package added // zebra_unique_token\n' });
  rmSync(join(source, 'Makefile'));
  mkdirSync(join(source, 'moved'));
  git(source, 'mv', 'nested/a/b/c/d/deep.go', 'moved/deep.go');
  commitAll(source, 'change four paths');
  const outcome = await reindex();
  assert.equal(outcome.mode, 'incremental');
  assert.equal(outcome.blobsRead, 3, 'modified + added + renamed blob; the deletion reads nothing');
  assert.equal(outcome.manifest.segments.length, 2);
  await assertMatchesGitGrep(['zebra_unique_token', 'gcc -o', 'func Deep', 'foo', 'struct']);
  const paths = await fixture.engine.search.search({ query: 'type:path count:all deep' });
  assert.deepEqual(paths.matches.map((m) => ('path' in m ? m.path : '')), ['moved/deep.go']);
});

test('an unchanged repository is not re-read', async () => {
  const outcome = await reindex();
  assert.equal(outcome.mode, 'unchanged');
  assert.equal(outcome.blobsRead, 0);
});

test('after many commits the repository is rebuilt into one segment and stays exact', async () => {
  for (let i = 0; i < 9; i++) {
    writeFiles(source, { [`series/step${i}.txt`]: `step ${i} quokka_token\n`, 'file4.py': `rewritten ${i} quokka_token\n` });
    commitAll(source, `step ${i}`);
    await reindex();
  }
  const last = await reindex();
  const manifest = fixture.engine.catalog.get(NAME)!;
  assert.ok(manifest.segments.length <= 8, `segments: ${manifest.segments.length}`);
  assert.equal(last.manifest.files, manifest.files);
  await assertMatchesGitGrep(['quokka_token', 'rewritten', 'zebra_unique_token', 'foo']);
});
