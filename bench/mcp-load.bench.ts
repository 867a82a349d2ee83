/**
 * Many agents at once: loopback `tools/call` load (read_file, keyword_search) at 64 connections
 * with wrk against a real `quarry serve`, and the MCP overhead per call: the round trip over HTTP
 * at one connection against the same tool run in-process. Answers must agree before timing.
 * Run: `node dist/bench/mcp-load.bench.js` (needs `wrk`; scripts/bench installs it).
 */
import { toolsFor } from '../src/api/mcp/registry.js';
import { runTool } from '../src/api/mcp/run-tool.js';
import type { ToolContext } from '../src/api/mcp/tool.js';
import { getUserByName } from '../src/store/users.js';
import { ANONYMOUS } from '../src/auth/principal.js';
import { loadConfig } from '../src/config.js';
import { createServices } from '../src/services.js';
import { mcpServices } from '../src/server/mcp.js';
import { startServerProcess } from '../test/e2e/server-process.js';
import { makeTempDir, removeDir } from '../test/git/fixtures.js';
import { REPO_ROOT } from './paths.js';
import { buildQuarryIndex, liftRateLimit } from './tools/quarry.js';
import { writeSideRun } from './record.js';
import { measure, type Timing } from './timing.js';
import { wrkPost, type WrkResult } from './wrk.js';

const CONNECTIONS = 64;
const SECONDS = Number(process.env['QUARRY_BENCH_HTTP_SECONDS'] ?? 30);
const REPO = 'github.com/quarry/quarry';
const CALLS = {
  read_file: { repo: REPO, path: 'src/main.ts' },
  keyword_search: { query: `repo:^${REPO.replace(/\./g, '\\.')}$ createSegmentWriter` },
} as const;
type CallName = keyof typeof CALLS;

const rpc = (name: CallName): string => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: CALLS[name] } });

async function callOverHttp(url: string, token: string, name: CallName): Promise<string> {
  const response = await fetch(url, { method: 'POST', headers: headersFor(token), body: rpc(name) });
  const body = await response.json() as { result?: { content: { text: string }[]; isError?: boolean } };
  if (response.status !== 200 || body.result === undefined || body.result.isError) throw new Error(`${name} over HTTP answered ${response.status} ${JSON.stringify(body).slice(0, 300)}`);
  return body.result.content[0]!.text;
}

function headersFor(token: string): Record<string, string> {
  return { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Authorization: `token ${token}` };
}

async function inProcess(dataDir: string, origin: string, expected: Record<CallName, string>): Promise<Record<CallName, Timing>> {
  const engine = createServices(loadConfig({ dataDir, threads: 2 }));
  try {
    const admin = getUserByName(engine.store, 'admin')!;
    const principal = { ...ANONYMOUS, userId: admin.id, username: admin.username, scopes: ['user:all'], permissions: ['MCP#ACCESS'], canRead: () => true };
    const services = mcpServices(engine);
    const context: Omit<ToolContext, 'signal'> = { principal, origin, maxAnswerTokens: 8000, services };
    const tools = new Map(toolsFor('core', { disableDeepsearchTool: false }).map((t) => [t.name, t]));
    const signal = new AbortController().signal;
    const out = {} as Record<CallName, Timing>;
    for (const name of Object.keys(CALLS) as CallName[]) {
      const tool = tools.get(name)!;
      const direct = async (): Promise<string> => (await runTool(tool, CALLS[name], { ...context, signal })).text;
      if ((await direct()) !== expected[name]) throw new Error(`${name} in-process disagrees with the server's answer`);
      out[name] = await measure(`${name} in-process`, direct, { expectedMs: 1, warmupIterations: 200, async: true });
    }
    return out;
  } finally {
    await engine.close();
  }
}

async function main(): Promise<void> {
  const data = makeTempDir('quarry-mcp-bench');
  await buildQuarryIndex(REPO, REPO_ROOT, data);
  await liftRateLimit(data);
  const server = await startServerProcess(data);
  try {
    const token = server.adminToken!;
    const url = `${server.url}/.api/mcp`;
    const expected = { read_file: await callOverHttp(url, token, 'read_file'), keyword_search: await callOverHttp(url, token, 'keyword_search') };
    if (!expected.keyword_search.includes('createSegmentWriter')) throw new Error('the benchmark keyword_search finds nothing');
    const load = {} as Record<CallName, { many: WrkResult; one: WrkResult }>;
    for (const name of Object.keys(CALLS) as CallName[]) {
      load[name] = {
        many: wrkPost(url, rpc(name), headersFor(token), { connections: CONNECTIONS, seconds: SECONDS }),
        one: wrkPost(url, rpc(name), headersFor(token), { connections: 1, seconds: Math.max(5, Math.round(SECONDS / 3)) }),
      };
    }
    await server.stop();
    const local = await inProcess(data, server.url, expected);
    const rows = (Object.keys(CALLS) as CallName[]).map((name) => {
      const { many, one } = load[name];
      const direct = local[name];
      // What an agent pays on top of the tool itself: the whole HTTP + MCP round trip at one connection.
      const overheadMs = one.p50Ms - direct.medianMs;
      const goal = name === 'read_file' ? ` (goal ≥ 2000: ${many.requestsPerSecond >= 2000 ? 'pass' : 'FAIL'})` : '';
      return `| ${name} | ${many.requestsPerSecond.toFixed(0)}${goal} | ${many.p50Ms.toFixed(2)} | ${many.p99Ms.toFixed(2)} | ${many.errors} | ${(direct.medianMs * 1000).toFixed(0)} | ${one.p50Ms.toFixed(2)} | ${overheadMs.toFixed(2)} (goal < 1: ${overheadMs < 1 ? 'pass' : 'FAIL'}) |`;
    });
    const summary = [
      `# MCP load: tools/call with wrk -c${CONNECTIONS} -d${SECONDS}s on loopback, load generator on the same 2 cores`,
      '',
      `Calls: ${(Object.keys(CALLS) as CallName[]).map((n) => `\`${n}\` ${JSON.stringify(CALLS[n])}`).join('; ')}. Answers over HTTP and from the tool in-process were checked equal first.`,
      '',
      '| tool | calls/s at 64 | p50 ms | p99 ms | errors | tool in-process median µs | over HTTP at 1 connection, p50 ms | MCP + HTTP overhead per call, ms |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
      ...rows,
      '',
    ].join('\n');
    process.stdout.write(summary);
    await writeSideRun('mcp', summary, { load, inProcess: local, connections: CONNECTIONS, seconds: SECONDS }, (key, value) => (key === 'samplesMs' ? undefined : value));
  } finally {
    if (server.child.exitCode === null) await server.stop();
    removeDir(data);
  }
}

await main();
