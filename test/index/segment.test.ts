/** A segment written to real LMDB files reads back identically; incomplete segments are refused. */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { META_FILE } from '../../src/index/format.js';
import { openSegmentReader } from '../../src/index/lmdb/segment-reader.js';
import { makeTempDir, removeDir } from '../git/fixtures.js';
import { tri, writeSegment } from './segment-fixture.js';

test('paths, contents, sizes and postings read back', async () => {
  const dir = makeTempDir();
  try {
    const files = { 'a/main.go': 'package main\nfunc Hello() {}\n', 'README.md': 'hello world', 'é/ü.txt': 'HELLO again' };
    await writeSegment(join(dir, 'seg'), files);
    const reader = openSegmentReader(join(dir, 'seg'));
    assert.equal(reader.docCount, 3);
    assert.deepEqual([0, 1, 2].map((d) => reader.path(d)), Object.keys(files));
    assert.equal(Buffer.from(reader.content(2)).toString(), 'HELLO again');
    assert.deepEqual([...reader.sizes], Object.values(files).map((c) => Buffer.byteLength(c)));
    assert.equal(reader.blobOid(1), 'ab'.repeat(20));
    assert.deepEqual([...reader.postings(tri('ell'), 0, 3)!], [0, 1]);
    assert.deepEqual([...reader.postings(tri('ell'), 1, 2)!], [1]);
    assert.deepEqual([...reader.postings(tri('ELL'), 0, 3)!], [2]);
    assert.deepEqual([...reader.postings(tri('qqq'), 0, 3)!], []);
    assert.equal(reader.info.docCount, 3);
    await reader.close();
  } finally {
    removeDir(dir);
  }
});

test('a segment without its meta file is reported, not misread', async () => {
  const dir = makeTempDir();
  try {
    await writeSegment(join(dir, 'seg'), { x: 'abc' });
    rmSync(join(dir, 'seg', META_FILE));
    assert.throws(() => openSegmentReader(join(dir, 'seg')), (err: Error & { code?: string }) => err.code === 'INDEX_CORRUPT' && /index segment seg is damaged: meta\.mdb is missing/.test(err.message));
  } finally {
    removeDir(dir);
  }
});
