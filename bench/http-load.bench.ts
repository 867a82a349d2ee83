/**
 * Loopback load on the HTTP front end with wrk at 64 connections: a bare uWebSockets.js server's
 * constant reply (the ceiling of this machine and generator, same run), `/healthz`, GraphQL
 * `currentUser` and a selective search against the same search run in-process, after checking they
 * answer the same; ratios to the bare server and the server's CPU per request.
 * Run: `node dist/bench/http-load.bench.js` (needs `wrk`; scripts/bench installs it).
 */
import { loadConfig } from '../src/config.js';
import { createServices } from '../src/services.js';
import { startServerProcess } from '../test/e2e/server-process.js';
import { startBareServer } from './load/bare-baseline.js';
import { markCpu } from './load/cpu.js';
import { makeTempDir, removeDir } from '../test/git/fixtures.js';
import { REPO_ROOT } from './paths.js';
import { buildQuarryIndex, liftRateLimit } from './tools/quarry.js';
import { writeSideRun } from './record.js';
import { wrkGet, wrkPost, type WrkResult } from './wrk.js';

const CONNECTIONS = 64;
const SECONDS = Number(process.env['QUARRY_BENCH_HTTP_SECONDS'] ?? 30);
const SEARCH = 'repo:quarry type:file count:all createSegmentWriter';

const LOAD = { connections: CONNECTIONS, seconds: SECONDS };

interface Measured extends WrkResult {
  /** The server process's CPU time (all its threads) per request answered, in µs. */
  readonly cpuMicrosPerRequest: number;
}

function measured(serverPid: number, run: () => WrkResult): Measured {
  const before = markCpu(serverPid).serverSeconds;
  const result = run();
  return { ...result, cpuMicrosPerRequest: ((markCpu(serverPid).serverSeconds - before) * 1e6) / result.requests };
}

function postJson(url: string, body: string, token: string): WrkResult {
  return wrkPost(url, body, { 'Content-Type': 'application/json', Authorization: `token ${token}` }, LOAD);
}

async function measureBare(): Promise<Measured> {
  const bare = await startBareServer();
  try {
    const check = await fetch(bare.url);
    if ((await check.text()) !== 'ok') throw new Error('the bare uWebSockets.js server does not answer ok');
    return measured(bare.pid, () => wrkGet(bare.url, {}, LOAD));
  } finally {
    await bare.stop();
  }
}

function row(name: string, r: Measured, bare: Measured, goal: string): string {
  const ratio = r.requestsPerSecond / bare.requestsPerSecond;
  return `| ${name} | ${r.requestsPerSecond.toFixed(0)} | ${ratio.toFixed(2)} | ${r.p50Ms.toFixed(2)} | ${r.p99Ms.toFixed(2)} | ${r.cpuMicrosPerRequest.toFixed(0)} | ${r.errors} | ${goal} |`;
}

async function inProcessQps(dataDir: string, expected: number): Promise<number> {
  const engine = createServices(loadConfig({ dataDir, threads: 2 }));
  try {
    const first = await engine.search.search({ query: SEARCH });
    if (first.matchCount !== expected) throw new Error(`in-process search found ${first.matchCount} matches, the server ${expected}`);
    const deadline = Date.now() + SECONDS * 1000;
    let done = 0;
    await Promise.all(Array.from({ length: CONNECTIONS }, async () => {
      while (Date.now() < deadline) {
        await engine.search.search({ query: SEARCH });
        done++;
      }
    }));
    return done / SECONDS;
  } finally {
    await engine.close();
  }
}

async function main(): Promise<void> {
  const data = makeTempDir('quarry-http-bench');
  await buildQuarryIndex('github.com/quarry/quarry', REPO_ROOT, data);
  await liftRateLimit(data);
  const bare = await measureBare();
  const server = await startServerProcess(data);
  try {
    const token = server.adminToken!;
    const pid = server.child.pid!;
    const post = async (query: string): Promise<any> => (await fetch(`${server.url}/.api/graphql`, { method: 'POST', headers: { Authorization: `token ${token}` }, body: JSON.stringify({ query }) })).json();
    const me = await post('{ currentUser { username } }');
    if (me.data?.currentUser?.username !== 'admin') throw new Error(`currentUser answered ${JSON.stringify(me)}`);
    const health = await fetch(`${server.url}/healthz`);
    if (health.status !== 200) throw new Error(`/healthz answered ${health.status}`);
    const searchQuery = `{ search(query: ${JSON.stringify(SEARCH)}, patternType: literal) { results { matchCount } } }`;
    const matchCount = (await post(searchQuery)).data.search.results.matchCount as number;
    if (!(matchCount > 0)) throw new Error('the benchmark search finds nothing');
    const graphqlUrl = `${server.url}/.api/graphql`;
    const healthz = measured(pid, () => wrkGet(`${server.url}/healthz`, {}, LOAD));
    const currentUser = measured(pid, () => postJson(graphqlUrl, JSON.stringify({ query: '{ currentUser { username } }' }), token));
    const search = measured(pid, () => postJson(graphqlUrl, JSON.stringify({ query: searchQuery }), token));
    await server.stop();
    const local = await inProcessQps(data, matchCount);
    const ratioGoal = (r: Measured, goal: number): string => `goal ≥ ${goal}x bare: ${r.requestsPerSecond >= goal * bare.requestsPerSecond ? 'pass' : 'FAIL'}`;
    const rows = [
      row('bare uWS constant reply (GET /)', bare, bare, 'the ceiling'),
      row('/healthz', healthz, bare, ratioGoal(healthz, 0.5)),
      row('GraphQL currentUser', currentUser, bare, ratioGoal(currentUser, 0.3)),
      row(`GraphQL search (${matchCount} matches)`, search, bare, `in-process ${local.toFixed(0)} searches/s; ratio ${(search.requestsPerSecond / local).toFixed(2)} (goal ≥ 0.8: ${search.requestsPerSecond >= 0.8 * local ? 'pass' : 'FAIL'})`),
    ];
    const summary = [
      `# HTTP load: wrk -t2 -c${CONNECTIONS} -d${SECONDS}s on loopback, load generator on the same 2 cores`,
      '',
      `Search: \`${SEARCH}\` over this repository, as GraphQL \`search { results { matchCount } }\`. ` +
        'CPU: the server process\'s user + system time over the run, per request answered.',
      '',
      '| request | req/s | × bare | p50 (ms) | p99 (ms) | CPU µs/req | errors | notes |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
      ...rows,
      '',
    ].join('\n');
    process.stdout.write(summary);
    await writeSideRun('http', summary, { bare, healthz, currentUser, search, inProcessSearchesPerSecond: local, connections: CONNECTIONS, seconds: SECONDS });
  } finally {
    if (server.child.exitCode === null) await server.stop();
    removeDir(data);
  }
}

await main();
