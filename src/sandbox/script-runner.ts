/**
 * The evaluator's engine, host side: runs a script in the sandbox pool under the site's limits
 * (read per run), serving its calls through the caller's HostCall, and reports what it printed and
 * wrote and how it ended, a limit included. A worker terminated at the deadline or for its heap is
 * a reached limit, not a failure. The pool is built on first use, and again when the heap cap changes.
 */
import { MessageChannel } from 'node:worker_threads';
import { isQuarryError } from '../errors.js';
import type { Pool } from '../pool/pool.js';
import type { RunLimits, RunResult, StopReason } from './protocol.js';
import { RunHost, type GeneratedFile, type HostCall } from './run-host.js';
import type { SandboxTasks } from './tasks.js';

export type { GeneratedFile, HostCall } from './run-host.js';
export { MAX_OUTPUT_CHARS } from './run-channel.js';
export type { HostFunction, LimitName, RunLimits, StopReason } from './protocol.js';

export interface ScriptRequest {
  readonly script: string;
  /** Aborts the run (the caller went away); also names the caller to the pool's fair queue. */
  readonly signal: AbortSignal;
  readonly call: HostCall;
}

export interface ScriptOutcome {
  /** Everything printed, in order, up to MAX_OUTPUT_CHARS (the worker drops the rest and counts it). */
  readonly output: string;
  readonly droppedOutputChars: number;
  readonly files: readonly GeneratedFile[];
  /** The script's own error (message with its line), or null. */
  readonly error: string | null;
  /** The limit that ended the run, or null. */
  readonly stop: StopReason | null;
  readonly searches: number;
  readonly reads: number;
  readonly elapsedMs: number;
}

export interface ScriptRunner {
  run(request: ScriptRequest): Promise<ScriptOutcome>;
  close(): Promise<void>;
}

export interface ScriptRunnerOptions {
  /** The limits of a run, read as each run starts (deepSearch.evaluator.*). */
  readonly limits: () => RunLimits;
  /** A sandbox pool whose workers' heaps are capped at `heapMiB`. */
  readonly createPool: (heapMiB: number) => Pool<SandboxTasks>;
}

interface PoolSlot {
  readonly heapMiB: number;
  readonly pool: Pool<SandboxTasks>;
  active: number;
  retired: boolean;
}

const MIB = 1024 * 1024;

export function createScriptRunner(options: ScriptRunnerOptions): ScriptRunner {
  let current: PoolSlot | null = null;
  const closing = new Set<Promise<void>>();
  const retire = (slot: PoolSlot): void => {
    slot.retired = true;
    if (slot.active > 0) return;
    const closed = slot.pool.close();
    closing.add(closed);
    void closed.finally(() => closing.delete(closed));
  };
  const acquire = (heapMiB: number): PoolSlot => {
    if (current === null || current.heapMiB !== heapMiB) {
      if (current !== null) retire(current);
      current = { heapMiB, pool: options.createPool(heapMiB), active: 0, retired: false };
    }
    current.active++;
    return current;
  };
  return {
    async run(request) {
      const limits = options.limits();
      const slot = acquire(Math.ceil(limits.maxMemoryBytes / MIB));
      try {
        return await runOnce(slot.pool, limits, request);
      } finally {
        slot.active--;
        if (slot.retired && slot.active === 0) retire(slot);
      }
    },
    async close() {
      if (current !== null) retire(current);
      current = null;
      await Promise.all([...closing]);
    },
  };
}

async function runOnce(pool: Pool<SandboxTasks>, limits: RunLimits, request: ScriptRequest): Promise<ScriptOutcome> {
  const started = performance.now();
  const { port1, port2 } = new MessageChannel();
  const replied = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
  const host = new RunHost(port1, replied, limits, request.call, request.signal);
  const deadline = Date.now() + limits.maxExecutionSeconds * 1000;
  let result: RunResult | null = null;
  let stop: StopReason | null = null;
  try {
    result = await pool.submit('lua-run', { script: request.script, deadline, limits, port: port2, replied }, { signal: request.signal, deadline });
    await host.receivedAll(result.messages);
  } catch (err) {
    stop = limitReached(err, limits);
    if (stop === null) throw err;
  } finally {
    await host.close();
  }
  return {
    output: host.text,
    droppedOutputChars: result?.droppedOutputChars ?? 0,
    files: [...host.files.values()],
    error: result?.error ?? null,
    stop: result?.stop ?? stop,
    searches: host.searches,
    reads: host.reads,
    elapsedMs: performance.now() - started,
  };
}

/** A terminated worker as the limit it reached; null for any other failure (cancelled, a bug). */
function limitReached(err: unknown, limits: RunLimits): StopReason | null {
  if (isQuarryError(err, 'TIMEOUT') && err.details['waitedForWorker'] === true) {
    return { limit: 'maxExecutionSeconds', message: `the script did not start: every sandbox worker stayed busy for the whole of its ${limits.maxExecutionSeconds} s (deepSearch.evaluator.maxExecutionSeconds); try again shortly` };
  }
  if (isQuarryError(err, 'TIMEOUT')) {
    return { limit: 'maxExecutionSeconds', message: `the script ran out of time: a run may take ${limits.maxExecutionSeconds} s (deepSearch.evaluator.maxExecutionSeconds), and its worker was stopped inside one long operation (a string function on a large input, say)` };
  }
  if (isQuarryError(err) && err.details['outOfMemory'] === true) {
    return { limit: 'maxMemoryBytes', message: `the script ran out of memory: a run may use ${limits.maxMemoryBytes} bytes (deepSearch.evaluator.maxMemoryBytes)` };
  }
  return null;
}
