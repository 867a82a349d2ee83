/**
 * Every message that crosses the thread boundary, as plain clone-safe data. Large byte arrays
 * travel in transfer lists; nothing here is a class.
 */
import type { ErrorCode } from '../errors.js';
import type { DiffLineJob, DiffLineMatches, DiffRecordHits, DiffRecordJob } from '../history/diff-lines.js';
import type { MemoryDocs } from '../index/memory-source.js';
import type { TextMatchJob, TextMatches } from '../history/text-batch.js';
import type { BlockMapBatch } from '../index/block-map.js';
import type { PostingRun } from '../index/build/run.js';
import type { DiffPostingsJob, DiffPostingsRun } from '../index/history/diff-postings.js';
import type { ShardPlan } from '../shard/plan.js';
import type { RangeShare } from '../shard/range-share.js';
import type { ShardSearchResult } from '../shard/search-shard.js';
import type { SymbolBatch } from '../symbols/batch.js';

export type ShardSourceRef =
  | { readonly kind: 'segment'; readonly dir: string }
  | ({ readonly kind: 'memory' } & MemoryDocs);

export interface ShardTask {
  readonly source: ShardSourceRef;
  readonly lo: number;
  readonly hi: number;
  readonly deleted: readonly number[];
  readonly plan: ShardPlan;
  readonly limit: number;
  /** Epoch milliseconds. */
  readonly deadline: number;
  /** Shared stop flag (SharedArrayBuffer-backed), raised by the main thread. */
  readonly stop: Int32Array | null;
  /** The segment's ranges searched by this search's other tasks, to share candidates with; absent for a lone range. */
  readonly share?: RangeShare | null;
}

export interface IndexBatchTask {
  readonly firstDoc: number;
  readonly data: Uint8Array;
  readonly ends: Uint32Array;
}

export interface IndexBatchResult {
  readonly run: PostingRun;
  readonly blockMaps: BlockMapBatch;
}

/** A batch of an index segment's documents to extract symbol tables from (the symbols phase: no trigrams). */
export interface SymbolsBatchTask {
  readonly data: Uint8Array;
  readonly ends: Uint32Array;
  readonly paths: readonly string[];
}

/** One file outside the index (another revision) to parse for symbols. */
export interface ParseSymbolsTask {
  readonly path: string;
  readonly content: Uint8Array;
}

/** One file to syntax-highlight for the web app's file view. */
export interface HighlightTask {
  readonly path: string;
  readonly content: Uint8Array;
}

/** A batch of commits' added and removed lines to match against a diff search pattern. */
export interface DiffLinesTask extends DiffLineJob {
  /** Epoch milliseconds: the worker is terminated shortly after it. */
  readonly deadline: number;
}

/** A batch of the history index's stored commit records to match against a diff search pattern. */
export interface DiffRecordsTask extends DiffRecordJob {
  /** Epoch milliseconds: the worker is terminated shortly after it. */
  readonly deadline: number;
}

export type { DiffRecordHits };

/** What a pool hands a worker: the task and its kind, which picks the handler. */
export interface TaskMessage {
  readonly kind: string;
  readonly task: unknown;
}

/**
 * What a worker throws in place of a QuarryError: an error's own fields do not survive the
 * thread boundary (only its message does), so its code travels in a plain record.
 */
export interface CodedFailure {
  readonly quarryError: true;
  readonly code: ErrorCode;
  readonly message: string;
  readonly details: Readonly<Record<string, unknown>>;
}

export type { DiffLineMatches, DiffPostingsJob, DiffPostingsRun, PostingRun, ShardSearchResult, SymbolBatch, TextMatchJob, TextMatches };

/** What a worker entry (task-entry.ts) tells the pool on its thread's parent port once its handlers' modules have loaded. */
export interface WorkerLoaded {
  /** The thread's id. */
  readonly quarryWorkerLoaded: number;
}

export function isWorkerLoaded(message: unknown): message is WorkerLoaded {
  return typeof message === 'object' && message !== null && typeof (message as Partial<WorkerLoaded>).quarryWorkerLoaded === 'number';
}

/** What a pool gives each of its threads as piscina's workerData (task-entry.ts reads it). */
export interface PoolWorkerData {
  /** The name the thread takes (thread-name.ts); null keeps the runtime's. */
  readonly threadName: string | null;
  /** A side lane's thread lowers its own priority for good (thread-priority.ts). */
  readonly sideLane: boolean;
}

export function readPoolWorkerData(data: unknown): PoolWorkerData {
  const given = (typeof data === 'object' && data !== null ? data : {}) as Partial<Record<keyof PoolWorkerData, unknown>>;
  return { threadName: typeof given.threadName === 'string' ? given.threadName : null, sideLane: given.sideLane === true };
}
