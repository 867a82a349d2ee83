/**
 * The front end's per-call transport to a search node: the same internal search sent with fetch
 * (undici) and with node:http over a keep-alive agent, interleaved in one run against one real
 * search node, answers checked equal first. Isolates what the HTTP client adds to each fan-out call.
 * Run: node dist/bench/cluster-transport.bench.js [rounds]   (needs PostgreSQL)
 */
import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import { loadavg } from 'node:os';
import { CLUSTER_SECRET, postgresMissing, startTestCluster, streamSearch, waitFor } from '../test/cluster/cluster-processes.js';
import { commitAll, initRepo, makeTempDir, removeDir, writeFiles } from '../test/git/fixtures.js';

const agent = new Agent({ keepAlive: true, maxSockets: 16 });

function viaHttp(url: string, body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent, headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), 'x-quarry-cluster-secret': CLUSTER_SECRET } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function viaFetch(url: string, body: string): Promise<string> {
  const response = await fetch(url, { method: 'POST', body, headers: { 'Content-Type': 'application/json', 'x-quarry-cluster-secret': CLUSTER_SECRET } });
  return response.text();
}

function p(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * q))]!;
}

async function main(): Promise<void> {
  const missing = postgresMissing();
  if (missing !== null) return console.error(`cluster-transport: skipped: ${missing}`);
  const rounds = Number(process.argv[2] ?? 300);
  const sources = makeTempDir('quarry-bench-transport');
  const dir = initRepo(`${sources}/r`);
  writeFiles(dir, { 'a.go': 'package a\n\nfunc transportmarker() int { return 1 }\n' });
  commitAll(dir, 'first');
  const cluster = await startTestCluster({ repos: { 'github.com/bench/r': dir }, searchNodes: 1, single: false, replication: 1 });
  try {
    await waitFor('indexed', () => streamSearch(cluster.frontend.url, cluster.adminToken, 'transportmarker'), (a) => a.matches.length === 1);
    const url = `${cluster.searchNodes[0]!.url}/.internal/cluster/search`;
    const body = (): string => JSON.stringify({ query: 'transportmarker', repos: ['github.com/bench/r'], deadline: Date.now() + 10_000 });
    const strip = (text: string): unknown => { const a = JSON.parse(text); delete a.response.stats; return a; };
    assert.deepEqual(strip(await viaHttp(url, body())), strip(await viaFetch(url, body())));
    const times = { fetch: [] as number[], http: [] as number[] };
    const load = loadavg();
    for (let i = 0; i < rounds; i++) {
      const order: ('fetch' | 'http')[] = i % 2 === 0 ? ['fetch', 'http'] : ['http', 'fetch'];
      for (const which of order) {
        const started = performance.now();
        await (which === 'fetch' ? viaFetch(url, body()) : viaHttp(url, body()));
        times[which].push(performance.now() - started);
      }
    }
    console.log(`load ${load.map((l) => l.toFixed(1)).join(' ')} → ${loadavg().map((l) => l.toFixed(1)).join(' ')}; ${rounds} rounds interleaved`);
    for (const [name, values] of Object.entries(times)) {
      const sorted = [...values].sort((a, b) => a - b);
      console.log(`${name}: p50 ${p(sorted, 0.5).toFixed(2)} ms, p90 ${p(sorted, 0.9).toFixed(2)} ms`);
    }
    const p50 = (v: number[]): number => p([...v].sort((a, b) => a - b), 0.5);
    console.log(`fetch − http at p50: ${(p50(times.fetch) - p50(times.http)).toFixed(2)} ms`);
  } finally {
    await cluster.stop();
    removeDir(sources);
  }
}

await main();
