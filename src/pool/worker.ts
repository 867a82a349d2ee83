/**
 * Worker thread entry, the per-thread composition root: open segment readers, the matcher cache
 * with its Hyperscan scratch, and the trigram tables for index batches all live here, per thread.
 */
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { TrigramExtractor } from '../index/build/trigrams.js';
import { buildRun, type PostingRun } from '../index/build/run.js';
import { createMemorySource } from '../index/memory-source.js';
import { openSegmentReader, type SegmentReader } from '../index/lmdb/segment-reader.js';
import type { SegmentSource } from '../index/store.js';
import { compileCached } from './matchers.js';
import { searchShard, type ShardSearchResult } from '../shard/search-shard.js';
import type { IndexBatchTask, ShardSourceRef, ShardTask, WorkerTask } from './messages.js';

const OPEN_SEGMENTS_MAX = 64;
const openSegments = new Map<string, SegmentReader>();
let runTables: { extractor: TrigramExtractor; counts: Uint32Array } | null = null;

export default function handle(task: WorkerTask): ShardSearchResult | unknown {
  return task.kind === 'shard' ? runShard(task) : move(transferable(runIndexBatch(task)));
}

function runShard(task: ShardTask): ShardSearchResult {
  return searchShard({
    source: sourceOf(task.source),
    plan: task.plan,
    lo: task.lo,
    hi: task.hi,
    deleted: new Set(task.deleted),
    limit: task.limit,
    deadline: task.deadline,
    stop: task.stop,
    compile: compileCached,
  });
}

function sourceOf(ref: ShardSourceRef): SegmentSource {
  if (ref.kind === 'memory') return createMemorySource(ref);
  let reader = openSegments.get(ref.dir);
  if (reader) {
    openSegments.delete(ref.dir);
  } else {
    reader = openSegmentReader(ref.dir);
    if (openSegments.size >= OPEN_SEGMENTS_MAX) {
      const [oldest, stale] = openSegments.entries().next().value as [string, SegmentReader];
      openSegments.delete(oldest);
      void stale.close();
    }
  }
  openSegments.set(ref.dir, reader);
  return reader;
}

function runIndexBatch(task: IndexBatchTask): PostingRun {
  runTables ??= { extractor: new TrigramExtractor(), counts: new Uint32Array(1 << 24) };
  const docs: Uint8Array[] = [];
  let start = 0;
  for (const end of task.ends) {
    docs.push(task.data.subarray(start, end));
    start = end;
  }
  return buildRun(runTables, task.firstDoc, docs);
}

/** Wraps a run so piscina transfers its arrays instead of copying them. */
function transferable(run: PostingRun): Parameters<typeof move>[0] {
  return {
    [transferableSymbol]: [run.trigrams.buffer, run.ends.buffer, run.firstIds.buffer, run.lastIds.buffer, run.bytes.buffer],
    [valueSymbol]: run,
  };
}
