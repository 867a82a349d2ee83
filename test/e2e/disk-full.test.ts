/**
 * A full disk during indexing, on a real small file system (a tmpfs mounted for the test, so it
 * needs root): the index run stops with an error naming the disk, the previous index keeps
 * serving, nothing half-written stays behind; a symbols phase without room for its segment copy
 * leaves the new text index serving; and once there is room the next run completes.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readdirSync, rmSync, statfsSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { commitAll, initRepo, makeTempDir, removeDir, writeFiles } from '../git/fixtures.js';
import { BIN, quarry, search, segmentDirs, until } from './cli-process.js';

const NAME = 'example.com/big';

function mountTmpfs(dir: string, size: string): boolean {
  return spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'ignore' }).status === 0;
}

/** Text git stores compactly (repetitive) but the index stores whole: 64 KiB per file. */
function bulk(label: string, count: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < count; i++) files[`${label}/f${i}.txt`] = `${label}_marker ${i}\n${`line ${label} ${i % 10} of repetitive text\n`.repeat(2000)}`;
  return files;
}

/** Writes `path` until the disk is full or it holds `limit` bytes. */
function fill(path: string, limit = Infinity): void {
  const fd = openSync(path, 'w');
  const chunk = Buffer.alloc(1024 * 1024);
  try {
    for (let written = 0; written < limit; written += chunk.length) writeSync(fd, chunk, 0, Math.min(chunk.length, limit - written));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    closeSync(fd);
  }
}

const root = makeTempDir('quarry-disk-full');
const disk = join(root, 'disk');
mkdirSync(disk);
const mounted = mountTmpfs(disk, '100m');

describe('a full disk while indexing', { skip: mounted ? false : 'needs root to mount a tmpfs (mount -t tmpfs)' }, () => {
  const data = join(disk, 'data');
  const filler = join(disk, 'filler');
  let source = '';
  before(() => {
    source = initRepo(join(root, 'source'));
    writeFiles(source, { 'old.txt': 'original_marker\n', ...bulk('small', 20) });
    commitAll(source, 'first');
    assert.equal(quarry(data, ['repos', 'add', NAME, source]).status, 0);
    const first = quarry(data, ['index']);
    assert.equal(first.status, 0, first.stderr);
    writeFiles(source, bulk('big', 800));
    commitAll(source, 'big');
  });
  after(() => {
    spawnSync('umount', [disk]);
    removeDir(root);
  });

  const free = (): number => statfsSync(disk).bavail * statfsSync(disk).bsize;
  const assertOldIndexServes = (): void => {
    assert.deepEqual(search(data, 'original_marker').paths, ['old.txt']);
    assert.equal(search(data, 'count:all small_marker').paths.length, 20);
    assert.deepEqual(search(data, 'big_marker').paths, []);
    // Only the live segment is left: nothing half-written behind, none picked up.
    assert.equal(segmentDirs(data).length, 1, segmentDirs(data).join(', '));
    assert.deepEqual(readdirSync(join(data, 'index', 'segments')).filter((n) => n.endsWith('.tmp') || n.endsWith('.lock')), []);
    assert.match(JSON.parse(quarry(data, ['repos', 'list', '--json']).stdout)[0].status, /^failed: index failed: no space left on the disk holding /);
  };

  it('refuses at once, naming the disk, when the new files cannot fit; the old index keeps serving', () => {
    fill(filler, free() - 30 * 1024 * 1024);
    try {
      const run = quarry(data, ['index']);
      assert.equal(run.status, 1);
      const segments = join(data, 'index', 'segments').replace(/[/.]/g, '\\$&');
      // Before it, the text phase's start line (progress-display.ts); the refusal is the last line.
      assert.match(run.stderr, new RegExp(`(?:^|\\n)quarry: ${NAME.replace('.', '\\.')}: no space left on the disk holding ${segments}: the new index segment needs at least [\\d.]+ MiB, [\\d.]+ MiB are free; the previous index keeps serving; free space and index again\\n$`));
      assertOldIndexServes();
    } finally {
      rmSync(filler, { force: true });
    }
  });

  it('stops cleanly when another writer fills the disk while the segment is written', async () => {
    const child = spawn(process.execPath, [BIN, 'index', '--no-fetch', '--data', data], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      await until(() => segmentDirs(data).length > 1, 'the new segment to appear');
      fill(filler);
      assert.equal(await exited, 1, stderr);
      // lmdb-js may print the failed write itself; what matters is Quarry's one line and no crash.
      assert.match(stderr, /quarry: example\.com\/big: no space left on the disk holding \S+: .*; the previous index keeps serving; free space and index again\n$/);
      assert.doesNotMatch(stderr, /Segmentation|Unhandled|triggerUncaughtException/);
      assertOldIndexServes();
    } finally {
      rmSync(filler, { force: true });
    }
  });

  it('publishes the text index when only the symbols phase lacks room, and says what it needs', () => {
    // The symbols phase writes a copy of the segment beside it: this disk holds the text segment, not two.
    const run = quarry(data, ['index', '--no-fetch']);
    assert.equal(run.status, 1, run.stderr);
    assert.match(run.stderr, /quarry: example\.com\/big: no space left on the disk holding \S+: the segment copy for symbol tables needs at least [\d.]+ MiB, [\d.]+ MiB are free; the previous index keeps serving; free space and index again\n$/);
    assert.equal(search(data, 'count:all big_marker').paths.length, 800);
    assert.deepEqual(search(data, 'original_marker').paths, ['old.txt']);
    // The first run's segment and the new text segment serve; the unfinished copy is gone.
    assert.equal(segmentDirs(data).length, 2, segmentDirs(data).join(', '));
  });

  it('completes once there is room, without a manual step', () => {
    assert.equal(spawnSync('mount', ['-o', 'remount,size=200m', disk]).status, 0);
    const run = quarry(data, ['index', '--no-fetch']);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(search(data, 'count:all big_marker').paths.length, 800);
    assert.equal(JSON.parse(quarry(data, ['repos', 'list', '--json']).stdout)[0].status, 'ok');
  });
});
