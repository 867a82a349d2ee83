/**
 * The in-thread pool against the pool contract, and against the worker pool: the same handlers
 * give the same answers on the calling thread.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createEnginePool } from '../../src/pool/engine-pool.js';
import { createInThreadEnginePool, createInThreadPool } from '../../src/pool/in-thread-pool.js';
import { packMemoryDocs } from '../../src/index/memory-source.js';
import type { EnginePool } from '../../src/pool/pool.js';
import { parseQuery } from '../../src/query/index.js';
import { planBasicQuery } from '../../src/search/plan.js';
import { runEnginePoolContract, runPoolContract } from '../contracts/pool.contract.js';
import { PROBE_KINDS, probeHandlers } from './probe-tasks.js';

runPoolContract({ name: 'in-thread', create: () => createInThreadPool(probeHandlers, PROBE_KINDS), graceMs: 0, stopsRunningCode: false });

runEnginePoolContract({ name: 'engine pool (in-thread)', create: createInThreadEnginePool });

test('answers shard searches exactly as the worker pool does', async () => {
  const files = Array.from({ length: 40 }, (_, i) => ({
    path: `src/file${i}.${i % 3 === 0 ? 'ts' : 'txt'}`,
    content: new TextEncoder().encode(`line ${i}\nconst value${i} = ${i * 7};\n${'x'.repeat(i)} needle ${i % 5}\n`),
  }));
  const queries = ['needle', '/value[0-9]+ = [0-9]*7/', 'needle 3 OR line 1', 'file:ts$ const', 'case:yes Needle'];
  const search = async (pool: EnginePool): Promise<unknown[]> => {
    try {
      return await Promise.all(queries.map(async (query) => {
        const plan = planBasicQuery(parseQuery(query).basics[0]!, { matcher: 'auto' });
        const docs = packMemoryDocs(files);
        const result = await pool.submit('shard', { source: { kind: 'memory', ...docs }, lo: 0, hi: files.length, deleted: [], plan, limit: 1000, deadline: Date.now() + 30_000, stop: null });
        // Timings differ from run to run; everything else must agree.
        return { ...result, stats: Object.fromEntries(Object.entries(result.stats).filter(([key]) => !key.endsWith('Ms'))) };
      }));
    } finally {
      await pool.close();
    }
  };
  const inThread = await search(createInThreadEnginePool());
  assert.ok((inThread[0] as { files: unknown[] }).files.length === 40);
  assert.deepEqual(await search(createEnginePool({ threads: 1 })), inThread);
});
