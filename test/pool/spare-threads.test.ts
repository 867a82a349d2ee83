/**
 * A pool with a spare thread answers the task after one stopped at its deadline at once, while its
 * terminated thread's replacement loads; without one, that task waits for the load. Threads here
 * take 1.5 s to load (slow-load-worker.ts), as one loading native addons on a busy machine does.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { isQuarryError } from '../../src/errors.js';
import { createPiscinaPool } from '../../src/pool/piscina-pool.js';
import { PROBE_KINDS, type ProbeTasks } from './probe-tasks.js';

const SLOW_ENTRY = new URL('./slow-load-worker.js', import.meta.url);
const LOAD_MS = 1500;

async function nextTaskAfterAStop(spareThreads: number): Promise<number> {
  const pool = createPiscinaPool<ProbeTasks>({ entry: SLOW_ENTRY, threads: 1, spareThreads, kinds: PROBE_KINDS, deadlineGraceMs: 20, sliceMs: null });
  try {
    await pool.submit('wait', { ms: 0 });
    // Every thread the pool starts has loaded by now.
    await sleep(2 * LOAD_MS);
    await assert.rejects(pool.submit('primes', { below: 1e12 }, { deadline: Date.now() + 100 }), (err) => isQuarryError(err, 'TIMEOUT'));
    const started = performance.now();
    await pool.submit('wait', { ms: 0 });
    return performance.now() - started;
  } finally {
    await pool.close();
  }
}

test('the task after one stopped at its deadline runs on a spare thread at once', async () => {
  const withSpare = await nextTaskAfterAStop(1);
  assert.ok(withSpare < LOAD_MS / 2, `with a spare thread it waited ${withSpare.toFixed(0)} ms`);
  const withoutSpare = await nextTaskAfterAStop(0);
  assert.ok(withoutSpare >= LOAD_MS * 0.8, `without one it waited only ${withoutSpare.toFixed(0)} ms, so the test shows nothing`);
});
