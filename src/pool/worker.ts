/**
 * Worker thread entry, the per-thread composition root: open segment readers, the matcher cache
 * with its Hyperscan scratch, and the trigram tables for index batches all live here, per thread.
 */
import { move, transferableSymbol, valueSymbol } from 'piscina';
import type { FileSymbols } from '../model/symbols.js';
import { TrigramExtractor } from '../index/build/trigrams.js';
import { buildRun } from '../index/build/run.js';
import { createMemorySource } from '../index/memory-source.js';
import { openSegmentReader, type SegmentReader } from '../index/lmdb/segment-reader.js';
import type { SegmentSource } from '../index/store.js';
import { runDiffLines } from './diff-lines-task.js';
import { compileCached } from './matchers.js';
import { searchShard, type ShardSearchResult } from '../shard/search-shard.js';
import { contentSymbols } from '../shard/symbol-content.js';
import { searchSymbolShard } from '../shard/symbol-search.js';
import { shardSymbols } from '../shard/symbol-source.js';
import { extractBatch } from '../symbols/batch.js';
import { encodeFileSymbols } from '../symbols/codec.js';
import { parseFileSymbols } from '../symbols/parse.js';
import type { IndexBatchResult, IndexBatchTask, ParseSymbolsTask, ShardSourceRef, ShardTask, WorkerTask } from './messages.js';

const OPEN_SEGMENTS_MAX = 64;
const openSegments = new Map<string, SegmentReader>();
let runTables: { extractor: TrigramExtractor; counts: Uint32Array } | null = null;

export default function handle(task: WorkerTask): ShardSearchResult | unknown {
  if (task.kind === 'shard') return runShard(task);
  if (task.kind === 'parse-symbols') return parseSymbols(task);
  if (task.kind === 'diff-lines') return runDiffLines(task);
  return move(transferable(runIndexBatch(task)));
}

function parseSymbols(task: ParseSymbolsTask): Uint8Array | null {
  const outcome = parseFileSymbols(task.path, task.content);
  return outcome.status === 'ok' ? encodeFileSymbols(outcome.symbols) : null;
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
  };
  const symbolPlan = task.plan.symbols;
  const symbols = shardSymbols(source, parsedTable);
  if (symbolPlan?.mode === 'search') return searchSymbolShard({ ...input, symbols, symbolPlan });
  return searchShard({ ...input, contentSymbols: contentSymbols(symbols, symbolPlan ?? null) });
}

function parsedTable(path: string, content: Uint8Array): FileSymbols | null {
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

function runIndexBatch(task: IndexBatchTask): IndexBatchResult {
  runTables ??= { extractor: new TrigramExtractor(), counts: new Uint32Array(1 << 24) };
  const docs: Uint8Array[] = [];
  let start = 0;
  for (const end of task.ends) {
    docs.push(task.data.subarray(start, end));
    start = end;
  }
  return { run: buildRun(runTables, task.firstDoc, docs), symbols: task.paths ? extractBatch(task.paths, docs) : null };
}

/** Wraps a result so piscina transfers its arrays instead of copying them. */
function transferable(result: IndexBatchResult): Parameters<typeof move>[0] {
  const { run, symbols } = result;
  const symbolBuffers = symbols ? [symbols.status.buffer, symbols.data.buffer, symbols.ends.buffer] : [];
  return {
    [transferableSymbol]: [run.trigrams.buffer, run.ends.buffer, run.firstIds.buffer, run.lastIds.buffer, run.bytes.buffer, ...symbolBuffers],
    [valueSymbol]: result,
  };
}
