/**
 * Tearing a piscina's threads down without crashing the process. No thread is terminated while it
 * loads its modules: a native addon cut short while registering crashes the whole process as its
 * half-made environment is freed (tree-sitter's binding then frees a query cursor it never made:
 * SIGSEGV in ts_query_cursor_delete; or a Napi::Error escapes: abort). Piscina hands queued tasks
 * to threads that are still loading, so the thread of a task stopped at its deadline may be one,
 * and a pool may be closed while replacements load. And closing waits until every thread the pool
 * terminated before has exited: piscina replaces a thread whose exit comes after its destroy().
 */
import type { Worker } from 'node:worker_threads';
import type { Piscina } from 'piscina';
import { linkSignals, type LinkedSignal } from './linked-signal.js';
import { isWorkerLoaded } from './messages.js';

/** How long a teardown waits for threads still loading or exiting; one that hangs is left after it. */
export const TEARDOWN_WAIT_MS = 30_000;

export interface ThreadTeardown {
  /** Whether any of the piscina's threads, from the moment it is spawned, has not yet reported its modules loaded. */
  loading(): boolean;
  /**
   * Calls `then` once no thread is loading, or after `timeoutMs`. Callbacks run one at a time,
   * each when its condition holds at that moment, so one that spawns a thread (a termination's
   * replacement) makes the next wait for it. Its timer keeps the process alive meanwhile: a
   * process that ends while threads load tears them down just the same.
   */
  afterLoads(timeoutMs: number, then: () => void): void;
  /** As afterLoads, once moreover every thread the piscina removed has exited. */
  afterQuiet(timeoutMs: number, then: () => void): void;
}

interface Waiter {
  readonly ready: () => boolean;
  readonly run: () => void;
}

export function trackThreads(piscina: Piscina): ThreadTeardown {
  const loaded = new Set<number>();
  const exiting = new Set<Worker>();
  const waiters = new Set<Waiter>();
  // piscina.threads lists every thread from its spawn, loading or ready, until it is removed.
  const loading = (): boolean => piscina.threads.some((thread) => !loaded.has(thread.threadId));
  const quiet = (): boolean => !loading() && exiting.size === 0;
  const wake = (): void => {
    for (const waiter of [...waiters]) if (waiter.ready()) waiter.run();
  };
  const waitFor = (ready: () => boolean, timeoutMs: number, then: () => void): void => {
    if (ready()) {
      then();
      return;
    }
    const waiter: Waiter = {
      ready,
      run: () => {
        clearTimeout(timer);
        waiters.delete(waiter);
        then();
      },
    };
    const timer = setTimeout(waiter.run, timeoutMs);
    waiters.add(waiter);
  };
  piscina.on('message', (message: unknown) => {
    if (!isWorkerLoaded(message)) return;
    loaded.add(message.quarryWorkerLoaded);
    wake();
  });
  piscina.on('workerDestroy', (worker: { readonly id: number }) => {
    loaded.delete(worker.id);
    // Emitted as its termination starts, while piscina still lists it.
    const thread = piscina.threads.find((t) => t.threadId === worker.id);
    if (thread !== undefined) {
      exiting.add(thread);
      thread.once('exit', () => {
        exiting.delete(thread);
        wake();
      });
    }
    // A thread that died loading is gone from piscina.threads once its removal is done.
    queueMicrotask(wake);
  });
  return {
    loading,
    afterLoads: (timeoutMs, then) => waitFor(() => !loading(), timeoutMs, then),
    afterQuiet: (timeoutMs, then) => waitFor(quiet, timeoutMs, then),
  };
}

/**
 * Destroys the piscina once none of its threads is loading and every thread it removed before
 * has exited (bounded), in the same turn as the check. Piscina starts new threads when a removed
 * thread's exit arrives after its destroy() has finished (its pool then counts as open again):
 * threads that a process exiting next would tear down mid-load.
 */
export function destroyWhenQuiet(piscina: Piscina, threads: ThreadTeardown): Promise<void> {
  return new Promise((resolve, reject) => threads.afterQuiet(TEARDOWN_WAIT_MS, () => piscina.destroy().then(resolve, reject)));
}
/**
 * The signal to stop a task with, whose abort terminates its thread: it follows the first of
 * `sources` to abort, but only once no thread is loading (bounded), since the task may have been
 * handed to one. dispose() once the task has settled.
 */
export function abortAfterLoads(sources: readonly AbortSignal[], threads: ThreadTeardown): LinkedSignal {
  // Already aborted: piscina refuses the task without running it, so no thread is terminated.
  return linkSignals(sources, (abort, reason) => threads.afterLoads(TEARDOWN_WAIT_MS, () => abort(reason)));
}
