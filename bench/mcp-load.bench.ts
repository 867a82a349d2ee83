/**
 * Many agents at once: loopback `tools/call` load (read_file, keyword_search) at 64 connections
 * with wrk against a real `quarry serve`, and the MCP overhead per call: the same call in-process
 * through the SDK server and transport (no HTTP) and over HTTP at one connection, against the tool
 * run directly. Answers must agree before anything is timed.
 * Run: `node dist/bench/mcp-load.bench.js` (needs `wrk`; scripts/bench installs it).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bridgeMcpRequest } from '../src/api/mcp/bridge.js';
import { createMcpServer, endpointTools, ServerPool } from '../src/api/mcp/mcp-server.js';
import { toolsFor } from '../src/api/mcp/registry.js';
import { runTool } from '../src/api/mcp/run-tool.js';
import type { ToolContext } from '../src/api/mcp/tool.js';
import { getUserByName } from '../src/store/users.js';
import { ANONYMOUS } from '../src/auth/principal.js';
import { loadConfig } from '../src/config.js';
import type { HttpRequest } from '../src/http/request.js';
import type { Reply } from '../src/http/respond.js';
import { openEngine } from '../src/main.js';
import { createMcpServices } from '../src/server/mcp-services.js';
import { startServerProcess } from '../test/e2e/server-process.js';
import { makeTempDir, removeDir } from '../test/git/fixtures.js';
import { REPO_ROOT } from './paths.js';
import { machineInfo, runDir } from './record.js';
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

/** A Reply that keeps what the bridge sends, for the in-process SDK path. */
function capturingReply(): Reply & { body: Uint8Array | string } {
  const reply = {
    finished: false,
    body: '' as Uint8Array | string,
    send(_status: number, body: string | Uint8Array) {
      reply.body = body;
      reply.finished = true;
    },
    text() {},
    json() {},
    stream(): never {
      throw new Error('the benchmark sends no progress token, so answers are JSON');
    },
  };
  return reply;
}

interface InProcess {
  readonly direct: Timing;
  readonly viaSdk: Timing;
}

async function inProcess(dataDir: string, origin: string, expected: Record<CallName, string>): Promise<Record<CallName, InProcess>> {
  const engine = openEngine(loadConfig({ dataDir, threads: 2 }));
  try {
    const admin = getUserByName(engine.store, 'admin')!;
    const principal = { ...ANONYMOUS, userId: admin.id, username: admin.username, scopes: ['user:all'], permissions: ['MCP#ACCESS'] };
    const services = createMcpServices({ dataDir, store: engine.store, catalog: engine.catalog, search: engine.search });
    const context: Omit<ToolContext, 'signal'> = { principal, canRead: () => true, origin, maxAnswerTokens: 8000, services };
    const tools = endpointTools('core', toolsFor('core', { disableDeepsearchTool: false }));
    const servers = new ServerPool(() => createMcpServer(tools, { version: 'bench', log: () => {}, disabledTools: new Set() }));
    const signal = new AbortController().signal;
    const out = {} as Record<CallName, InProcess>;
    for (const name of Object.keys(CALLS) as CallName[]) {
      const tool = tools.byName.get(name)!;
      const direct = async (): Promise<string> => (await runTool(tool, CALLS[name], { ...context, signal })).text;
      const viaSdk = async (): Promise<string> => {
        const request: HttpRequest = { method: 'POST', path: '/.api/mcp', query: new URLSearchParams(), headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: Buffer.from(rpc(name)), signal, remoteAddress: '127.0.0.1' };
        const reply = capturingReply();
        await bridgeMcpRequest(request, reply, servers, context, {});
        return (JSON.parse(Buffer.from(reply.body).toString('utf8')) as { result: { content: { text: string }[] } }).result.content[0]!.text;
      };
      for (const [label, run] of [['direct', direct], ['through the SDK', viaSdk]] as const) {
        if ((await run()) !== expected[name]) throw new Error(`${name} ${label} in-process disagrees with the server's answer`);
      }
      out[name] = {
        direct: await measure(`${name} direct`, direct, { expectedMs: 1, warmupIterations: 200, async: true }),
        viaSdk: await measure(`${name} via SDK`, viaSdk, { expectedMs: 1, warmupIterations: 200, async: true }),
      };
    }
    return out;
  } finally {
    await engine.close();
  }
}

async function main(): Promise<void> {
  const data = makeTempDir('quarry-mcp-bench');
  const quarry = (...args: string[]) => spawnSync(process.execPath, [join(REPO_ROOT, 'bin', 'quarry.js'), ...args, '--data', data], { encoding: 'utf8' });
  quarry('repos', 'add', REPO, REPO_ROOT);
  quarry('index');
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
      const { direct, viaSdk } = local[name];
      const sdkOverheadMs = viaSdk.meanMs - direct.meanMs;
      const httpOverheadMs = one.p50Ms - direct.medianMs;
      const goal = name === 'read_file' ? ` (goal ≥ 2000: ${many.requestsPerSecond >= 2000 ? 'pass' : 'FAIL'})` : '';
      return `| ${name} | ${many.requestsPerSecond.toFixed(0)}${goal} | ${many.p50Ms.toFixed(2)} | ${many.p99Ms.toFixed(2)} | ${many.errors} | ${(direct.meanMs * 1000).toFixed(0)} | ${(viaSdk.meanMs * 1000).toFixed(0)} | ${(sdkOverheadMs * 1000).toFixed(0)} (goal < 1000: ${sdkOverheadMs < 1 ? 'pass' : 'FAIL'}) | ${one.p50Ms.toFixed(2)} | ${httpOverheadMs.toFixed(2)} |`;
    });
    const summary = [
      `# MCP load: tools/call with wrk -c${CONNECTIONS} -d${SECONDS}s on loopback, load generator on the same 2 cores`,
      '',
      `Calls: ${(Object.keys(CALLS) as CallName[]).map((n) => `\`${n}\` ${JSON.stringify(CALLS[n])}`).join('; ')}. Answers over HTTP, through the SDK in-process and from the tool directly were checked equal first.`,
      '',
      '| tool | calls/s at 64 | p50 ms | p99 ms | errors | tool in-process µs | through SDK, no HTTP µs | MCP overhead µs | HTTP p50 at 1 connection ms | HTTP + MCP overhead ms |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
      ...rows,
      '',
    ].join('\n');
    process.stdout.write(summary);
    const dir = runDir(await machineInfo(), false);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'mcp.md'), summary);
    writeFileSync(join(dir, 'mcp.json'), `${JSON.stringify({ load, inProcess: local, connections: CONNECTIONS, seconds: SECONDS }, (k, v) => (k === 'samplesMs' ? undefined : v), 2)}\n`);
  } finally {
    if (server.child.exitCode === null) await server.stop();
    removeDir(data);
  }
}

await main();
