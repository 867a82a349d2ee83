/**
 * A shard task returns at its first match while its search has delivered none (FIRST_DELIVERED is
 * 0), with where to resume, so a streamed search's first results do not wait for the rest of a
 * range; tasks resumed from there, lone or sharing a segment's ranges, find exactly what one task
 * over the whole segment finds. Then the search service: a streamed search's first matches come
 * one file at a time, and its final answer is unchanged.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { createMemorySource, packMemoryDocs } from '../../src/index/memory-source.js';
import { createInThreadEnginePool } from '../../src/pool/in-thread-pool.js';
import type { ShardTask } from '../../src/pool/messages.js';
import { compileCached } from '../../src/pool/matchers.js';
import { parseQuery } from '../../src/query/index.js';
import { planBasicQuery } from '../../src/search/plan.js';
import { resumedTask } from '../../src/search/searchers/shard-fanout.js';
import { createSearchService } from '../../src/search/service.js';
import type { SearchMatch } from '../../src/model/result.js';
import { unpackLines } from '../../src/shard/packed-lines.js';
import { createRangeBoard, MIN_JOINED_CANDIDATES, SHARE_WINDOW_MS, type RangeShare } from '../../src/shard/range-share.js';
import { searchShard, type ShardResume, type ShardSearchResult } from '../../src/shard/search-shard.js';
import { FIRST_DELIVERED } from '../../src/shard/stop-flags.js';
import { createMemoryIndex } from '../search/memory-index.js';

const DOCS = 40;
const SPLIT = 20;
/** A tombstoned document that holds a match: no task may report it. */
const DELETED = 24;
/** Every third document matches, in both ranges; the first range has 7 matches, fewer than a task joins for. */
const matches = (i: number): boolean => i % 3 === 0;
const files = Array.from({ length: DOCS }, (_, i) => ({
  path: `src/file${String(i).padStart(2, '0')}.c`,
  content: matches(i) ? `int x;\nspin_lock_irqsave(&l, f); /* ${i} */\nspin_lock_irqsave(&m, f);\n` : `int y_${i};\n`,
}));
const source = createMemorySource(packMemoryDocs(files.map((f) => ({ path: f.path, content: Buffer.from(f.content) }))));
const plan = planBasicQuery(parseQuery('type:file count:all case:yes spin_lock_irqsave').basics[0]!, { matcher: 'auto' });
const ranges = [{ lo: 0, hi: SPLIT, deleted: [] }, { lo: SPLIT, hi: DOCS, deleted: [DELETED] }];

/** A stop array whose FIRST_DELIVERED slot says no match has reached the caller yet. */
const awaiting = (): Int32Array => new Int32Array(new SharedArrayBuffer(8));

function run(lo: number, hi: number, deleted: readonly number[], stop: Int32Array | null, share: RangeShare | null = null): ShardSearchResult {
  return searchShard({ source, plan, lo, hi, deleted: new Set(deleted), limit: Infinity, deadline: Date.now() + 10_000, stop, compile: compileCached, share });
}

function rows(results: readonly ShardSearchResult[]): string[] {
  return results.flatMap((r) => r.files.flatMap((f) => unpackLines(f.lines).map((l) => `${f.path}:${l.lineNumber}:${JSON.stringify(l.offsetAndLengths)}`))).sort();
}

const whole = run(0, DOCS, [DELETED], null);

test('the reference: one task over the whole segment, no early return', () => {
  assert.equal(whole.files.length, files.filter((_, i) => matches(i) && i !== DELETED).length);
  assert.equal(whole.resume, undefined);
  assert.equal(run(0, DOCS, [DELETED], new Int32Array(new SharedArrayBuffer(4))).resume, undefined, 'a stop array without the slot never returns early');
});

test('a lone range returns at each match while none is delivered; resumed from there, it finds the same', () => {
  const parts: ShardSearchResult[] = [];
  let lo = 0;
  for (;;) {
    const part = run(lo, DOCS, [DELETED], awaiting());
    parts.push(part);
    if (part.resume === undefined) break;
    assert.equal(part.files.length, 1, 'one file, then back to the caller');
    assert.ok('lo' in part.resume);
    assert.equal(part.resume.lo, part.files[0]!.doc + 1);
    lo = part.resume.lo;
  }
  assert.equal(parts.length, whole.files.length + 1);
  assert.deepEqual(rows(parts), rows([whole]));
});

