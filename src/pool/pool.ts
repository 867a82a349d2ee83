/**
 * The pool seam: work that must not run on the main thread is submitted here by kind, with its
 * payload, a deadline and an AbortSignal. Consumers depend on this interface and the task types
 * only; the composition root picks the implementation (engine-pool.ts, in-thread-pool.ts).
 */
import type { DiffLineMatches, DiffLinesTask, DiffRecordHits, DiffRecordsTask, DiffPostingsJob, DiffPostingsRun, HighlightTask, IndexBatchResult, IndexBatchTask, ParseSymbolsTask, SymbolBatch, SymbolsBatchTask, ShardSearchResult, ShardTask, TextMatchJob, TextMatches } from './messages.js';
import type { Moved } from './moved.js';
import type { LaneMemory } from './thread-memory.js';

/** The main lane's threads, and the side lane's (null when the pool has none). */
export interface PoolMemory {
  readonly main: LaneMemory;
  readonly side: LaneMemory | null;
}

/** One kind of task: what it is given and what it answers. */
export interface TaskType<Task, Result> {
  readonly task: Task;
  readonly result: Result;
}

/** Task kinds to their payload and result types: `submit` is checked against it. */
export type TaskMap = { readonly [kind: string]: TaskType<unknown, unknown> };

/** The engine's tasks: searches, history matching and indexing. */
export type EngineTasks = {
  /** Search a range of one shard's documents (a segment on disk, or a revision's files in memory). */
  readonly shard: TaskType<ShardTask, ShardSearchResult>;
  /** Build a sorted posting run (and symbol tables) for a batch of documents. */
  readonly 'index-batch': TaskType<IndexBatchTask, IndexBatchResult>;
  /** Extract the symbol tables of a batch of an index segment's documents (the symbols phase). */
  readonly 'symbols-batch': TaskType<SymbolsBatchTask, SymbolBatch>;
  /** Parse one file outside the index: its symbols/codec.ts encoding, or null when unsupported or failed. */
  readonly 'parse-symbols': TaskType<ParseSymbolsTask, Uint8Array | null>;
  /** Syntax-highlight one file: runs of highlight classes (symbols/highlight.ts), or null when it is shown plain. */
  readonly highlight: TaskType<HighlightTask, Uint32Array | null>;
  /** Build the history index's postings for a batch of commits' changed lines. */
  readonly 'diff-postings': TaskType<DiffPostingsJob, DiffPostingsRun>;
  /** Match a batch of commits' changed lines against a diff search pattern. */
  readonly 'diff-lines': TaskType<DiffLinesTask, DiffLineMatches>;
  /** Match a batch of the history index's stored commit records (deflated) against a diff search pattern. */
  readonly 'diff-records': TaskType<DiffRecordsTask, DiffRecordHits>;
  /** Match patterns over a batch of short texts (repository names, commit fields). */
  readonly 'text-match': TaskType<TextMatchJob, TextMatches>;
};

export type EngineKind = keyof EngineTasks;

export interface SubmitOptions {
  /**
   * Aborting it rejects the task with ABORTED: it leaves the queue, or its thread is stopped. It
   * also names the caller the task is charged to (work-owner.ts).
   */
  readonly signal?: AbortSignal;
  /**
   * Epoch milliseconds. A task not finished by then plus the pool's grace period (time for a
   * handler that watches the deadline to return partial results) rejects with TIMEOUT and its
   * thread is stopped. A deadline already past still leaves the grace. Absent: no limit.
   */
  readonly deadline?: number;
}

export interface Submitter<Tasks extends TaskMap, Kinds extends keyof Tasks = keyof Tasks> {
  /**
   * Runs a task off the calling thread where the implementation can. Arrays in the payload may
   * be moved to another thread: the caller must not touch them afterwards. Rejects with a
   * QuarryError: TIMEOUT, ABORTED (cancelled, or the pool closed), a check's refusal before the
   * task queued (the compile guard's), the handler's own code when it threw a QuarryError, else
   * the kind's failure code (a thread that died, a bug, a memory cap).
   */
  submit<K extends Kinds>(kind: K, task: Tasks[K]['task'], options?: SubmitOptions): Promise<Tasks[K]['result']>;
}

export interface Pool<Tasks extends TaskMap> extends Submitter<Tasks> {
  /** Tasks that run at once. */
  readonly threads: number;
  /** Tasks waiting for a thread (their callers' turn). */
  readonly queueSize: number;
  /** Its worker threads' latest memory reports, by lane (none for a pool without threads). */
  memory(): PoolMemory;
  /** Every unfinished task rejects with ABORTED, as does any later submit; resolves once the threads have stopped. */
  close(): Promise<void>;
}

export type EnginePool = Pool<EngineTasks>;

/** The part of the engine pool a consumer that submits only `Kinds` needs (and its test double implements). */
export type PoolFor<Kinds extends EngineKind> = Submitter<EngineTasks, Kinds>;

/** Runs tasks where the pool puts them (a worker thread, or the calling thread); a result's arrays may be moved, not copied. */
export type TaskHandlers<Tasks extends TaskMap> = {
  readonly [K in keyof Tasks]: (task: Tasks[K]['task']) => HandlerResult<Tasks[K]['result']>;
};

export type HandlerResult<Result> = Result | Moved<Result> | Promise<Result | Moved<Result>>;
