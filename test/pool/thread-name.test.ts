/**
 * A pool's threads carry its name where the kernel shows it (/proc/<pid>/task/<tid>/comm, top -H),
 * so where a server's CPU goes can be read per thread.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { createPiscinaPool } from '../../src/pool/piscina-pool.js';
import { PROBE_ENTRY, PROBE_KINDS, type ProbeTasks } from './probe-tasks.js';

function threadNames(): string[] {
  return readdirSync('/proc/self/task').map((tid) => readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim());
}

test('a pool\'s threads take its name; the main thread keeps its own', { skip: process.platform !== 'linux' }, async () => {
  const mainName = readFileSync('/proc/self/comm', 'utf8').trim();
  const pool = createPiscinaPool<ProbeTasks>({ entry: PROBE_ENTRY, threadName: 'q-probe', threads: 2, kinds: PROBE_KINDS, deadlineGraceMs: 300, sliceMs: 2000 });
  try {
    await Promise.all([pool.submit('wait', { ms: 50 }), pool.submit('wait', { ms: 50 })]);
    assert.equal(threadNames().filter((name) => name === 'q-probe').length, 2);
    assert.equal(readFileSync('/proc/self/comm', 'utf8').trim(), mainName);
  } finally {
    await pool.close();
  }
  assert.equal(threadNames().filter((name) => name === 'q-probe').length, 0, 'the closed pool\'s threads are gone');
});
