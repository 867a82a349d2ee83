/**
 * The fan-out's added latency: the same selective queries through a front end (two search nodes,
 * replication 2) and through one `--role all` server over the same repositories, A/B interleaved in
 * one run, plus the floor of one search node's internal search called directly. Real processes,
 * real repositories (the corpora beside the project). Answers are checked equal before timing.
 * Run: node dist/bench/cluster-fanout.bench.js [rounds]   (needs ../shared/corpora and PostgreSQL)
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { CLUSTER_SECRET, matchKeys, postgresMissing, startTestCluster, streamSearch, waitFor } from '../test/cluster/cluster-processes.js';
import { makeTempDir, removeDir } from '../test/git/fixtures.js';

const CORPORA = join(process.cwd(), '..', 'shared', 'corpora');
const BUNDLES: Record<string, string> = { 'github.com/gin-gonic/gin': 'gin.bundle', 'github.com/koajs/koa': 'koa.bundle', 'github.com/BurntSushi/ripgrep': 'ripgrep.bundle' };
const QUERIES = ['AbortWithStatusJSON count:all', 'ctx.throw count:all', 'patterntype:regexp fn\\s+search_path count:all'];

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))]!;
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

async function main(): Promise<void> {
  const missing = postgresMissing() ?? (existsSync(CORPORA) ? null : `no corpora at ${CORPORA}`);
  if (missing !== null) {
    console.error(`cluster-fanout: skipped: ${missing}`);
    return;
  }
  const rounds = Number(process.argv[2] ?? 150);
  const mirrors = makeTempDir('quarry-bench-cluster');
  const repos: Record<string, string> = {};
  for (const [name, bundle] of Object.entries(BUNDLES)) {
    const dir = join(mirrors, `${bundle}.git`);
    execFileSync('git', ['clone', '--quiet', '--mirror', join(CORPORA, bundle), dir]);
    repos[name] = dir;
  }
  const cluster = await startTestCluster({ repos, searchNodes: 2, single: true, replication: 2 });
  try {
    const token = cluster.adminToken;
    const everyRepo = 'file:^readme count:all';
    const complete = (a: Awaited<ReturnType<typeof streamSearch>>): boolean => a.done?.skipped.length === 0 && new Set(a.matches.map((m) => m.repository)).size === Object.keys(repos).length;
    console.error('cluster-fanout: waiting for every node to index');
    await waitFor('single', () => streamSearch(cluster.single!.url, token, everyRepo), complete, 1_800_000);
    await waitFor('front end', () => streamSearch(cluster.frontend.url, token, everyRepo), complete, 1_800_000);
    const node = cluster.searchNodes[0]!.url;
    const internal = (query: string) => fetch(`${node}/.internal/cluster/search`, {
      method: 'POST', headers: { 'Content-Type': 'application/json', 'x-quarry-cluster-secret': CLUSTER_SECRET },
      body: JSON.stringify({ query, repos: Object.keys(repos), deadline: Date.now() + 10_000 }),
    }).then(async (r) => { assert.equal(r.status, 200); return r.json(); });
    for (const query of QUERIES) {
      const single = await streamSearch(cluster.single!.url, token, query);
      const front = await streamSearch(cluster.frontend.url, token, query);
      assert.ok(single.matches.length > 0, `${query}: finds something`);
      assert.deepEqual(matchKeys(front), matchKeys(single), `${query}: the front end and the single server agree`);
      console.error(`cluster-fanout: ${query}: ${single.done.matchCount} matches in ${new Set(single.matches.map((m) => m.repository)).size} repositories; answers equal`);
    }
    const loadBefore = loadavg();
    const times = { single: [] as number[], front: [] as number[], node: [] as number[] };
    for (let i = 0; i < rounds; i++) {
      const query = QUERIES[i % QUERIES.length]!;
      // Alternating which goes first, so drift in the machine's load falls on both alike.
      const order = i % 2 === 0 ? ['single', 'front', 'node'] as const : ['front', 'single', 'node'] as const;
      for (const which of order) {
        times[which].push(await timed(() => which === 'single' ? streamSearch(cluster.single!.url, token, query)
          : which === 'front' ? streamSearch(cluster.frontend.url, token, query) : internal(query)));
      }
    }
    const loadAfter = loadavg();
    const row = (label: string, values: number[]): string => {
      const sorted = [...values].sort((a, b) => a - b);
      return `| ${label} | ${values.length} | ${percentile(sorted, 0.5).toFixed(2)} | ${percentile(sorted, 0.9).toFixed(2)} | ${percentile(sorted, 0.99).toFixed(2)} |`;
    };
    const p50 = (values: number[]): number => percentile([...values].sort((a, b) => a - b), 0.5);
    console.log(`Load average before ${loadBefore.map((l) => l.toFixed(2)).join(' ')}, after ${loadAfter.map((l) => l.toFixed(2)).join(' ')}; ${rounds} rounds over ${QUERIES.length} queries, interleaved.`);
    console.log('| path | n | p50 ms | p90 ms | p99 ms |');
    console.log('| --- | ---: | ---: | ---: | ---: |');
    console.log(row('single node, stream API', times.single));
    console.log(row('front end → 2 search nodes, stream API', times.front));
    console.log(row('one search node, internal search (floor)', times.node));
    console.log(`Fan-out added at p50: ${(p50(times.front) - p50(times.single)).toFixed(2)} ms (front / single ${(p50(times.front) / p50(times.single)).toFixed(2)}x).`);
  } finally {
    await cluster.stop();
    removeDir(mirrors);
  }
}

await main();
