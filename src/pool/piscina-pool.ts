/**
 * The worker pool (piscina): shard searches, diff line matching and index batches run here, never
 * on the main thread. Every pattern set a task will compile is first vetted by the compile guard,
 * since a compile cannot be interrupted inside a thread; a content task that outlives its deadline
 * plus a grace period is aborted, which terminates its worker, so a runaway scan cannot hold one.
 * Tasks reach piscina only when a thread is free, in fair order among callers (fair-dispatch.ts):
 * a caller whose scans run for seconds gets its share of thread time, not of task count, and a
 * caller's task that holds a thread past a slice while others wait is stopped.
 */
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { createError, type ErrorCode } from '../errors.js';
import type { ShardPlan } from '../shard/plan.js';
import { createCompileGuard, type CompileGuard, type CompileGuardOptions } from './compile-guard.js';
import { createFairDispatcher, PreemptedError, type FairDispatcher } from './fair-dispatch.js';
import { WORKER_LOADED, WORKER_LOADING, type DiffLineMatches, type DiffLinesTask, type IndexBatchResult, type IndexBatchTask, type ShardSearchResult, type ShardTask, type TextMatchJob, type TextMatches, type TextMatchTask } from './messages.js';
import { eachAlone, shardPlanSets, type PatternSet } from './pattern-sets.js';
import { ownerOf, UNOWNED } from './work-owner.js';

export interface WorkerPool {
  readonly threads: number;
  /** Tasks waiting for a thread (their callers' turn). */
  readonly queueSize: number;
  runShard(task: ShardTask, signal?: AbortSignal): Promise<ShardSearchResult>;
  runIndexBatch(task: IndexBatchTask): Promise<IndexBatchResult>;
  /** Parses one file for symbols in a worker: its symbols/codec.ts encoding, or null when unsupported or failed. */
  parseSymbols(path: string, content: Uint8Array): Promise<Uint8Array | null>;
  /** Matches a batch of diff lines in a worker, bounded like a shard task (TIMEOUT, ABORTED); the task's arrays are transferred. */
  matchDiffLines(task: DiffLinesTask, signal?: AbortSignal): Promise<DiffLineMatches>;
  /** Matches patterns over a batch of short texts in a worker, bounded like a shard task; shared batches are not copied. */
  matchTexts(job: TextMatchJob, signal?: AbortSignal): Promise<TextMatches>;
  close(): Promise<void>;
}

/** Time a worker gets past the deadline to notice it and return partial results. */
const DEADLINE_GRACE_MS = 1000;
/**
 * A caller's task that holds a thread this long while other callers wait is stopped (its worker
 * terminated, its shard reported timed out): a shard task of the Linux benchmark's slowest
 * regex takes a few hundred milliseconds, a catastrophic backtracking scan runs to its deadline.
 */
const SLICE_MS = 2000;

export interface WorkerPoolOptions {
  readonly threads?: number;
  readonly compileGuard?: Partial<CompileGuardOptions>;
}

/** Generous for real patterns (a 300-word alternation compiles every form in about 0.6 s). */
export const DEFAULT_COMPILE_GUARD: CompileGuardOptions = { budgetMs: 2000, memoryBytes: 1024 * 2 ** 20, processes: 1 };

export function createWorkerPool(options: WorkerPoolOptions = {}): WorkerPool {
  const threads = Math.max(1, options.threads ?? availableParallelism());
  const guard = createCompileGuard({ ...DEFAULT_COMPILE_GUARD, ...options.compileGuard });
  const vetPlan = vettedOnce(guard);
  const piscina = new Piscina({
    filename: new URL('./worker-entry.js', import.meta.url).href,
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: 60_000,
    // Piscina first tries require() on the worker file; Node 20's require(esm) path for it aborts
    // the process now and then (an assertion in CreateRequiredModuleFacade). Without it, piscina
    // falls back to import().
    execArgv: [...process.execArgv, '--no-experimental-require-module'],
  });
  const loads = trackLoads(piscina, threads);
  const fair = createFairDispatcher(threads);
  return {
    threads,
    get queueSize() {
      return fair.waiting + piscina.queueSize;
    },
    async runShard(task, signal) {
      await vetPlan(task.plan, ownerOf(signal));
      const transferList = task.source.kind === 'memory' ? [task.source.data.buffer, task.source.ends.buffer] : [];
      return runBounded<ShardSearchResult>(piscina, fair, task, { deadline: task.deadline, signal, transferList, what: 'shard search', crash: 'SHARD_CRASHED' });
    },
    async matchDiffLines(task, signal) {
      await vetSets(guard, eachAlone(task.pattern.specs), ownerOf(signal));
      const transferList = [task.text.buffer, task.ends.buffer, task.flags.buffer, task.commitEnds.buffer];
      return runBounded<DiffLineMatches>(piscina, fair, task, { deadline: task.deadline, signal, transferList, what: 'diff line matching', crash: 'INTERNAL' });
    },
    async matchTexts(job, signal) {
      await vetSets(guard, eachAlone(job.specs), ownerOf(signal));
      const task: TextMatchTask = { ...job, kind: 'text-match' };
      const transferList = job.data.buffer instanceof ArrayBuffer ? [job.data.buffer, job.ends.buffer] : [];
      return runBounded<TextMatches>(piscina, fair, task, { deadline: job.deadline, signal, transferList, what: 'text matching', crash: 'INTERNAL' });
    },
    async runIndexBatch(task) {
      return fair.run(UNOWNED, undefined, async () => (await piscina.run(task, { transferList: [task.data.buffer, task.ends.buffer] as ArrayBuffer[] })) as IndexBatchResult);
    },
    async parseSymbols(path, content) {
      return fair.run(UNOWNED, undefined, async () => (await piscina.run({ kind: 'parse-symbols', path, content })) as Uint8Array | null);
    },
    async close() {
      await guard.close();
      await loads.settled(LOAD_WAIT_MS);
      await piscina.destroy();
    },
  };
}

