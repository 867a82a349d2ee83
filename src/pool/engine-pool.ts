/**
 * The engine's pool: piscina workers running worker.ts's handlers (shard searches, diff and text
 * matching, index batches, symbol parses), so none of that runs on the main thread. Every pattern
 * set a task will make its worker compile is first vetted by the compile guard, since a compile
 * cannot be interrupted inside a thread; a scan can, and one past its deadline plus a grace period
 * is stopped with its worker. A heavy caller's scans run on a side lane of their own (piscina-pool.ts).
 */
import { availableParallelism } from 'node:os';
import type { ShardPlan } from '../shard/plan.js';
import { createCompileGuard, type CompileGuard, type CompileGuardOptions } from './compile-guard.js';
import { ENGINE_DEADLINE_GRACE_MS, ENGINE_KINDS } from './engine-kinds.js';
import type { HeavyThresholds } from './fair-queue.js';
import { eachAlone, shardPlanSets, type PatternSet } from './pattern-sets.js';
import { createPiscinaPool } from './piscina-pool.js';
import type { EnginePool, EngineTasks } from './pool.js';

/**
 * A caller's task that holds a thread this long while other callers wait is stopped (its worker
 * terminated, its shard reported timed out): a shard task of the Linux benchmark's slowest
 * regex takes a few hundred milliseconds, a catastrophic backtracking scan runs to its deadline.
 */
const SLICE_MS = 2000;

/**
 * A caller whose tasks hold a thread 1.5 s or more on average (ordinary shard tasks take tens
 * of milliseconds; a backtracking scan runs to its slice or deadline), or who is past its share by
 * a few slices, runs them on the side lane's low-priority thread while others use the pool.
 */
const HEAVY: HeavyThresholds = { typicalMs: 1500, aheadMs: 3 * SLICE_MS, activeWindowMs: 1000 };

export interface EnginePoolOptions {
  readonly threads?: number;
  /** Loaded threads beyond `threads`, so a thread stopped at a deadline is replaced without a wait (piscina-pool.ts). */
  readonly spareThreads?: number;
  readonly compileGuard?: Partial<CompileGuardOptions>;
}

/** Generous for real patterns (a 300-word alternation compiles every form in about 0.6 s). */
export const DEFAULT_COMPILE_GUARD: CompileGuardOptions = { budgetMs: 2000, memoryBytes: 1024 * 2 ** 20, processes: 1 };

export function createEnginePool(options: EnginePoolOptions = {}): EnginePool {
  const guard = createCompileGuard({ ...DEFAULT_COMPILE_GUARD, ...options.compileGuard });
  const vetPlan = vettedOnce(guard);
  return createPiscinaPool<EngineTasks>({
    entry: new URL('./worker-entry.js', import.meta.url),
    threadName: 'q-engine',
    threads: Math.max(1, options.threads ?? availableParallelism()),
    spareThreads: options.spareThreads ?? 0,
    kinds: ENGINE_KINDS,
    deadlineGraceMs: ENGINE_DEADLINE_GRACE_MS,
    sliceMs: SLICE_MS,
    sideLane: { threads: 1, heavy: HEAVY },
    admit: {
      shard: (task, owner, signal) => vetPlan(task.plan, owner, signal),
      'diff-lines': (task, owner, signal) => vetSets(guard, eachAlone(task.pattern.specs), owner, signal),
      'diff-records': (task, owner, signal) => vetSets(guard, eachAlone(task.pattern.specs), owner, signal),
      'text-match': (task, owner, signal) => vetSets(guard, eachAlone(task.specs), owner, signal),
    },
    onClose: () => guard.close(),
  });
}

/**
 * A plan goes to one task per shard: its sets are vetted once, by the plan object. The shard tasks
 * of one plan belong to one search, so the first task's signal bounds the wait for all of them.
 */
function vettedOnce(guard: CompileGuard): (plan: ShardPlan, owner: string, signal: AbortSignal | undefined) => Promise<void> {
  const vetted = new WeakMap<ShardPlan, Promise<void>>();
  return (plan, owner, signal) => {
    let done = vetted.get(plan);
    if (!done) {
      done = vetSets(guard, shardPlanSets(plan), owner, signal);
      vetted.set(plan, done);
    }
    return done;
  };
}

function vetSets(guard: CompileGuard, sets: readonly PatternSet[], owner: string, signal: AbortSignal | undefined): Promise<void> {
  return Promise.all(sets.map((set) => guard.vet(set.patterns, set.preference, owner, signal))).then(() => undefined);
}
