/**
 * What a worker entry module exports: it tells the pool when its thread has loaded the handlers'
 * modules, so the pool never terminates a thread mid-load (thread-teardown.ts: a native module whose
 * registration is cut short by termination crashes the whole process), then serves
 * each task message with the handler for its kind. The thread takes its pool's name first
 * (thread-name.ts), and a side lane's lowers its own priority to nice 19 and SCHED_IDLE
 * (thread-priority.ts). After tasks it reports its memory (thread-memory.ts). Keep this module
 * free of heavy imports.
 */
import { parentPort, threadId } from 'node:worker_threads';
import { workerData } from 'piscina';
import { acrossThreads } from './kinds.js';
import { readPoolWorkerData, type TaskMessage, type WorkerLoaded } from './messages.js';
import type { TaskHandlers, TaskMap } from './pool.js';
import { createMemoryReporter } from './thread-memory.js';
import { nameThisThread } from './thread-name.js';
import { idleThisThread, lowerThisThreadPriority, SIDE_LANE_NICE } from './thread-priority.js';

export type TaskServer = (message: TaskMessage) => unknown;

export async function serveTasks<Tasks extends TaskMap>(load: () => Promise<TaskHandlers<Tasks>>): Promise<TaskServer> {
  const { threadName, sideLane } = readPoolWorkerData(workerData);
  if (threadName !== null) nameThisThread(threadName);
  if (sideLane) {
    lowerThisThreadPriority(SIDE_LANE_NICE);
    idleThisThread();
  }
  const handlers: Readonly<Record<string, (task: unknown) => unknown>> = await load();
  const done: WorkerLoaded = { quarryWorkerLoaded: threadId };
  parentPort?.postMessage(done);
  const memoryReport = createMemoryReporter();
  const report = (): void => {
    const due = memoryReport();
    if (due !== null) parentPort?.postMessage(due);
  };
  report();
  return (message) => {
    let result: unknown;
    try {
      result = handlers[message.kind]!(message.task);
    } catch (err) {
      report();
      throw acrossThreads(err);
    }
    if (!(result instanceof Promise)) {
      report();
      return result;
    }
    return result.then(
      (value) => {
        report();
        return value;
      },
      (err: unknown) => {
        report();
        return Promise.reject(acrossThreads(err));
      },
    );
  };
}
