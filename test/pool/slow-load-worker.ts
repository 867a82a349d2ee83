/**
 * Worker entry for the probe tasks whose handlers take a while to load, as a thread loading
 * native addons under load does; each thread notes in QUARRY_TEST_LOAD_LOG when its load starts
 * and when it ends, so a test can tell whether a thread was torn down mid-load.
 */
import { appendFileSync } from 'node:fs';
import { threadId } from 'node:worker_threads';
import { serveTasks } from '../../src/pool/task-entry.js';
import { probeHandlers } from './probe-tasks.js';

const LOAD_MS = 1500;

export default await serveTasks(async () => {
  const log = process.env['QUARRY_TEST_LOAD_LOG'];
  if (log !== undefined) appendFileSync(log, `start ${threadId}\n`);
  // Busy, not waiting: the thread is as occupied as one registering a native module.
  const until = performance.now() + LOAD_MS;
  while (performance.now() < until);
  if (log !== undefined) appendFileSync(log, `end ${threadId}\n`);
  return probeHandlers;
});
