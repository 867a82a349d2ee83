/**
 * The pool seam over piscina worker threads, configured by what runs in them: the worker entry
 * module, the task kinds, the grace past a deadline, heap caps, checks before a task queues.
 * Tasks reach piscina only when a thread is free, in fair order among callers (fair-dispatch.ts):
 * a caller whose scans run for seconds gets its share of thread time, not of task count, and a
 * caller's task that holds a thread past a slice while others wait is stopped. A task past its
 * deadline plus the grace, cancelled or preempted is aborted, which terminates its worker (piscina
 * starts another), so no task holds a thread for good. With a side lane, a heavy caller's tasks
 * (long ones, or far past its share) run on threads of their own at the lowest priority while
 * others use the pool: its seconds-long scans then neither hold a thread the others need nor get
 * their workers terminated under them, and the time they use is still charged to it.
 */
import { setMaxListeners } from 'node:events';
import type { ResourceLimits } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { createError, type QuarryError } from '../errors.js';
import { admissionBound } from './admission-deadline.js';
import { createFairDispatcher, PreemptedError, type FairDispatcher } from './fair-dispatch.js';
import type { HeavyThresholds } from './fair-queue.js';
import { cancelled, poolClosed, taskFailure, waitedPastDeadline, type KindPolicy, type KindTable, type Transferable } from './kinds.js';
import { linkSignals } from './linked-signal.js';
import { createLoopHold } from './loop-hold.js';
import type { PoolWorkerData, TaskMessage } from './messages.js';
import type { Pool, SubmitOptions, TaskMap } from './pool.js';
import { abortAfterLoads, destroyWhenQuiet, trackThreads, type ThreadTeardown } from './thread-teardown.js';
import { isThreadMemoryMessage, ThreadMemoryBook } from './thread-memory.js';
import { ownerOf, UNOWNED } from './work-owner.js';

/** Checks a task must pass before it queues (the compile guard), charged to its caller. */
export type Admission<Tasks extends TaskMap> = {
  /** `signal` aborts, with the error to answer, when the caller stops waiting (admission-deadline.ts). */
  readonly [K in keyof Tasks]?: (task: Tasks[K]['task'], owner: string, signal: AbortSignal | undefined) => Promise<void>;
};

export interface PiscinaPoolConfig<Tasks extends TaskMap> {
  /** The worker entry module: its default export serves the tasks (task-entry.ts). */
  readonly entry: URL;
  /** What its threads are called in top -H and /proc (at most 15 bytes); the side lane's add `-side`. */
  readonly threadName?: string;
  /** Tasks that run at once. */
  readonly threads: number;
  /**
   * Loaded threads kept beyond `threads`, idle but for taking turns: a task stopped at its deadline
   * or preempted terminates its thread, and a spare takes the next task at once while piscina
   * loads a replacement (hundreds of milliseconds of a core, seconds under load). Default 0.
   */
  readonly spareThreads?: number;
  readonly kinds: KindTable<Tasks>;
  /** Time a running task gets past its deadline to notice it and return partial results, before its worker is terminated. */
  readonly deadlineGraceMs: number;
  /** A caller's task that holds a thread this long while other callers wait is stopped; null: never. */
  readonly sliceMs: number | null;
  /** Caps for each worker: one that outgrows its heap is terminated, its task fails and a new worker takes its place. */
  readonly resourceLimits?: ResourceLimits;
  readonly admit?: Admission<Tasks>;
  /** Threads (started when first needed, at the lowest priority) for heavy callers' tasks while others use the pool. */
  readonly sideLane?: { readonly threads: number; readonly heavy: HeavyThresholds };
  /** Runs when the pool closes, before its threads stop. */
  readonly onClose?: () => Promise<void>;
}

/** Piscina's own name for what run() moves: array buffers and message ports. */
type PiscinaTransferList = NonNullable<NonNullable<Parameters<Piscina['run']>[1]>['transferList']>;

