/**
 * The pool for untrusted scripts (the Lua evaluator): piscina workers with capped heaps, every task
 * bounded by a deadline at which its worker is terminated (no grace: a script has no partial result
 * worth waiting for) and replaced, so one script can hold neither a thread nor the process's memory.
 * The entry module serves the scripts; nothing here evaluates code.
 */
import type { KindTable } from './kinds.js';
import { createPiscinaPool } from './piscina-pool.js';
import type { Pool, TaskMap } from './pool.js';

export interface SandboxPoolOptions<Tasks extends TaskMap> {
  /** The worker entry module (task-entry.ts serves its handlers). */
  readonly entry: URL;
  readonly kinds: KindTable<Tasks>;
  readonly threads?: number;
  /** V8's old-generation heap cap per worker, in MiB. */
  readonly heapMiB?: number;
  /** The longest a task may take from its submission: a later deadline, or none, is brought down to this. */
  readonly maxRunMs?: number;
  /**
   * A caller's task that holds a thread this long while other callers wait is stopped; null: never
   * (tasks that mostly wait on their caller, whose deadline already bounds everyone's wait).
   */
  readonly sliceMs?: number | null;
}

const DEFAULT_HEAP_MIB = 64;
const DEFAULT_MAX_RUN_MS = 10_000;
/** New objects live here before the old generation; a small young space keeps the cap honest. */
const YOUNG_HEAP_MIB = 8;
/** Deep recursion fails with a RangeError in the script, well before the thread's stack ends. */
const STACK_MIB = 4;
const SLICE_MS = 2000;

export function createSandboxPool<Tasks extends TaskMap>(options: SandboxPoolOptions<Tasks>): Pool<Tasks> {
  const maxRunMs = options.maxRunMs ?? DEFAULT_MAX_RUN_MS;
  const pool = createPiscinaPool<Tasks>({
    entry: options.entry,
    threadName: 'q-sandbox',
    threads: Math.max(1, options.threads ?? 1),
    kinds: options.kinds,
    deadlineGraceMs: 0,
    sliceMs: options.sliceMs === undefined ? SLICE_MS : options.sliceMs,
    resourceLimits: { maxOldGenerationSizeMb: options.heapMiB ?? DEFAULT_HEAP_MIB, maxYoungGenerationSizeMb: YOUNG_HEAP_MIB, stackSizeMb: STACK_MIB },
  });
  return {
    get threads() {
      return pool.threads;
    },
    get queueSize() {
      return pool.queueSize;
    },
    memory: () => pool.memory(),
    submit(kind, task, submitOptions = {}) {
      const latest = Date.now() + maxRunMs;
      return pool.submit(kind, task, { ...submitOptions, deadline: Math.min(submitOptions.deadline ?? latest, latest) });
    },
    close: () => pool.close(),
  };
}
