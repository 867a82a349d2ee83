/**
 * Shard tasks over ranges of one segment sharing their candidates (src/shard/range-share.ts), run
 * one after another on this thread with the real Hyperscan matcher: a task done with its own range
 * takes an unstarted range or joins a started one, every document is verified by exactly one task,
 * and the tasks together find exactly what one task over the whole segment finds.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createMemorySource, packMemoryDocs } from '../../src/index/memory-source.js';
import { compileCached } from '../../src/pool/matchers.js';
import { parseQuery } from '../../src/query/index.js';
import { planBasicQuery } from '../../src/search/plan.js';
import { unpackLines } from '../../src/shard/packed-lines.js';
import { createRangeBoard, MIN_JOINED_CANDIDATES, publishCandidates, SHARE_WINDOW_MS, type RangeShare } from '../../src/shard/range-share.js';
import { searchShard, type ShardSearchResult } from '../../src/shard/search-shard.js';

const DOCS = 40;
const SPLIT = 20;
/** A tombstoned document in the second range that holds a match: no task may report it. */
const DELETED = 25;

// Matches only in the second range (as a selective query's candidates cluster in one directory),
// multibyte text and adjacent matches included.
const source = createMemorySource(packMemoryDocs(Array.from({ length: DOCS }, (_, i) => ({
  path: `${i < SPLIT ? 'arch' : 'fs/ext4'}/file${String(i).padStart(2, '0')}.c`,
  content: Buffer.from(i < SPLIT ? `static int other_${i};\n` : `ext4_é_inode ext4_read_inodeext4_write_inode\nnothing ${i}\n日本 ext4_x_inode\n`),
}))));
const plan = planBasicQuery(parseQuery('type:file count:all case:yes patterntype:regexp ext4_[a-zé_]+_inode').basics[0]!, { matcher: 'auto' });
const ranges = [{ lo: 0, hi: SPLIT, deleted: [] }, { lo: SPLIT, hi: DOCS, deleted: [DELETED] }];

function run(lo: number, hi: number, deleted: readonly number[], share: RangeShare | null, limit = Infinity): ShardSearchResult {
  return searchShard({ source, plan, lo, hi, deleted: new Set(deleted), limit, deadline: Date.now() + 10_000, stop: null, compile: compileCached, share });
}

function rows(...results: ShardSearchResult[]): string[] {
  return results.flatMap((r) => r.files.flatMap((f) => unpackLines(f.lines).map((l) => `${f.path}:${l.lineNumber}:${JSON.stringify(l.offsetAndLengths)}`))).sort();
}

const whole = run(0, DOCS, [DELETED], null);

test('the whole segment in one task: the reference the shared tasks are held to', () => {
  assert.equal(whole.files.length, DOCS - SPLIT - 1);
  assert.ok(!whole.files.some((f) => f.doc === DELETED));
  assert.deepEqual(rows(whole).filter((r) => r.startsWith('fs/ext4/file21.c:')), ['fs/ext4/file21.c:0:[[0,12],[13,15],[28,16]]', 'fs/ext4/file21.c:2:[[3,12]]']);
});

test('a task done with its own range joins a started range and verifies the candidates it has not claimed yet', () => {
  const board = createRangeBoard(2);
  // The second range's task has started (published its candidates) but claimed none so far.
  publishCandidates(board, 1, DOCS - SPLIT - 1);
  const first = run(0, SPLIT, [], { board, ranges, own: 0, windowMs: SHARE_WINDOW_MS });
  const second = run(SPLIT, DOCS, [DELETED], { board, ranges, own: 1, windowMs: SHARE_WINDOW_MS });
  assert.equal(first.files.length, DOCS - SPLIT - 1, 'the first task verified all of the second range');
  assert.equal(second.files.length, 0, 'nothing was left for the second range\'s own task');
  assert.equal(first.stats.candidates + second.stats.candidates, DOCS - 1, 'each live document verified once');
  assert.deepEqual(rows(first, second), rows(whole));
});

test('a task done with its own range takes one no task has started; that range\'s task then finds nothing left to compute', () => {
  const board = createRangeBoard(2);
  const first = run(0, SPLIT, [], { board, ranges, own: 0, windowMs: SHARE_WINDOW_MS });
  const second = run(SPLIT, DOCS, [DELETED], { board, ranges, own: 1, windowMs: SHARE_WINDOW_MS });
  assert.equal(first.files.length, DOCS - SPLIT - 1);
  assert.equal(first.stats.candidates, DOCS - 1);
  assert.equal(second.files.length, 0);
  assert.equal(second.stats.candidates, 0);
  assert.equal(second.stats.docsScanned, 0);
  assert.deepEqual(rows(first, second), rows(whole));
});

test('past its window a task takes no other range, so a heavy query\'s tasks stay one range long', () => {
  const board = createRangeBoard(2);
  const first = run(0, SPLIT, [], { board, ranges, own: 0, windowMs: 0 });
  const second = run(SPLIT, DOCS, [DELETED], { board, ranges, own: 1, windowMs: 0 });
  assert.equal(first.files.length, 0);
  assert.equal(first.stats.candidates, SPLIT);
  assert.deepEqual(rows(second), rows(whole));
});

test(`fewer than ${MIN_JOINED_CANDIDATES} unclaimed candidates are not worth computing a started range's candidates again`, () => {
  const board = createRangeBoard(2);
  publishCandidates(board, 1, DOCS - SPLIT - 1);
  Atomics.store(board, 3, DOCS - SPLIT - MIN_JOINED_CANDIDATES);
  const first = run(0, SPLIT, [], { board, ranges, own: 0, windowMs: SHARE_WINDOW_MS });
  assert.equal(first.files.length, 0);
});

test('a task that reaches its limit in a stolen range leaves the rest of it to nobody and says so', () => {
  const board = createRangeBoard(2);
  publishCandidates(board, 1, DOCS - SPLIT - 1);
  const first = run(0, SPLIT, [], { board, ranges, own: 0, windowMs: SHARE_WINDOW_MS }, 4);
  const second = run(SPLIT, DOCS, [DELETED], { board, ranges, own: 1, windowMs: SHARE_WINDOW_MS });
  assert.equal(first.limitHit, true);
  assert.equal(first.files.length, 2, 'two lines per file: the limit of 4 is reached in the second file');
  assert.equal(second.files.length, 0);
});