export function createPiscinaPool<Tasks extends TaskMap>(config: PiscinaPoolConfig<Tasks>): Pool<Tasks> {
  const { threads } = config;
  const loaded = threads + (config.spareThreads ?? 0);
  const piscina = createPiscina(config, loaded, loaded, { threadName: config.threadName ?? null, sideLane: false });
  const teardown = trackThreads(piscina);
  const memory = trackMemory(piscina);
  const fair = createFairDispatcher(threads);
  const side = config.sideLane === undefined ? null : createSideLane(config, config.sideLane.threads, config.sideLane.heavy);
  // Aborted by close(): tasks still waiting leave the queue; running ones stop with their threads.
  const closing = new AbortController();
  // Every task in flight listens for the pool closing: hundreds at once is the design, not a leak.
  setMaxListeners(0, closing.signal);
  let closed = Promise.resolve();
  const loop = createLoopHold();
  const place: Placement = { piscina, teardown, fair, closing: closing.signal, graceMs: config.deadlineGraceMs, sliceMs: config.sliceMs, resourceLimits: config.resourceLimits };
  const sidePlace = (owner: string): Placement | null => {
    if (side === null || owner === UNOWNED || !fair.heavy(owner, side.heavy)) return null;
    return { ...place, piscina: side.piscina, teardown: side.teardown, fair: side.fair, charge: (usedMs) => fair.charge(owner, usedMs) };
  };
  // A task queued before its caller turned heavy is looked at again when its turn comes.
  const placeFor = (owner: string): Placement => sidePlace(owner) ?? (side === null ? place : { ...place, divert: () => sidePlace(owner) });
  return {
    threads,
    get queueSize() {
      return fair.waiting + piscina.queueSize + (side === null ? 0 : side.fair.waiting + side.piscina.queueSize);
    },
    memory() {
      return { main: memory.total(), side: side === null ? null : side.memory.total() };
    },
    async submit(kind, task, options = {}) {
      if (closing.signal.aborted) throw poolClosed();
      const owner = ownerOf(options.signal);
      const release = loop.hold();
      try {
        const policy = config.kinds[kind];
        const bound = admissionBound(options, config.deadlineGraceMs, policy.what);
        try {
          await config.admit?.[kind]?.(task, owner, bound.signal);
        } catch (err) {
          throw closing.signal.aborted ? poolClosed() : err;
        } finally {
          bound.dispose();
        }
        return await runTask(placeFor(owner), { kind: kind as string, task }, policy.transfer?.(task) ?? [], policy, owner, options);
      } finally {
        release();
      }
    },
    close() {
      if (!closing.signal.aborted) {
        closing.abort();
        closed = (async () => {
          await config.onClose?.();
          // Running tasks stop with their threads, once no thread is loading or exiting (thread-teardown.ts).
          await Promise.all([destroyWhenQuiet(piscina, teardown), side === null ? null : destroyWhenQuiet(side.piscina, side.teardown)]);
        })();
      }
      return closed;
    },
  };
}

interface Placement {
  readonly piscina: Piscina;
  readonly teardown: ThreadTeardown;
  readonly fair: FairDispatcher;
  readonly closing: AbortSignal;
  readonly graceMs: number;
  readonly sliceMs: number | null;
  readonly resourceLimits: ResourceLimits | undefined;
  /** The main lane's, with a side lane: where a task whose turn has come runs instead, if anywhere. */
  readonly divert?: () => Placement | null;
  /** A side lane's: charges the slot time a task used to its caller in the main lane's queue. */
  readonly charge?: (usedMs: number) => void;
}

interface SideLane {
  readonly piscina: Piscina;
  readonly fair: FairDispatcher;
  readonly heavy: HeavyThresholds;
  readonly teardown: ThreadTeardown;
  readonly memory: ThreadMemoryBook;
}

function createPiscina<Tasks extends TaskMap>(config: PiscinaPoolConfig<Tasks>, minThreads: number, maxThreads: number, workerData: PoolWorkerData): Piscina {
  const piscina = new Piscina({
    filename: config.entry.href,
    minThreads,
    maxThreads,
    idleTimeout: 60_000,
    ...(config.resourceLimits ? { resourceLimits: config.resourceLimits } : {}),
    workerData,
    // Piscina first tries require() on the worker file; Node 20's require(esm) path for it aborts
    // the process now and then (an assertion in CreateRequiredModuleFacade). Without it, piscina
    // falls back to import().
    execArgv: [...process.execArgv, '--no-experimental-require-module'],
  });
  // A thread that dies with no task to fail (its modules failed to load, an error after its task)
  // is an 'error' event, which would end the whole process unheard. Piscina has removed and
  // replaced the thread already, and tasks on a thread that dies fail on their own.
  piscina.on('error', () => {});
  return piscina;
}

