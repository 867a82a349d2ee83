/**
 * The sandbox pool for untrusted scripts: the pool contract on real worker threads with capped
 * heaps and no grace past a deadline, and what it is for: a task over its memory cap or past its
 * deadline is stopped with a clear error and its worker replaced, and the pool keeps serving.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isQuarryError } from '../../src/errors.js';
import { createSandboxPool } from '../../src/pool/sandbox-pool.js';
import { runPoolContract } from '../contracts/pool.contract.js';
import { PROBE_ENTRY, PROBE_KINDS, type ProbeTasks } from './probe-tasks.js';

const HEAP_MIB = 32;

runPoolContract({
  name: 'sandbox',
  create: () => createSandboxPool<ProbeTasks>({ entry: PROBE_ENTRY, kinds: PROBE_KINDS, threads: 2, heapMiB: HEAP_MIB }),
  graceMs: 0,
  stopsRunningCode: true,
});

test('a task over its heap cap fails with a clear error, and the next task succeeds', async () => {
  const pool = createSandboxPool<ProbeTasks>({ entry: PROBE_ENTRY, kinds: PROBE_KINDS, heapMiB: HEAP_MIB });
  try {
    assert.equal(await pool.submit('allocate', { mib: HEAP_MIB / 4 }), HEAP_MIB / 4);
    await assert.rejects(pool.submit('allocate', { mib: HEAP_MIB * 16 }, { deadline: Date.now() + 30_000 }), (err) => {
      assert.ok(isQuarryError(err, 'INTERNAL'), String(err));
      assert.equal(err.message, `allocation ran out of memory (its heap is capped at ${HEAP_MIB} MiB); its worker was replaced`);
      return true;
    });
    assert.equal(await pool.submit('allocate', { mib: HEAP_MIB / 4 }), HEAP_MIB / 4);
    assert.equal(await pool.submit('primes', { below: 1000 }), 168);
  } finally {
    await pool.close();
  }
});

test('a computation past its deadline is terminated at the deadline, and the next task succeeds', async () => {
  const pool = createSandboxPool<ProbeTasks>({ entry: PROBE_ENTRY, kinds: PROBE_KINDS });
  try {
    assert.equal(await pool.submit('primes', { below: 1000 }), 168);
    const deadline = Date.now() + 300;
    await assert.rejects(pool.submit('primes', { below: 1e12 }, { deadline }), (err) => {
      assert.ok(isQuarryError(err, 'TIMEOUT'), String(err));
      assert.equal(err.message, 'prime count did not stop by its deadline; its worker was terminated');
      return true;
    });
    // No grace: stopped at the deadline, not a second later.
    assert.ok(Date.now() - deadline < 700, `stopped ${Date.now() - deadline} ms after the deadline`);
    assert.equal(await pool.submit('primes', { below: 1000 }), 168);
  } finally {
    await pool.close();
  }
});

test('a task without a deadline is held to the pool\'s longest run', async () => {
  const pool = createSandboxPool<ProbeTasks>({ entry: PROBE_ENTRY, kinds: PROBE_KINDS, maxRunMs: 1500 });
  try {
    assert.equal(await pool.submit('primes', { below: 1000 }), 168);
    await assert.rejects(pool.submit('primes', { below: 1e12 }), (err) => isQuarryError(err, 'TIMEOUT'));
    await assert.rejects(pool.submit('primes', { below: 1e12 }, { deadline: Date.now() + 600_000 }), (err) => isQuarryError(err, 'TIMEOUT'));
    assert.equal(await pool.submit('primes', { below: 1000 }), 168);
  } finally {
    await pool.close();
  }
});
