/**
 * Run by thread-error.test.ts in a process of its own: a pool whose threads die loading, given a
 * task and then closed. Prints what the task answered; an error event nobody handles would end
 * the process before.
 */
import { createPiscinaPool } from '../../src/pool/piscina-pool.js';
import { PROBE_KINDS, type ProbeTasks } from './probe-tasks.js';

const pool = createPiscinaPool<ProbeTasks>({ entry: new URL('./failing-load-worker.js', import.meta.url), threads: 2, kinds: PROBE_KINDS, deadlineGraceMs: 100, sliceMs: null });
const outcome = await pool.submit('primes', { below: 100 }, { deadline: Date.now() + 2000 }).then(
  () => 'answered',
  (err: unknown) => `failed: ${(err as { code?: string }).code ?? 'no code'}`,
);
// Threads that die with no task to fail are reported as piscina 'error' events.
await new Promise((resolve) => setTimeout(resolve, 500));
await pool.close();
console.log(JSON.stringify({ outcome }));
