/**
 * The pool's side lane on real worker threads: a caller whose tasks hold a thread for long runs
 * them on a low-priority thread of its own while another caller uses the pool, so the other's
 * tasks never wait behind them; the same load without a side lane shows the wait it removes.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { HeavyThresholds } from '../../src/pool/fair-queue.js';
import { createPiscinaPool } from '../../src/pool/piscina-pool.js';
import type { Pool } from '../../src/pool/pool.js';
import { SIDE_LANE_NICE } from '../../src/pool/thread-priority.js';
import { chargeSignalTo } from '../../src/pool/work-owner.js';
import { PROBE_ENTRY, PROBE_KINDS, type ProbeTasks } from './probe-tasks.js';

const HEAVY: HeavyThresholds = { typicalMs: 300, aheadMs: Infinity, activeWindowMs: 2000 };
/** The heavy caller's long task: it holds its thread this long without using CPU, so a busy machine does not blur the waits. */
const LONG_MS = 2500;

const signalOf = (owner: string): AbortSignal => {
  const controller = new AbortController();
  chargeSignalTo(controller.signal, owner);
  return controller.signal;
};

/**
 * One thread in the main lane. The heavy caller first shows its tasks are long (alone, so in the
 * main lane), then sends one more while the light caller sends short tasks one after another;
 * returns the light caller's longest wait meanwhile.
 */
async function lightWaitBesideHeavy(pool: Pool<ProbeTasks>): Promise<number> {
  await pool.submit('wait', { ms: 600 }, { signal: signalOf('heavy') });
  let stop = false;
  let longest = 0;
  const light = (async () => {
    while (!stop) {
      const began = performance.now();
      await pool.submit('wait', { ms: 5 }, { signal: signalOf('light') });
      longest = Math.max(longest, performance.now() - began);
    }
  })();
  await sleep(200);
  await pool.submit('wait', { ms: LONG_MS }, { signal: signalOf('heavy') });
  stop = true;
  await light;
  return longest;
}

const SCHED_IDLE = 5;

/** Nice value and scheduling policy of each of this process's threads (proc(5) stat fields 19 and 41). */
function threadPriorities(): { nice: number; policy: number }[] {
  return readdirSync('/proc/self/task').map((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { nice: Number(fields[16]), policy: Number(fields[38]) };
  });
}

test('a heavy caller\'s long task runs on the side lane at the lowest priority; the light caller never waits behind it', async () => {
  const pool = createPiscinaPool<ProbeTasks>({ entry: PROBE_ENTRY, threads: 1, kinds: PROBE_KINDS, deadlineGraceMs: 300, sliceMs: null, sideLane: { threads: 1, heavy: HEAVY } });
  try {
    const longest = await lightWaitBesideHeavy(pool);
    assert.ok(longest < LONG_MS / 2, `the light caller waited ${longest.toFixed(0)} ms for a 5 ms task`);
    const lowered = threadPriorities().filter((t) => t.nice === SIDE_LANE_NICE);
    assert.equal(lowered.length, 1, 'one thread (the side lane\'s) runs at the lowest priority');
    assert.equal(lowered[0]!.policy, SCHED_IDLE, 'and is scheduled only on cores nothing else wants (SCHED_IDLE)');
  } finally {
    await pool.close();
  }
});

test('without a side lane the light caller waits behind the heavy caller\'s long task (what the lane removes)', async () => {
  const pool = createPiscinaPool<ProbeTasks>({ entry: PROBE_ENTRY, threads: 1, kinds: PROBE_KINDS, deadlineGraceMs: 300, sliceMs: null });
  try {
    const longest = await lightWaitBesideHeavy(pool);
    assert.ok(longest >= LONG_MS * 0.8, `the light caller waited only ${longest.toFixed(0)} ms`);
  } finally {
    await pool.close();
  }
});
