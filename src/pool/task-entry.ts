/**
 * What a worker entry module exports: it tells the pool when its thread starts loading the
 * handlers' modules and when it is done, so the pool never terminates a thread mid-load (a native
 * module whose registration is cut short by termination aborts the whole process), then serves
 * each task message with the handler for its kind. A side lane's thread lowers its own priority
 * first (thread-priority.ts). Keep this module free of heavy imports.
 */
import { parentPort } from 'node:worker_threads';
import { workerData } from 'piscina';
import { acrossThreads } from './kinds.js';
import { WORKER_LOADED, WORKER_LOADING, type TaskMessage } from './messages.js';
import type { TaskHandlers, TaskMap } from './pool.js';
import { isSideLaneWorker, lowerThisThreadPriority, SIDE_LANE_NICE } from './thread-priority.js';

export type TaskServer = (message: TaskMessage) => unknown;

export async function serveTasks<Tasks extends TaskMap>(load: () => Promise<TaskHandlers<Tasks>>): Promise<TaskServer> {
  parentPort?.postMessage(WORKER_LOADING);
  if (isSideLaneWorker(workerData)) lowerThisThreadPriority(SIDE_LANE_NICE);
  const handlers: Readonly<Record<string, (task: unknown) => unknown>> = await load();
  parentPort?.postMessage(WORKER_LOADED);
  return (message) => {
    let result: unknown;
    try {
      result = handlers[message.kind]!(message.task);
    } catch (err) {
      throw acrossThreads(err);
    }
    return result instanceof Promise ? result.catch((err: unknown) => Promise.reject(acrossThreads(err))) : result;
  };
}
