/**
 * Loopback load on the HTTP front end with wrk: GraphQL `currentUser` and a selective search at 64
 * connections, against the same search run in-process, after checking both answer the same.
 * Run: `node dist/bench/http-load.bench.js` (needs `wrk`; scripts/bench installs it).
 */
import { loadConfig } from '../src/config.js';
import { openEngine } from '../src/main.js';
import { startServerProcess } from '../test/e2e/server-process.js';
import { makeTempDir, removeDir } from '../test/git/fixtures.js';
import { REPO_ROOT } from './paths.js';
import { buildQuarryIndex, liftRateLimit } from './tools/quarry.js';
import { writeSideRun } from './record.js';
import { wrkPost, type WrkResult } from './wrk.js';

const CONNECTIONS = 64;
const SECONDS = Number(process.env['QUARRY_BENCH_HTTP_SECONDS'] ?? 30);
const SEARCH = 'repo:quarry type:file count:all createSegmentWriter';

function wrk(url: string, body: string, token: string): WrkResult {
  return wrkPost(url, body, { 'Content-Type': 'application/json', Authorization: `token ${token}` }, { connections: CONNECTIONS, seconds: SECONDS });
}

async function inProcessQps(dataDir: string, expected: number): Promise<number> {
  const engine = openEngine(loadConfig({ dataDir, threads: 2 }));
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
  const server = await startServerProcess(data);
  try {
    const token = server.adminToken!;
    const post = async (query: string): Promise<any> => (await fetch(`${server.url}/.api/graphql`, { method: 'POST', headers: { Authorization: `token ${token}` }, body: JSON.stringify({ query }) })).json();
    const me = await post('{ currentUser { username } }');
    if (me.data?.currentUser?.username !== 'admin') throw new Error(`currentUser answered ${JSON.stringify(me)}`);
    const searchQuery = `{ search(query: ${JSON.stringify(SEARCH)}, patternType: literal) { results { matchCount } } }`;
    const matchCount = (await post(searchQuery)).data.search.results.matchCount as number;
    if (!(matchCount > 0)) throw new Error('the benchmark search finds nothing');
    const graphqlUrl = `${server.url}/.api/graphql`;
    const currentUser = wrk(graphqlUrl, JSON.stringify({ query: '{ currentUser { username } }' }), token);
    const search = wrk(graphqlUrl, JSON.stringify({ query: searchQuery }), token);
    await server.stop();
    const local = await inProcessQps(data, matchCount);
    const rows = [
      `| GraphQL currentUser | ${currentUser.requestsPerSecond.toFixed(0)} | ${currentUser.p50Ms.toFixed(2)} | ${currentUser.p99Ms.toFixed(2)} | ${currentUser.errors} | goal ≥ 20000 req/s: ${currentUser.requestsPerSecond >= 20000 ? 'pass' : 'FAIL'} |`,
      `| GraphQL search (${matchCount} matches) | ${search.requestsPerSecond.toFixed(0)} | ${search.p50Ms.toFixed(2)} | ${search.p99Ms.toFixed(2)} | ${search.errors} | in-process ${local.toFixed(0)} searches/s; ratio ${(search.requestsPerSecond / local).toFixed(2)} (goal ≥ 0.8: ${search.requestsPerSecond >= 0.8 * local ? 'pass' : 'FAIL'}) |`,
    ];
    const summary = [
      `# HTTP load: wrk -t2 -c${CONNECTIONS} -d${SECONDS}s on loopback, load generator on the same 2 cores`,
      '',
      `Search: \`${SEARCH}\` over this repository, as GraphQL \`search { results { matchCount } }\`.`,
      '',
      '| request | req/s | p50 (ms) | p99 (ms) | errors | notes |',
      '| --- | ---: | ---: | ---: | ---: | --- |',
      ...rows,
      '',
    ].join('\n');
    process.stdout.write(summary);
    await writeSideRun('http', summary, { currentUser, search, inProcessSearchesPerSecond: local, connections: CONNECTIONS, seconds: SECONDS });
  } finally {
    if (server.child.exitCode === null) await server.stop();
    removeDir(data);
  }
}

await main();
