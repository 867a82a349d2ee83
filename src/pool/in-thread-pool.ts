/**
 * The pool seam on the calling thread, for fast unit tests of services: the workers' own handlers,
 * one task at a time in submission order, the signal and deadline checked between tasks. Code on
 * this thread cannot be stopped: a caller whose task is cancelled or times out while its handler
 * awaits is answered at once and the next task starts. No compile guard: test patterns only.
 */
import { createError } from '../errors.js';
import { ENGINE_DEADLINE_GRACE_MS, ENGINE_KINDS } from './engine-kinds.js';
import { cancelled, poolClosed, taskFailure, waitedPastDeadline, type KindPolicy, type KindTable } from './kinds.js';
import { createLoopHold } from './loop-hold.js';
import { unmoved } from './moved.js';
import type { EnginePool, Pool, SubmitOptions, TaskHandlers, TaskMap } from './pool.js';
import { handlers as engineHandlers } from './worker.js';

export interface InThreadPoolOptions {
  /** As a worker pool's: how long past its deadline a task may still finish. */
  readonly deadlineGraceMs?: number;
}

/** A submitted task, from its submission until its caller is answered. */
interface Entry {
  /** Runs the handler; resolves when the thread is free for the next task. */
  start(): Promise<void>;
  refuse(err: Error): void;
}

export function createInThreadPool<Tasks extends TaskMap>(handlers: TaskHandlers<Tasks>, kinds: KindTable<Tasks>, options: InThreadPoolOptions = {}): Pool<Tasks> {
  const graceMs = options.deadlineGraceMs ?? 0;
  const waiting: Entry[] = [];
  let running: Entry | null = null;
  let turnPending = false;
  let closed = false;
  // A handler awaiting something unreferenced must not let the process end under its caller.
  const loop = createLoopHold();
  const pump = (): void => {
    if (running !== null || turnPending || waiting.length === 0) return;
    turnPending = true;
    // A turn of the event loop between tasks lets timers and abort events fire, as they would while a worker runs.
    setImmediate(() => {
      turnPending = false;
      const next = waiting.shift();
      if (next === undefined) return;
      running = next;
      void next.start().then(() => {
        running = null;
        pump();
      });
    });
  };
  const leaveQueue = (entry: Entry): boolean => {
    const at = waiting.indexOf(entry);
    if (at >= 0) waiting.splice(at, 1);
    return at >= 0;
  };
  return {
    threads: 1,
    get queueSize() {
      return waiting.length;
    },
    // Its tasks run on the calling thread, whose memory the process figures already show.
    memory: () => ({ main: { threads: 0, threadsStopped: 0, heapUsedBytes: 0, heapTotalBytes: 0, externalBytes: 0 }, side: null }),
    submit(kind, task, submitOptions = {}) {
      if (closed) return Promise.reject(poolClosed());
      const release = loop.hold();
      return new Promise<Tasks[typeof kind]['result']>((resolve, reject) => {
        const entry = createEntry(() => handlers[kind](task), kinds[kind], graceMs, submitOptions, leaveQueue, resolve, reject);
        waiting.push(entry);
        pump();
      }).finally(release);
    },
    async close() {
      closed = true;
      for (const entry of waiting.splice(0)) entry.refuse(poolClosed());
      running?.refuse(poolClosed());
    },
  };
}

/** The engine's handlers on the calling thread, with the worker pool's task kinds and grace. */
export function createInThreadEnginePool(): EnginePool {
  return createInThreadPool(engineHandlers, ENGINE_KINDS, { deadlineGraceMs: ENGINE_DEADLINE_GRACE_MS });
}

function createEntry<Result>(
  run: () => unknown, policy: KindPolicy<never>, graceMs: number, options: SubmitOptions,
  leaveQueue: (entry: Entry) => boolean, resolve: (value: Result) => void, reject: (err: Error) => void,
): Entry {
  const { signal, deadline } = options;
  // As a worker pool measures it: even a deadline already past leaves the task its grace period.
  const stopAt = deadline === undefined ? Infinity : Date.now() + Math.max(0, deadline - Date.now()) + graceMs;
  let started = false;
  let answered = false;
  let release = (): void => {};
  const answer = (settle: () => void): void => {
    if (answered) return;
    answered = true;
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
    leaveQueue(entry);
    settle();
    release();
  };
  const refuse = (err: Error): void => answer(() => reject(err));
  const late = (): Error => (started ? createError('TIMEOUT', `${policy.what} did not finish by its deadline`) : waitedPastDeadline(policy.what));
  const onAbort = (): void => refuse(cancelled(policy.what));
  const timer = stopAt === Infinity ? undefined : setTimeout(() => refuse(late()), Math.max(0, stopAt - Date.now()));
  signal?.addEventListener('abort', onAbort, { once: true });
  const entry: Entry = {
    refuse,
    start: () => new Promise<void>((free) => {
      release = free;
      if (answered) return free();
      if (signal?.aborted) return refuse(cancelled(policy.what));
      if (Date.now() >= stopAt) return refuse(late());
      started = true;
      let out: unknown;
      try {
        out = run();
      } catch (err) {
        return refuse(taskFailure(err, policy));
      }
      Promise.resolve(out).then(
        (value) => (Date.now() > stopAt ? refuse(late()) : answer(() => resolve(unmoved(value) as Result))),
        (err: unknown) => refuse(taskFailure(err, policy)),
      );
    }),
  };
  if (signal?.aborted) queueMicrotask(onAbort);
  return entry;
}
