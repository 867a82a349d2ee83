/**
 * The segment writer on a real small file system (a tmpfs mounted for the test, so it needs root):
 * it stops with DISK_FULL while room remains, during contents and before postings, and its abort
 * leaves nothing behind.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statfsSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { isQuarryError } from '../../src/errors.js';
import { mergeRuns } from '../../src/index/build/merge.js';
import { buildRun } from '../../src/index/build/run.js';
import { TrigramExtractor } from '../../src/index/build/trigrams.js';
import { asDiskFull } from '../../src/index/lmdb/disk-space.js';
import { createSegmentWriter } from '../../src/index/lmdb/segment-writer.js';
import { makeTempDir, removeDir } from '../git/fixtures.js';
import { seededRandom } from '../helpers/random.js';

const root = makeTempDir('quarry-disk-space');
const disk = join(root, 'disk');
mkdirSync(disk);
const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=16m', 'tmpfs', disk], { stdio: 'ignore' }).status === 0;

describe('segment writer on a small disk', { skip: mounted ? false : 'needs root to mount a tmpfs (mount -t tmpfs)' }, () => {
  after(() => {
    spawnSync('umount', [disk]);
    removeDir(root);
  });

  const full = (what: RegExp) => (err: unknown): boolean => {
    assert.ok(isQuarryError(err, 'DISK_FULL'), String(err));
    assert.match(err.message, new RegExp(`^no space left on the disk holding ${disk.replace(/[/.]/g, '\\$&')}: `));
    assert.match(err.message, what);
    return true;
  };

  it('stops adding contents before the disk is full, and abort removes the segment', async () => {
    const writer = createSegmentWriter(join(disk, 'contents'));
    const content = Buffer.alloc(256 * 1024, 'a');
    await assert.rejects(async () => {
      for (let doc = 0; doc < 200; doc++) await writer.addDocument(doc, content);
    }, full(/: [\d.]+ MiB left after writing [\d.]+ MiB of the new index segment; the previous index keeps serving/));
    await writer.abort();
    assert.equal(existsSync(join(disk, 'contents')), false);
    assert.deepEqual(readdirSync(disk), []);
  });

  it('refuses postings that cannot fit before writing any', async () => {
    // Varied text: few bytes of contents, many distinct trigrams, so postings outweigh contents.
    const random = seededRandom(7);
    const docs = Array.from({ length: 60 }, () => Buffer.from(Array.from({ length: 64_000 }, () => 33 + Math.floor(random() * 90))));
    const contentBytes = docs.reduce((n, d) => n + d.length, 0);
    // Room for the contents and a little more, but not for the postings.
    const spare = join(disk, 'spare');
    spawnSync('fallocate', ['-l', String(freeBytes() - Math.round(contentBytes * 1.2) - 3 * 1024 * 1024), spare]);
    const writer = createSegmentWriter(join(disk, 'postings'));
    for (const [doc, content] of docs.entries()) await writer.addDocument(doc, content);
    const tables = { extractor: new TrigramExtractor(), counts: new Uint32Array(1 << 24) };
    await assert.rejects(writer.finish({
      paths: docs.map((_, i) => `f${i}`), blobs: Buffer.alloc(20 * docs.length), sizes: Uint32Array.from(docs, (d) => d.length), flags: new Uint8Array(docs.length),
    }, mergeRuns([buildRun(tables, 0, docs)])), full(/the new index segment's postings needs at least [\d.]+ MiB, [\d.]+ MiB are free/));
    await writer.abort();
    assert.deepEqual(readdirSync(disk), ['spare']);
  });
});

function freeBytes(): number {
  const { bavail, bsize } = statfsSync(disk);
  return bavail * bsize;
}

describe('a raw "no space" failure from a write outside the segment writers', () => {
  const dir = makeTempDir('quarry-as-disk-full');
  after(() => removeDir(dir));

  it('becomes DISK_FULL naming the disk; other errors pass through unchanged', () => {
    const raw = new Error('No space left on device: Attempting to write page at position 12288, size 8192');
    const mapped = asDiskFull(raw, dir, 'indexing');
    assert.ok(isQuarryError(mapped, 'DISK_FULL'));
    assert.match(mapped.message, new RegExp(`^no space left on the disk holding ${dir.replace(/[/.]/g, '\\$&')}: indexing failed with [\\d.]+ MiB free; the previous index keeps serving`));
    const errno = Object.assign(new Error('write failed'), { code: 'ENOSPC' });
    assert.ok(isQuarryError(asDiskFull(errno, dir, 'indexing'), 'DISK_FULL'));
    const other = new Error('MDB_CORRUPTED: Located page was wrong type');
    assert.equal(asDiskFull(other, dir, 'indexing'), other);
  });
});
