/**
 * Starts and stops the hostile caller's worker thread (hostile-worker.ts) from the benchmark's main
 * thread, and hands back its figures.
 */
import { Worker } from 'node:worker_threads';
import type { HostileWorkerData } from './hostile-worker.js';
import type { OperationStats } from './latency.js';

export interface HostileFigures {
  readonly seconds: number;
  readonly stats: readonly OperationStats[];
  /** The first unexpected answers, verbatim. */
  readonly examples: readonly string[];
}

export interface HostileCaller {
  stop(): Promise<HostileFigures>;
}

export function startHostileCaller(data: HostileWorkerData): HostileCaller {
  const worker = new Worker(new URL('./hostile-worker.js', import.meta.url), { workerData: data });
  const failed = new Promise<never>((_, reject) => worker.once('error', reject));
  // Reported by stop(): a worker that failed early must not end the benchmark as an unhandled rejection.
  failed.catch(() => undefined);
  return {
    async stop() {
      const figures = Promise.race([new Promise<HostileFigures>((resolve) => worker.once('message', resolve)), failed]);
      worker.postMessage('stop');
      const result = await figures;
      await worker.terminate();
      return result;
    },
  };
}
