/**
 * Closing a worker pool whose threads are still loading their modules: the threads finish loading
 * first (a native module cut short while registering aborted the whole process), then the pool
 * closes and a new one serves.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createEnginePool } from '../../src/pool/engine-pool.js';

test('a pool closed at once after it is made waits for its threads to load, every time', async () => {
  for (let round = 0; round < 12; round++) {
    const pool = createEnginePool({ threads: 2 });
    await pool.close();
  }
  const pool = createEnginePool({ threads: 1 });
  try {
    assert.deepEqual(await pool.submit('parse-symbols', { path: 'a.ts', content: new TextEncoder().encode('export const answer = 42;\n') }) !== null, true);
  } finally {
    await pool.close();
  }
});
