/**
 * Worker memory as the pool reports it (/metrics shows it): real piscina threads holding real
 * array buffers; a thread terminated at its deadline stops counting and is counted as stopped.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createPiscinaPool } from '../../src/pool/piscina-pool.js';
import { ThreadMemoryBook } from '../../src/pool/thread-memory.js';
import { PROBE_ENTRY, PROBE_KINDS, type ProbeTasks } from './probe-tasks.js';

const MIB = 2 ** 20;

test('the book sums the latest report of each live thread and forgets a thread that stopped', () => {
  const book = new ThreadMemoryBook();
  const report = (threadId: number, heapUsedBytes: number, externalBytes: number) =>
    book.record({ tag: 'quarry:thread-memory', threadId, memory: { heapUsedBytes, heapTotalBytes: 2 * heapUsedBytes, externalBytes } });
  report(1, 10, 100);
  report(2, 20, 200);
  report(1, 30, 300);
  assert.deepEqual(book.total(), { threads: 2, threadsStopped: 0, heapUsedBytes: 50, heapTotalBytes: 100, externalBytes: 500 });
  book.drop(1);
  assert.deepEqual(book.total(), { threads: 1, threadsStopped: 1, heapUsedBytes: 20, heapTotalBytes: 40, externalBytes: 200 });
});

test("a worker's retained memory shows in the pool's figures until the worker is terminated", { timeout: 120_000 }, async () => {
  const pool = createPiscinaPool<ProbeTasks>({ entry: PROBE_ENTRY, threads: 1, kinds: PROBE_KINDS, deadlineGraceMs: 100, sliceMs: null });
  try {
    assert.equal(await pool.submit('retain', { mib: 24 }), 24);
    // Reports ride on finished tasks, at most one a second.
    const deadline = Date.now() + 60_000;
    while (pool.memory().main.externalBytes < 24 * MIB && Date.now() < deadline) {
      await pool.submit('primes', { below: 10 });
      await sleep(100);
    }
    const held = pool.memory().main;
    assert.equal(held.threads, 1);
    assert.ok(held.externalBytes >= 24 * MIB, `external ${held.externalBytes}`);
    assert.ok(held.heapUsedBytes > 0 && held.heapTotalBytes >= held.heapUsedBytes);
    assert.equal(pool.memory().side, null);

    await assert.rejects(pool.submit('primes', { below: 1e12 }, { deadline: Date.now() + 50 }), { code: 'TIMEOUT' });
    const gone = pool.memory().main;
    assert.ok(gone.threadsStopped >= 1, `stopped ${gone.threadsStopped}`);
    assert.ok(gone.externalBytes < 24 * MIB, `a terminated thread's buffers still count: ${gone.externalBytes}`);
  } finally {
    await pool.close();
  }
});