/** A plan goes to one task per shard: its sets are vetted once, by the plan object. */
function vettedOnce(guard: CompileGuard): (plan: ShardPlan, owner: string) => Promise<void> {
  const vetted = new WeakMap<ShardPlan, Promise<void>>();
  return (plan, owner) => {
    let done = vetted.get(plan);
    if (!done) {
      done = vetSets(guard, shardPlanSets(plan), owner);
      vetted.set(plan, done);
    }
    return done;
  };
}

function vetSets(guard: CompileGuard, sets: readonly PatternSet[], owner: string): Promise<void> {
  return Promise.all(sets.map((set) => guard.vet(set.patterns, set.preference, owner))).then(() => undefined);
}

/** How long closing waits for threads still loading; a thread that died loading never reports. */
const LOAD_WAIT_MS = 30_000;

/**
 * Counts the threads that are loading their modules (worker-entry.ts): the first `threads` start
 * with the pool, a replacement reports itself when it starts loading (and piscina once it is ready).
 */
function trackLoads(piscina: Piscina, threads: number): { settled(timeoutMs: number): Promise<void> } {
  let created = 0;
  let started = 0;
  let loaded = 0;
  const waiters: (() => void)[] = [];
  const pending = (): boolean => Math.max(threads, created, started) > loaded;
  piscina.on('workerCreate', () => created++);
  piscina.on('message', (message: unknown) => {
    if (message === WORKER_LOADING) started++;
    else if (message === WORKER_LOADED) {
      loaded++;
      if (!pending()) waiters.splice(0).forEach((wake) => wake());
    }
  });
  return {
    async settled(timeoutMs) {
      if (!pending()) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, timeoutMs);
        timer.unref();
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
  };
}

interface Bounds {
  readonly deadline: number;
  readonly signal: AbortSignal | undefined;
  readonly transferList: readonly ArrayBufferLike[];
  /** Names the task in errors. */
  readonly what: string;
  readonly crash: ErrorCode;
}

/** Runs a task that may scan content: past its deadline plus the grace period its worker is terminated. */
async function runBounded<T>(piscina: Piscina, fair: FairDispatcher, task: unknown, bounds: Bounds): Promise<T> {
  const { signal, what } = bounds;
  const hardStop = AbortSignal.timeout(Math.max(0, bounds.deadline - Date.now()) + DEADLINE_GRACE_MS);
  const combined = signal ? AbortSignal.any([signal, hardStop]) : hardStop;
  const owner = ownerOf(signal);
  let started = false;
  let preemptedBy: AbortSignal | null = null;
  try {
    return await fair.run(owner, combined, async (preempted) => {
      started = true;
      preemptedBy = preempted;
      return (await piscina.run(task, { signal: preempted === null ? combined : AbortSignal.any([combined, preempted]), transferList: bounds.transferList as ArrayBuffer[] })) as T;
    }, owner === UNOWNED ? {} : { sliceMs: SLICE_MS });
  } catch (err) {
    if (hardStop.aborted) throw createError('TIMEOUT', started ? `${what} did not stop by its deadline; its worker was terminated` : `${what} waited past its deadline for a worker`);
    if (signal?.aborted) throw createError('ABORTED', 'search cancelled');
    const preemption = (preemptedBy as AbortSignal | null)?.reason;
    if (preemption instanceof PreemptedError) throw createError('TIMEOUT', `${what} stopped: it ${preemption.message}`);
    throw createError(bounds.crash, `${what} failed: ${(err as Error).message}`);
  }
}
