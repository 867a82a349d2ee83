/**
 * A thread is never torn down while it loads its modules (a native addon cut short while
 * registering crashes the whole process as its half-made environment is freed: tree-sitter's
 * binding then frees a query cursor it never made, SIGSEGV). Piscina hands queued tasks to
 * threads still loading, so a task stopped at its deadline may sit on one; closing the pool may
 * find some. Each thread of these pools logs when its slow load starts and ends.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { createPiscinaPool } from '../../src/pool/piscina-pool.js';
import { PROBE_KINDS, type ProbeTasks } from './probe-tasks.js';

const SLOW_ENTRY = new URL('./slow-load-worker.js', import.meta.url);

/** Threads whose load started and never ended, from the log. */
function cutShort(log: string): string[] {
  const lines = readFileSync(log, 'utf8').split('\n').filter(Boolean);
  const ended = new Set(lines.filter((l) => l.startsWith('end ')).map((l) => l.slice(4)));
  return lines.filter((l) => l.startsWith('start ') && !ended.has(l.slice(6))).map((l) => l.slice(6));
}

test('tasks stopped at their deadlines, and closing, never tear down a thread that is still loading', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-load-teardown-'));
  const log = join(dir, 'loads.log');
  process.env['QUARRY_TEST_LOAD_LOG'] = log;
  // Keeps this process alive whatever the pool does: what is judged here is which threads it tears down.
  const keepAlive = setInterval(() => undefined, 1000);
  try {
    const outcomes: string[] = [];
    for (let round = 0; round < 2; round++) {
      // A new pool's first threads take tasks at once, while they load; these stop mid-load.
      const pool = createPiscinaPool<ProbeTasks>({ entry: SLOW_ENTRY, threads: 2, kinds: PROBE_KINDS, deadlineGraceMs: 20, sliceMs: null });
      const settled = await Promise.allSettled([0, 1].map(() => pool.submit('primes', { below: 50_000_000 }, { deadline: Date.now() + 400 })));
      outcomes.push(...settled.map((s) => (s.status === 'fulfilled' ? 'done' : (s.reason as { code?: string }).code ?? 'failed')));
      // Closed while the stopped threads' replacements load.
      await pool.close();
    }
    assert.ok(outcomes.includes('TIMEOUT'), `no task was stopped: ${outcomes.join(', ')}`);
    assert.deepEqual(cutShort(log), [], `threads torn down mid-load; log:\n${readFileSync(log, 'utf8')}`);
  } finally {
    clearInterval(keepAlive);
    delete process.env['QUARRY_TEST_LOAD_LOG'];
    rmSync(dir, { recursive: true, force: true });
  }
});
