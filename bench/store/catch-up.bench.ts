/**
 * What the per-request catch-up with PostgreSQL's change log costs (issue 21: a revocation holds
 * on the next request). Two server processes on one private PostgreSQL, the same build, one with
 * the catch-up (A, the default) and one without (B); the same authenticated GraphQL request
 * alternates between them, one at a time, then with 8 in flight each. Answers are checked equal
 * before timing. Run: node dist/bench/store/catch-up.bench.js [requests]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { makeTempDir, removeDir } from '../../test/git/fixtures.js';
import { startPostgres } from '../../test/store/postgres-server.js';

const SERVER = fileURLToPath(new URL('./catch-up-server.js', import.meta.url));
const REQUESTS = Number(process.argv[2] ?? 3000);
const CONCURRENCY = 8;

interface Served { readonly url: string; readonly token: string | null; readonly child: ChildProcess }

/** `first`: the first server on the empty database, which prints the admin's token after its URL. */
function serve(databaseUrl: string, dataDir: string, catchUp: 'on' | 'off', first: boolean): Promise<Served> {
  const child = spawn(process.execPath, [SERVER, databaseUrl, dataDir, catchUp], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const url = /listening on (\S+)/.exec(output)?.[1];
      const token = /\n\s+(sgp_\S+)/.exec(output)?.[1] ?? null;
      if (url !== undefined && (token !== null || !first)) resolve({ url, token, child });
    });
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}: ${output}`)));
  });
}

async function ask(url: string, token: string): Promise<string> {
  const response = await fetch(`${url}/.api/graphql`, {
    method: 'POST', headers: { Authorization: `token ${token}`, 'Content-Type': 'application/json' }, body: '{"query":"{ currentUser { username } }"}',
  });
  const body = await response.text();
  if (response.status !== 200) throw new Error(`${url}: ${response.status} ${body}`);
  return body;
}

const percentile = (sorted: readonly number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function main(): Promise<void> {
  const postgres = await startPostgres();
  const dirs = [makeTempDir('quarry-bench-a'), makeTempDir('quarry-bench-b')];
  const servers: Served[] = [];
  try {
    const databaseUrl = postgres.createDatabase();
    const a = await serve(databaseUrl, dirs[0]!, 'on', true);
    servers.push(a);
    const b = await serve(databaseUrl, dirs[1]!, 'off', false);
    servers.push(b);
    const token = a.token!;
    const [answerA, answerB] = [await ask(a.url, token), await ask(b.url, token)];
    if (answerA !== answerB) throw new Error(`answers differ: ${answerA} / ${answerB}`);
    for (let i = 0; i < 200; i++) await Promise.all([ask(a.url, token), ask(b.url, token)]);

    const sequential: Record<'A' | 'B', number[]> = { A: [], B: [] };
    for (let i = 0; i < REQUESTS; i++) {
      // Alternating, and which goes first alternating too: drift on the machine hits both alike.
      const order: ['A' | 'B', Served][] = i % 2 === 0 ? [['A', a], ['B', b]] : [['B', b], ['A', a]];
      for (const [name, server] of order) {
        const started = performance.now();
        await ask(server.url, token);
        sequential[name].push(performance.now() - started);
      }
    }
    const throughput: Record<'A' | 'B', number[]> = { A: [], B: [] };
    for (let round = 0; round < 6; round++) {
      for (const [name, server] of (round % 2 === 0 ? [['A', a], ['B', b]] : [['B', b], ['A', a]]) as ['A' | 'B', Served][]) {
        const started = performance.now();
        let done = 0;
        await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
          while (done < REQUESTS / 6) {
            done++;
            await ask(server.url, token);
          }
        }));
        throughput[name].push(done / ((performance.now() - started) / 1000));
      }
    }
    const load = loadavg().map((x) => x.toFixed(1)).join(' ');
    console.log(`load average ${load}; ${REQUESTS} requests per side one at a time, then ${CONCURRENCY} in flight`);
    console.log('| server | p50 ms | p90 ms | p99 ms | req/s at 8 in flight (median of 3) |');
    console.log('| --- | ---: | ---: | ---: | ---: |');
    const rows: Record<'A' | 'B', { p50: number; p99: number; rps: number }> = {} as never;
    for (const name of ['A', 'B'] as const) {
      const sorted = [...sequential[name]].sort((x, y) => x - y);
      const rps = [...throughput[name]].sort((x, y) => x - y)[1]!;
      rows[name] = { p50: percentile(sorted, 50), p99: percentile(sorted, 99), rps };
      console.log(`| ${name === 'A' ? 'A: catch-up per request' : 'B: no catch-up'} | ${percentile(sorted, 50).toFixed(3)} | ${percentile(sorted, 90).toFixed(3)} | ${percentile(sorted, 99).toFixed(3)} | ${rps.toFixed(0)} |`);
    }
    console.log(`added p50: ${(rows.A.p50 - rows.B.p50).toFixed(3)} ms (A/B ${(rows.A.p50 / rows.B.p50).toFixed(2)}); p99 A/B ${(rows.A.p99 / rows.B.p99).toFixed(2)}; throughput A/B ${(rows.A.rps / rows.B.rps).toFixed(2)}`);
  } finally {
    for (const server of servers) server.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 500));
    for (const dir of dirs) removeDir(dir);
    postgres.stop();
  }
}

await main();
