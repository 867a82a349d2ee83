/**
 * The regex plan cache under a caller sending a new hostile regex each time (`a?`ⁿ`a`ⁿ, caseless,
 * whose plans hold trigram queries of hundreds of kilobytes): the heap it holds stays within its
 * byte bound, not its entry bound times the largest plan.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { planRegex, recentPlanStats } from '../../src/regex/plan.js';

const MIB = 2 ** 20;

test('400 distinct hostile regex plans leave the plan cache within its byte bound', () => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  const before = process.memoryUsage().heapUsed;
  for (let n = 300; n < 700; n++) planRegex(`${'a?'.repeat(n)}${'a'.repeat(n)}`, { caseSensitive: false });
  gc();
  const grew = process.memoryUsage().heapUsed - before;
  const stats = recentPlanStats();
  assert.ok(stats.bytes <= 32 * MIB, `the cache counts ${(stats.bytes / MIB).toFixed(1)} MiB`);
  // Kept whole, these 400 plans hold about 150 MiB; the bound is 32 MiB by the cache's own estimate.
  assert.ok(grew < 64 * MIB, `the heap grew by ${(grew / MIB).toFixed(1)} MiB`);
  // A repeated plan is still served from the cache.
  const last = `${'a?'.repeat(699)}${'a'.repeat(699)}`;
  assert.equal(planRegex(last, { caseSensitive: false }), planRegex(last, { caseSensitive: false }));
});
