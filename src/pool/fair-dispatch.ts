/**
 * Hands tasks to a fixed number of slots in fair order (fair-queue.ts): a task starts only when a
 * slot is free, so the order is ours, not the underlying pool's first-in first-out queue. A task
 * whose signal aborts while it waits leaves the queue with the signal's reason. A preemptible task
 * that has held its slot for a whole slice while other callers wait is told to stop: fair order
 * alone cannot keep one caller's ten-second scans from halving everyone's capacity while they run.
 */
import { FairQueue, type HeavyThresholds } from './fair-queue.js';

export interface RunOptions {
  /** Stop the task (through the signal it is given) after this long in its slot if others wait. */
  readonly sliceMs?: number;
}

export interface FairDispatcher {
  /** Tasks waiting for a slot. */
  readonly waiting: number;
  /** Whether `owner`'s tasks are heavy while others use the slots (FairQueue.heavy). */
  heavy(owner: string, thresholds: HeavyThresholds): boolean;
  /** Charges `owner` for slot time used elsewhere (FairQueue.charge). */
  charge(owner: string, usedMs: number): void;
  /**
   * `start` gets a signal that aborts when the task is preempted (null without `sliceMs`), and
   * `passed`, to call when it gives its turn up to run elsewhere: its caller is charged nothing here.
   */
  run<T>(owner: string, signal: AbortSignal | undefined, start: (preempted: AbortSignal | null, passed: () => void) => Promise<T>, options?: RunOptions): Promise<T>;
}

interface Pending {
  /** Starts the task; it calls `release` once, when it settles (`passed`: it gave its turn up). */
  readonly start: (release: (passed: boolean) => void) => void;
}

/** How far ahead of its share (in slot time) a caller may be and still take a slot others leave idle. */
const AHEAD_LIMIT_MS = 1000;

export function createFairDispatcher(slots: number): FairDispatcher {
  const queue = new FairQueue<Pending>({ slots, maxPerOwner: Math.max(1, Math.ceil(slots / 2)), aheadLimitMs: AHEAD_LIMIT_MS });
  const pump = (): void => {
    for (let next = queue.next(); next !== null; next = queue.next()) {
      const began = performance.now();
      const { finish } = next;
      next.item.start((passed) => {
        finish(passed ? null : performance.now() - began);
        pump();
      });
    }
  };
  /** Checks every slice whether others wait; the task's own settling clears the timer. */
  const preemption = (owner: string, sliceMs: number): { signal: AbortSignal; stop: () => void } => {
    const controller = new AbortController();
    const timer = setInterval(() => {
      if (queue.othersWaiting(owner)) controller.abort(new PreemptedError(sliceMs));
    }, sliceMs);
    timer.unref();
    return { signal: controller.signal, stop: () => clearInterval(timer) };
  };
  return {
    get waiting() {
      return queue.waiting;
    },
    heavy: (owner, thresholds) => queue.heavy(owner, thresholds),
    charge: (owner, usedMs) => queue.charge(owner, usedMs),
    run<T>(owner: string, signal: AbortSignal | undefined, start: (preempted: AbortSignal | null, passed: () => void) => Promise<T>, options: RunOptions = {}): Promise<T> {
      if (signal?.aborted) return Promise.reject(signal.reason);
      return new Promise<T>((resolve, reject) => {
        const onAbort = (): void => {
          if (queue.remove(owner, pending)) reject(signal!.reason);
        };
        const pending: Pending = {
          start: (release) => {
            signal?.removeEventListener('abort', onAbort);
            const slice = options.sliceMs === undefined ? null : preemption(owner, options.sliceMs);
            let passed = false;
            // The slot is free before the caller hears back, so its next task can take it.
            const settle = (): void => {
              slice?.stop();
              release(passed);
            };
            Promise.resolve(slice?.signal ?? null).then((preempted) => start(preempted, () => (passed = true))).then((value) => {
              settle();
              resolve(value);
            }, (err: unknown) => {
              settle();
              reject(err);
            });
          },
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        queue.push(owner, pending);
        pump();
      });
    },
  };
}

/** The reason a preempted task's signal carries. */
export class PreemptedError extends Error {
  constructor(readonly sliceMs: number) {
    super(`held a worker for over ${sliceMs} ms while other callers waited`);
    this.name = 'PreemptedError';
  }
}
