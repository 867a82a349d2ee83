/**
 * The piscina pool against the pool contract: the probe tasks on real worker threads with the
 * engine's grace and slice, and the engine's own configuration (worker-entry.ts, compile guard).
 */
import { createEnginePool } from '../../src/pool/engine-pool.js';
import { createPiscinaPool } from '../../src/pool/piscina-pool.js';
import { runEnginePoolContract, runPoolContract } from '../contracts/pool.contract.js';
import { PROBE_ENTRY, PROBE_KINDS, type ProbeTasks } from './probe-tasks.js';

const GRACE_MS = 300;

runPoolContract({
  name: 'piscina',
  create: () => createPiscinaPool<ProbeTasks>({ entry: PROBE_ENTRY, threads: 2, kinds: PROBE_KINDS, deadlineGraceMs: GRACE_MS, sliceMs: 2000 }),
  graceMs: GRACE_MS,
  stopsRunningCode: true,
});

runEnginePoolContract({ name: 'engine pool (piscina)', create: () => createEnginePool({ threads: 1 }) });
