/**
 * Hostile GraphQL documents over real HTTP on loopback against a real server: while fragment
 * bombs are being answered, `/healthz` still answers within 100 ms (a depth-39 bomb used to hold
 * the main thread for minutes), and floods and search storms get their exact refusals. On a busy
 * 2-core machine even a trivial request now and then waits over 100 ms, so the median of several
 * rounds is held to 100 ms and every round to one second.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startServerFixture, type ServerFixture } from '../../http/server-fixture.js';
import { aliasedSearches, duplicateFlood, fragmentBomb } from './hostile-documents.js';

let fixture: ServerFixture;
let token = '';
before(async () => {
  fixture = await startServerFixture({ 'github.com/acme/app': { 'router.ts': 'export class Router {}\n' } });
  token = fixture.adminToken;
});
after(async () => { await fixture.close(); });

const COST_REFUSAL = '{"errors":[{"message":"query exceeds maximum query cost"}]}';

async function post(query: string): Promise<{ status: number; body: string }> {
  const response = await fetch(`${fixture.url}/.api/graphql`, { method: 'POST', headers: { Authorization: `token ${token}` }, body: JSON.stringify({ query }) });
  return { status: response.status, body: await response.text() };
}

test('/healthz answers within 100 ms while fragment bombs are being answered', async (t) => {
  const latencies: number[] = [];
  // Round 0 warms up: the first request of each kind pays for loading and optimising its code.
  for (let round = 0; round <= 7; round++) {
    // New fragment names each round: every document is new to the compile cache.
    const bombs = [post(fragmentBomb(39, 2, `R${round}a`)), post(fragmentBomb(39, 8, `R${round}b`))];
    const started = performance.now();
    const health = await fetch(`${fixture.url}/healthz`);
    if (round > 0) latencies.push(performance.now() - started);
    assert.deepEqual({ status: health.status, text: await health.text() }, { status: 200, text: 'ok\n' });
    assert.deepEqual(await Promise.all(bombs), Array(2).fill({ status: 403, body: COST_REFUSAL }));
  }
  t.diagnostic(`/healthz latency per round (ms): ${latencies.map((ms) => ms.toFixed(1)).join(', ')}`);
  const sorted = [...latencies].sort((a, b) => a - b);
  assert.ok(sorted[Math.floor(sorted.length / 2)]! < 100, `median /healthz ${sorted[Math.floor(sorted.length / 2)]!.toFixed(1)} ms`);
  assert.ok(sorted.at(-1)! < 1000, `slowest /healthz ${sorted.at(-1)!.toFixed(1)} ms`);
});

test('duplicate floods and search storms over HTTP get their exact refusals, and the server keeps serving', async () => {
  const started = performance.now();
  const [flood, tooLong, storm] = await Promise.all([post(duplicateFlood(9990)), post(duplicateFlood(20_000)), post(aliasedSearches(200))]);
  assert.ok(performance.now() - started < 2000, `${performance.now() - started} ms`);
  assert.deepEqual(flood, { status: 403, body: COST_REFUSAL });
  assert.deepEqual(tooLong, { status: 403, body: '{"errors":[{"message":"query exceeds maximum query cost: more than 10000 tokens; split it into smaller queries"}]}' });
  assert.deepEqual(storm, { status: 403, body: '{"errors":[{"message":"query exceeds maximum query cost: it starts 200 searches, at most 5 per request (site setting rateLimits.graphQLMaxSearches); send them in separate requests"}]}' });
  assert.deepEqual(await post('{ currentUser { username } }'), { status: 200, body: '{"data":{"currentUser":{"username":"admin"}}}' });
});
