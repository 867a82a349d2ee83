/**
 * The engine's task handlers, run in a worker thread (worker-entry.ts) or on the calling thread
 * (in-thread-pool.ts): open segment readers, the matcher cache with its Hyperscan scratch, and the
 * trigram tables for index batches all live here, once per thread.
 */
import { setImmediate as eventLoopTurn } from 'node:timers/promises';
import { createError, errorMessage, isQuarryError, type QuarryError } from '../errors.js';
import type { FileSymbols } from '../model/symbols.js';
import { TrigramExtractor } from '../index/build/trigrams.js';
import { buildRun } from '../index/build/run.js';
import { buildDiffPostings, type DiffPostingsJob, type DiffPostingsRun } from '../index/history/diff-postings.js';
import { encodeBlockMaps } from '../index/block-map.js';
import { createMemorySource } from '../index/memory-source.js';
import { openSegmentReader, type SegmentReader } from '../index/lmdb/segment-reader.js';
import type { SegmentSource } from '../index/store.js';
import { runDiffLines, runDiffRecords } from './diff-lines-task.js';
import { runTextMatch } from './text-match-task.js';
import { compileCached } from './matchers.js';
import { moved, type Moved } from './moved.js';
import type { EngineTasks, TaskHandlers } from './pool.js';
import { searchShard, type ShardSearchResult } from '../shard/search-shard.js';
import { contentSymbols } from '../shard/symbol-content.js';
import { searchSymbolShard } from '../shard/symbol-search.js';
import { shardSymbols } from '../shard/symbol-source.js';
import { extractBatch } from '../symbols/batch.js';
import { encodeFileSymbols } from '../symbols/codec.js';
import { highlightSpans } from '../symbols/highlight.js';
import { parseFileSymbols } from '../symbols/parse.js';
import type { HighlightTask, IndexBatchResult, IndexBatchTask, ParseSymbolsTask, ShardSourceRef, ShardTask, SymbolBatch, SymbolsBatchTask } from './messages.js';

const OPEN_SEGMENTS_MAX = 64;
const openSegments = new Map<string, SegmentReader>();
let runTables: { extractor: TrigramExtractor; counts: Uint32Array } | null = null;

export const handlers: TaskHandlers<EngineTasks> = {
  shard: runShardFreeingTrees,
  'index-batch': runIndexBatch,
  'symbols-batch': runSymbolsBatch,
  'parse-symbols': parseSymbols,
  highlight: highlightFile,
  'diff-postings': runDiffPostings,
  'diff-lines': runDiffLines,
  'diff-records': runDiffRecords,
  'text-match': runTextMatch,
};

async function runSymbolsBatch(task: SymbolsBatchTask): Promise<Moved<SymbolBatch>> {
  const docs: Uint8Array[] = [];
  let start = 0;
  for (const end of task.ends) {
    docs.push(task.data.subarray(start, end));
    start = end;
  }
  const symbols = extractBatch(task.paths, docs);
  await freeParsedTrees();
  return moved(symbols, [symbols.status.buffer, symbols.data.buffer, symbols.ends.buffer, symbols.referenceInfo.buffer, symbols.importData.buffer, symbols.importEnds.buffer]);
}

async function parseSymbols(task: ParseSymbolsTask): Promise<Uint8Array | null> {
  const outcome = parseFileSymbols(task.path, task.content);
  await freeParsedTrees();
  return outcome.status === 'ok' ? encodeFileSymbols(outcome.symbols) : null;
}

async function highlightFile(task: HighlightTask): Promise<Uint32Array | null> {
  const runs = highlightSpans(task.path, task.content);
  await freeParsedTrees();
  return runs;
}

/**
 * A tree-sitter tree frees its native memory in a finalizer that runs on the event loop, and
 * piscina's Atomics wait keeps this thread's loop from turning between tasks: without a turn per
 * task, trees pile up (gigabytes over the Linux tree).
 */
function freeParsedTrees(): Promise<void> {
  return eventLoopTurn();
}

/** Trees parsed since the event loop last turned (unindexed revisions parse on demand). */
let treesPending = false;

function runShardFreeingTrees(task: ShardTask): ShardSearchResult | Promise<ShardSearchResult> {
  let result: ShardSearchResult;
  try {
    result = runShard(task);
  } catch (err) {
    throw shardFailure(err);
  }
  if (!treesPending) return result;
  treesPending = false;
  return freeParsedTrees().then(() => result);
}

/**
 * A shard that cannot be searched (damaged, an old format) is a counted partial result of the
 * search, whatever the reason: the search service tells it by this code.
 */
function shardFailure(err: unknown): QuarryError {
  if (isQuarryError(err, 'SHARD_CRASHED')) return err;
  return createError('SHARD_CRASHED', `shard search failed: ${errorMessage(err)}`, isQuarryError(err) ? { cause: err.code } : {});
}

function runShard(task: ShardTask): ShardSearchResult {
  const source = sourceOf(task.source);
  const input = {
    source,
    plan: task.plan,
    lo: task.lo,
    hi: task.hi,
    deleted: new Set(task.deleted),
    limit: task.limit,
    deadline: task.deadline,
    stop: task.stop,
    compile: compileCached,
    share: task.share ?? null,
  };
  const symbolPlan = task.plan.symbols;
  const symbols = shardSymbols(source, parsedTable);
  if (symbolPlan?.mode === 'search') return searchSymbolShard({ ...input, symbols, symbolPlan });
  return searchShard({ ...input, contentSymbols: contentSymbols(symbols, symbolPlan ?? null) });
}

function parsedTable(path: string, content: Uint8Array): FileSymbols | null {
  treesPending = true;
  const outcome = parseFileSymbols(path, content);
  return outcome.status === 'ok' ? outcome.symbols : null;
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

function runDiffPostings(task: DiffPostingsJob): Moved<DiffPostingsRun> {
  runTables ??= { extractor: new TrigramExtractor(), counts: new Uint32Array(1 << 24) };
  const run = buildDiffPostings(task, runTables.extractor);
  return moved(run, [run.keys.buffer, run.ends.buffer, run.bytes.buffer]);
}

function runIndexBatch(task: IndexBatchTask): Moved<IndexBatchResult> {
  runTables ??= { extractor: new TrigramExtractor(), counts: new Uint32Array(1 << 24) };
  const docs: Uint8Array[] = [];
  let start = 0;
  for (const end of task.ends) {
    docs.push(task.data.subarray(start, end));
    start = end;
  }
  const result = { run: buildRun(runTables, task.firstDoc, docs), blockMaps: encodeBlockMaps(task.firstDoc, docs) };
  const { run, blockMaps } = result;
  return moved(result, [run.trigrams.buffer, run.ends.buffer, run.firstIds.buffer, run.lastIds.buffer, run.bytes.buffer, blockMaps.docs.buffer, blockMaps.data.buffer, blockMaps.ends.buffer]);
}
