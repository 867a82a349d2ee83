/**
 * The worker pool (piscina): shard searches and index batches run here, never on the main thread.
 * A task that outlives its deadline plus a grace period is aborted, which terminates its worker,
 * so a runaway regex cannot hold a thread.
 */
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { createError } from '../errors.js';
import type { IndexBatchResult, IndexBatchTask, ShardSearchResult, ShardTask } from './messages.js';

export interface WorkerPool {
  readonly threads: number;
  /** Tasks waiting for a thread. */
  readonly queueSize: number;
  runShard(task: ShardTask, signal?: AbortSignal): Promise<ShardSearchResult>;
  runIndexBatch(task: IndexBatchTask): Promise<IndexBatchResult>;
  /** Parses one file for symbols in a worker: its symbols/codec.ts encoding, or null when unsupported or failed. */
  parseSymbols(path: string, content: Uint8Array): Promise<Uint8Array | null>;
  close(): Promise<void>;
}

/** Time a worker gets past the deadline to notice it and return partial results. */
const DEADLINE_GRACE_MS = 1000;

export function createWorkerPool(options: { threads?: number } = {}): WorkerPool {
  const threads = Math.max(1, options.threads ?? availableParallelism());
  const piscina = new Piscina({
    filename: new URL('./worker.js', import.meta.url).href,
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: 60_000,
    // Piscina first tries require() on the worker file; Node 20's require(esm) path for it aborts
    // the process now and then (an assertion in CreateRequiredModuleFacade). Without it, piscina
    // falls back to import().
    execArgv: [...process.execArgv, '--no-experimental-require-module'],
  });
  return {
    threads,
    get queueSize() {
      return piscina.queueSize;
    },
    async runShard(task, signal) {
      const hardStop = AbortSignal.timeout(Math.max(0, task.deadline - Date.now()) + DEADLINE_GRACE_MS);
      const combined = signal ? AbortSignal.any([signal, hardStop]) : hardStop;
      const transferList = task.source.kind === 'memory' ? [task.source.data.buffer, task.source.ends.buffer] : [];
      try {
        return (await piscina.run(task, { signal: combined, transferList: transferList as ArrayBuffer[] })) as ShardSearchResult;
      } catch (err) {
        if (hardStop.aborted) throw createError('TIMEOUT', 'shard search did not stop by its deadline; its worker was terminated');
        if (signal?.aborted) throw createError('ABORTED', 'search cancelled');
        throw createError('SHARD_CRASHED', `shard search failed: ${(err as Error).message}`);
      }
    },
    async runIndexBatch(task) {
      return (await piscina.run(task, { transferList: [task.data.buffer, task.ends.buffer] as ArrayBuffer[] })) as IndexBatchResult;
    },
    async parseSymbols(path, content) {
      return (await piscina.run({ kind: 'parse-symbols', path, content })) as Uint8Array | null;
    },
    close: () => piscina.destroy(),
  };
}
