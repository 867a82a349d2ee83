/**
 * Worker thread entry: tells the pool when the thread starts loading its modules and when it is
 * done, so the pool never terminates a thread mid-load (a native module whose registration is cut
 * short by termination aborts the whole process), then serves every task with worker.ts.
 */
import { parentPort } from 'node:worker_threads';
import { WORKER_LOADED, WORKER_LOADING } from './messages.js';

parentPort?.postMessage(WORKER_LOADING);
const worker = await import('./worker.js');
parentPort?.postMessage(WORKER_LOADED);

export default worker.default;