test('once the first matches are delivered, a task runs its range to the end', () => {
  const stop = awaiting();
  Atomics.store(stop, FIRST_DELIVERED, 1);
  const all = run(0, DOCS, [DELETED], stop);
  assert.equal(all.resume, undefined);
  assert.deepEqual(rows([all]), rows([whole]));
});

test(`shared ranges: the resumed task claims the rest of its range, even fewer than ${MIN_JOINED_CANDIDATES} candidates, then the others`, () => {
  const board = createRangeBoard(2);
  const share = (own: number, resumed = false): RangeShare => ({ board, ranges, own, windowMs: SHARE_WINDOW_MS, resumed });
  const first = run(0, SPLIT, [], awaiting(), share(0));
  assert.equal(first.files.length, 1);
  assert.deepEqual(first.resume, { range: 0 } satisfies ShardResume);
  const delivered = awaiting();
  Atomics.store(delivered, FIRST_DELIVERED, 1);
  const rest = run(0, SPLIT, [], delivered, share(0, true));
  const second = run(SPLIT, DOCS, [DELETED], delivered, share(1));
  assert.equal(rest.resume, undefined);
  assert.deepEqual(rows([first, rest, second]), rows([whole]));
  assert.equal(first.stats.candidates + rest.stats.candidates + second.stats.candidates, DOCS - 1, 'each live document verified once');
});

test('a task that returned in a range it had joined is resumed as that range\'s owner, with its bounds and tombstones', () => {
  const board = createRangeBoard(2);
  const task: ShardTask = {
    source: { kind: 'memory', ...packMemoryDocs([]) }, lo: 0, hi: SPLIT, deleted: [], plan, limit: 10, deadline: Date.now() + 10_000, stop: awaiting(),
    share: { board, ranges, own: 0, windowMs: SHARE_WINDOW_MS },
  };
  // The first range holds no match here: done with it, the task joined the second and returned at a match there.
  const resumed = resumedTask(task, { range: 1 });
  assert.deepEqual([resumed.lo, resumed.hi, resumed.deleted, resumed.share?.own, resumed.share?.resumed], [SPLIT, DOCS, [DELETED], 1, true]);
  assert.deepEqual(resumedTask(task, { lo: 7 }).lo, 7);
  // Searched as so resumed, the second range's tombstone stays unreported.
  const delivered = awaiting();
  Atomics.store(delivered, FIRST_DELIVERED, 1);
  const rest = run(resumed.lo, resumed.hi, resumed.deleted, delivered, resumed.share ?? null);
  assert.ok(rest.files.length > 0);
  assert.ok(!rest.files.some((f) => f.doc === DELETED));
});

const pool = createInThreadEnginePool();
after(() => pool.close());

test('the search service: a streamed search\'s first matches are one file; its answer is the one an unstreamed search gives', async () => {
  const repoFiles = Object.fromEntries(files.map((f) => [f.path, f.content]));
  const index = createMemoryIndex([{ name: 'github.com/acme/locks', files: repoFiles }]);
  const service = createSearchService({
    catalog: index.catalog, runner: pool, revisions: index.revisions, commits: index.commits, matcher: 'auto',
    settings: () => ({ maxResults: 500, maxCount: 500_000, defaultTimeoutMs: 10_000, maxTimeoutMs: 60_000 }),
  });
  const batches: (readonly SearchMatch[])[] = [];
  const streamed = await service.search({ query: 'spin_lock_irqsave', onMatches: (m) => batches.push(m) });
  const plain = await service.search({ query: 'spin_lock_irqsave' });
  assert.equal(batches[0]!.length, 1, 'the first batch holds the first file found');
  assert.equal(batches.flat().length, plain.matches.length);
  assert.deepEqual(streamed.matches, plain.matches);
  assert.equal(streamed.stats.shardsSearched, plain.stats.shardsSearched, 'a task and the one resuming it are one shard search');
  // select: answers differ in kind from what shards find (a repository, not lines): sent once, at the end.
  const selected: (readonly SearchMatch[])[] = [];
  const repos = await service.search({ query: 'spin_lock_irqsave select:repo', onMatches: (m) => selected.push(m) });
  assert.deepEqual(selected, []);
  assert.deepEqual(repos.matches.map((m) => m.type), ['repo']);
});
