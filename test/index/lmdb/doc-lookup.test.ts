/**
 * Reading a file from a repository's live index: the newest version of each path across segments,
 * deletions honoured, skipped files absent, bytes owned by the caller, replaced segments closed.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { segmentsDir } from '../../../src/index/lmdb/catalog.js';
import { createDocLookup, type DocLookup } from '../../../src/index/lmdb/doc-lookup.js';
import type { Manifest } from '../../../src/index/manifest.js';
import { syncRepository } from '../../../src/repos/registry.js';
import { addAndIndex, createEngineFixture, type EngineFixture } from '../../e2e/engine-fixture.js';
import { BINARY_CONTENT, commitAll, initRepo, makeTempDir, removeDir, writeFiles } from '../../git/fixtures.js';

const NAME = 'example.com/lookup';
let source = '';
let fixture: EngineFixture;
let lookup: DocLookup;

const manifest = (): Manifest => fixture.engine.catalog.get(NAME)!;
const read = (path: string): string | null => lookup.read(manifest(), path)?.toString('utf8') ?? null;

before(async () => {
  source = initRepo(makeTempDir('quarry-lookup'));
  const many: Record<string, string> = {};
  for (let i = 0; i < 30; i++) many[`pad/file${i}.txt`] = `padding ${i}\n`;
  writeFiles(source, { ...many, 'keep.txt': 'kept\n', 'change.txt': 'version 1\n', 'gone.txt': 'to be deleted\n', 'src/a.ts': 'export const a = 1;\n', 'logo.bin': BINARY_CONTENT });
  commitAll(source, 'first');
  fixture = await createEngineFixture({ pool: 'in-thread' });
  await addAndIndex(fixture, NAME, source);
  lookup = createDocLookup((id) => join(segmentsDir(fixture.dataDir), id));
});

after(async () => {
  await lookup.close();
  await fixture.engine.close();
  removeDir(source);
  removeDir(fixture.dataDir);
});

test('a path of a one-segment index reads its content; absent and skipped paths are null', () => {
  assert.equal(manifest().segments.length, 1);
  assert.equal(read('change.txt'), 'version 1\n');
  assert.equal(read('src/a.ts'), 'export const a = 1;\n');
  assert.equal(read('nope.txt'), null);
  assert.equal(read('src'), null, 'a directory is not a document');
  assert.equal(read('logo.bin'), null, 'binary files are skipped by the indexer');
});

test('returned bytes are a copy that later reads do not overwrite', () => {
  const first = lookup.read(manifest(), 'keep.txt')!;
  lookup.read(manifest(), 'change.txt');
  lookup.read(manifest(), 'src/a.ts');
  assert.equal(first.toString('utf8'), 'kept\n');
});

test('after an incremental re-index the newest version wins and deleted files are gone', async () => {
  const oldSegment = manifest().segments[0]!.id;
  writeFiles(source, { 'change.txt': 'version 2\n', 'added.txt': 'new\n' });
  rmSync(join(source, 'gone.txt'));
  commitAll(source, 'second');
  await syncRepository({ dataDir: fixture.dataDir, store: fixture.engine.store }, NAME);
  const outcome = await fixture.indexRepo(NAME);
  assert.equal(outcome.mode, 'incremental');
  assert.equal(manifest().segments.length, 2);
  assert.equal(manifest().segments[0]!.id, oldSegment, 'the first segment is kept, with tombstones');
  assert.equal(read('change.txt'), 'version 2\n');
  assert.equal(read('gone.txt'), null);
  assert.equal(read('added.txt'), 'new\n');
  assert.equal(read('keep.txt'), 'kept\n', 'unchanged files still come from the older segment');
});

test('a full rebuild closes the segments the repository no longer uses', async () => {
  const before = manifest().segments.map((s) => s.id);
  // Rewriting most files pushes the deleted fraction over the rebuild threshold.
  const rewrite: Record<string, string> = {};
  for (let i = 0; i < 30; i++) rewrite[`pad/file${i}.txt`] = `rewritten ${i}\n`;
  writeFiles(source, rewrite);
  commitAll(source, 'third');
  await syncRepository({ dataDir: fixture.dataDir, store: fixture.engine.store }, NAME);
  assert.equal((await fixture.indexRepo(NAME)).mode, 'full');
  assert.equal(read('pad/file7.txt'), 'rewritten 7\n');
  const open = lookup.openSegments();
  assert.ok(before.every((id) => !open.includes(id)), `stale segments still open: ${open.join(', ')}`);
  assert.deepEqual(open, manifest().segments.map((s) => s.id));
});

test('with room for one open segment, reads across two segments still find every file', async () => {
  const small = createDocLookup((id) => join(segmentsDir(fixture.dataDir), id), 1);
  try {
    writeFiles(source, { 'change.txt': 'version 3\n' });
    commitAll(source, 'fourth');
    await syncRepository({ dataDir: fixture.dataDir, store: fixture.engine.store }, NAME);
    assert.equal((await fixture.indexRepo(NAME)).mode, 'incremental');
    assert.equal(small.read(manifest(), 'change.txt')?.toString(), 'version 3\n');
    assert.equal(small.read(manifest(), 'keep.txt')?.toString(), 'kept\n');
    assert.equal(small.read(manifest(), 'change.txt')?.toString(), 'version 3\n');
    assert.equal(small.openSegments().length, 1);
  } finally {
    await small.close();
  }
});