/** No threads until a heavy caller's task comes; idle ones leave after piscina's idle timeout. */
function createSideLane<Tasks extends TaskMap>(config: PiscinaPoolConfig<Tasks>, threads: number, heavy: HeavyThresholds): SideLane {
  const piscina = createPiscina(config, 0, threads, { threadName: config.threadName === undefined ? null : `${config.threadName}-side`, sideLane: true });
  return { piscina, fair: createFairDispatcher(threads), heavy, teardown: trackThreads(piscina), memory: trackMemory(piscina) };
}

/** Runs one task when its caller's turn comes; past its deadline plus the grace period its worker is terminated. */
async function runTask<Result>(place: Placement, message: TaskMessage, transferList: readonly Transferable[], policy: KindPolicy<never>, owner: string, options: SubmitOptions): Promise<Result> {
  const { signal, deadline } = options;
  const { what } = policy;
  const hardStop = deadline === undefined ? null : AbortSignal.timeout(Math.max(0, deadline - Date.now()) + place.graceMs);
  const bounds = [signal, hardStop].filter((s): s is AbortSignal => s != null);
  let started = false;
  let preemptedBy: AbortSignal | null = null;
  // Typed by assertion: TypeScript cannot see the callback below assign it.
  let diverted = null as Placement | null;
  // Not AbortSignal.any: over the lifelong closing signal it would keep every task's signal (linked-signal.ts).
  const waiting = linkSignals([...bounds, place.closing]);
  try {
    const result = await place.fair.run(owner, waiting.signal, async (preempted, passed) => {
      diverted = place.divert?.() ?? null;
      if (diverted !== null) {
        passed();
        return null;
      }
      started = true;
      preemptedBy = preempted;
      // Closing stops running tasks by destroying piscina, which terminates threads without starting new ones.
      const stops = preempted === null ? bounds : [...bounds, preempted];
      // An abort terminates the task's thread, which may still be loading: it waits for the loads.
      const stop = stops.length > 0 ? abortAfterLoads(stops, place.teardown) : null;
      const began = performance.now();
      try {
        return (await place.piscina.run(message, { ...(stop === null ? {} : { signal: stop.signal }), transferList: [...transferList] as PiscinaTransferList })) as Result;
      } finally {
        stop?.dispose();
        place.charge?.(performance.now() - began);
      }
    }, owner === UNOWNED || place.sliceMs === null ? {} : { sliceMs: place.sliceMs });
    if (diverted === null) return result as Result;
  } catch (err) {
    if (place.closing.aborted) throw poolClosed();
    if (hardStop?.aborted) throw started ? createError('TIMEOUT', `${what} did not stop by its deadline; its worker was terminated`) : waitedPastDeadline(what);
    if (signal?.aborted) throw cancelled(what);
    const preemption = (preemptedBy as AbortSignal | null)?.reason;
    if (preemption instanceof PreemptedError) throw createError('TIMEOUT', `${what} stopped: it ${preemption.message}`);
    throw workerFailure(err, policy, place.resourceLimits);
  } finally {
    waiting.dispose();
  }
  return runTask(diverted, message, transferList, policy, owner, options);
}

function workerFailure(err: unknown, policy: KindPolicy<never>, limits: ResourceLimits | undefined): QuarryError {
  if ((err as { code?: unknown } | null)?.code !== 'ERR_WORKER_OUT_OF_MEMORY') return taskFailure(err, policy);
  const cap = limits?.maxOldGenerationSizeMb === undefined ? '' : ` (its heap is capped at ${limits.maxOldGenerationSizeMb} MiB)`;
  return createError(policy.failure, `${policy.what} ran out of memory${cap}; its worker was replaced`, { outOfMemory: true });
}

/** The latest memory report of each of the piscina's live threads (thread-memory.ts). */
function trackMemory(piscina: Piscina): ThreadMemoryBook {
  const book = new ThreadMemoryBook();
  piscina.on('message', (message: unknown) => {
    if (isThreadMemoryMessage(message)) book.record(message);
  });
  piscina.on('workerDestroy', (worker: { readonly id: number }) => book.drop(worker.id));
  return book;
}
