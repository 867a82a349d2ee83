/**
 * The evaluator's costs through the API an agent calls: a real `quarry serve` on loopback over this
 * repository (indexed by the CLI), the MCP `evaluator` tool over HTTP. A trivial script's round trip
 * (warm pool), and one script making 100 keyword searches against the same 100 searches made
 * directly, each its own call of the MCP `keyword_search` tool and of the stream API. The script's
 * rows must equal the stream's matches, and keyword_search's answer must name files among them,
 * before anything is timed. Costs are the server process's CPU time (all its threads, read
 * from /proc) and the client's wall time. With QUARRY_AB_OTHER (another checkout, its dist built)
 * a second server runs that build on a copy of the data, and rounds alternate between the two.
 * Run: node dist/bench/evaluator.bench.js  (QUARRY_BENCH_ROUNDS, default 12)
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { loadavg } from 'node:os';
import { basename, join } from 'node:path';
import { startServerProcess, type ServerProcess } from '../test/e2e/server-process.js';
import { makeTempDir, removeDir } from '../test/git/fixtures.js';
import { QUARRY_BIN, REPO_ROOT } from './paths.js';
import { machineInfo, writeSideRun } from './record.js';
import { buildQuarryIndex, liftRateLimit } from './tools/quarry.js';

const REPO = 'github.com/quarry/quarry';
const ROUNDS = Number(process.env['QUARRY_BENCH_ROUNDS'] ?? 12);
const TRIVIAL_RUNS = Number(process.env['QUARRY_BENCH_TRIVIAL_RUNS'] ?? 300);
const WARMUP_RUNS = 30;
/** Identifiers of this repository's code: each search is selective, as an agent's usually is. */
const TERMS = [
  'createError', 'AnswerBuilder', 'resolveRepoName', 'parseNlsQuery', 'splitLines', 'checkedPath', 'chargeSignalTo', 'createSandboxPool',
  'FairQueue', 'readBlob', 'listTree', 'defaultCommit', 'isCallerFacing', 'numberLines', 'blobUrl', 'encodeCursor', 'decodeCursor',
  'languageOfPath', 'parseDate', 'compileDiffPattern', 'CommitFilterBuilder', 'findReferences', 'findDefinition', 'startNavigation',
  'getSiteConfig', 'effectiveSiteConfig', 'createEnginePool', 'serveTasks', 'acrossThreads', 'taskFailure', 'waitedPastDeadline',
  'createPiscinaPool', 'PreemptedError', 'ownerOf', 'barOwner', 'openCatalog', 'createDocLookup', 'createSearchService', 'rankFiles',
  'engineQuery', 'describeTerms', 'renderSearchAnswer', 'buildChunks', 'renderChunk', 'fileHeader', 'truncateLine', 'plural',
  'estimateTokens', 'checkArguments', 'objectSchema',
];
/** count:1000, past every match of these: all of them, so the script's rows and the stream's are the same set whatever order each ranks them in. */
const QUERIES = TERMS.flatMap((term) => [`${term} count:1000`, `${term} file:^src/ count:1000`]);
const QUERY_LIST = JSON.stringify(JSON.stringify(QUERIES));
/** Every matched line as "repo path line text": the script prints these, the stream's matches say the same. */
const ROWS_SCRIPT = `local out = {}
  for i, q in ipairs(json.decode(${QUERY_LIST})) do
    local rows = {}
    for _, h in ipairs(search.keyword(q)) do rows[#rows + 1] = h.repo .. "\\t" .. h.path .. "\\t" .. h.line .. "\\t" .. h.text end
    out[i] = rows
  end
  output.file("rows.json", json.encode(out))`;
const COUNTING_SCRIPT = `local n = 0 for _, q in ipairs(json.decode(${QUERY_LIST})) do n = n + #search.keyword(q) end return n`;
const READING_SCRIPT = `local n = 0 for _, q in ipairs(json.decode(${QUERY_LIST})) do
    for _, h in ipairs(search.keyword(q)) do n = n + #h.repo + #h.path + #(h.language or "") + h.line + h.column + #h.text end
  end return n`;

interface Answer {
  readonly status: number;
  readonly body: string;
}

function send(agent: Agent, url: string, init: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, method: init.method, headers: init.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

/** One server under test and the calls an agent makes to it, on one keep-alive connection. */
class Target {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 1 });
  private readonly token: string;

  constructor(readonly label: string, readonly server: ServerProcess) {
    if (server.adminToken === null) throw new Error(`${label}: the server printed no admin token (its data directory was not fresh)`);
    this.token = server.adminToken;
  }

  /** The tool's answer: its text, and the text of the files it attached by name. */
  async call(name: string, args: Record<string, unknown>): Promise<{ text: string; files: Map<string, string> }> {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });
    const answer = await send(this.agent, `${this.server.url}/.api/mcp`, {
      method: 'POST', body,
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Authorization: `token ${this.token}` },
    });
    type Content = { type: string; text?: string; resource?: { uri: string; text?: string; blob?: string } };
    const parsed = JSON.parse(answer.body) as { result?: { content: Content[]; isError?: boolean } };
    if (answer.status !== 200 || parsed.result === undefined || parsed.result.isError === true) throw new Error(`${this.label}: ${name} answered ${answer.status} ${answer.body.slice(0, 400)}`);
    const files = new Map<string, string>();
    for (const c of parsed.result.content) {
      if (c.type === 'resource' && c.resource !== undefined) files.set(c.resource.uri.slice(c.resource.uri.lastIndexOf('/') + 1), c.resource.text ?? Buffer.from(c.resource.blob ?? '', 'base64').toString('utf8'));
    }
    return { text: parsed.result.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n'), files };
  }

  async tool(name: string, args: Record<string, unknown>): Promise<string> {
    return (await this.call(name, args)).text;
  }

  /** The stream API's matched lines for `query`, as "repo path line text". */
  async stream(query: string): Promise<string[]> {
    const answer = await send(this.agent, `${this.server.url}/.api/search/stream?${new URLSearchParams({ q: query, v: 'V3' })}`, {
      method: 'GET', headers: { Accept: 'text/event-stream', Authorization: `token ${this.token}` },
    });
    if (answer.status !== 200 || answer.body.includes('event: error\n')) throw new Error(`${this.label}: the stream answered ${answer.status} ${answer.body.slice(0, 400)}`);
    const rows: string[] = [];
    for (const event of answer.body.split('\n\n')) {
      if (!event.startsWith('event: matches\n')) continue;
      const matches = JSON.parse(event.slice(event.indexOf('data: ') + 6)) as { type: string; repository: string; path: string; lineMatches?: { line: string; lineNumber: number }[] }[];
      for (const m of matches) if (m.type === 'content') for (const lm of m.lineMatches ?? []) rows.push(`${m.repository}\t${m.path}\t${lm.lineNumber + 1}\t${lm.line}`);
    }
    return rows;
  }

  /** The script's answer, which must end with its call counts and report neither an error nor a limit nor a cut list. */
  async script(script: string): Promise<{ text: string; files: Map<string, string> }> {
    const answer = await this.call('evaluator', { script });
    if (/^(Stopped|Error|Note): /m.test(answer.text) || !/\(\d+ search(es)?, \d+ source reads?\)$/.test(answer.text.trim())) throw new Error(`${this.label}: the script did not run cleanly: ${answer.text.slice(-600)}`);
    return answer;
  }

  /** The first line the script printed. */
  async scriptValue(script: string): Promise<string> {
    return (await this.script(script)).text.split('\n')[0]!;
  }

  close(): void {
    this.agent.destroy();
  }
}

/** CPU ticks (1/100 s) of the whole server process and of its main thread. */
function serverTicks(pid: number): { process: number; main: number } {
  const ticks = (path: string): number => {
    const stat = readFileSync(path, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  };
  return { process: ticks(`/proc/${pid}/stat`), main: ticks(`/proc/${pid}/task/${pid}/stat`) };
}

interface Cost {
  wallMs: number;
  /** Server CPU over all rounds, in ticks: summed, since one round is only a few ticks. */
  processTicks: number;
  mainTicks: number;
  samples: number[];
}

const MODES = ['script (counts rows)', 'script (reads every field)', 'keyword_search tool ×100', 'stream API ×100'] as const;
type Mode = typeof MODES[number];

async function measured(target: Target, cost: Cost, task: () => Promise<unknown>): Promise<void> {
  const pid = target.server.child.pid!;
  const before = serverTicks(pid);
  const started = performance.now();
  await task();
  const ms = performance.now() - started;
  const after = serverTicks(pid);
  cost.wallMs += ms;
  cost.samples.push(ms);
  cost.processTicks += after.process - before.process;
  cost.mainTicks += after.main - before.main;
}

function runMode(target: Target, mode: Mode): () => Promise<unknown> {
  switch (mode) {
    case 'script (counts rows)': return () => target.scriptValue(COUNTING_SCRIPT);
    case 'script (reads every field)': return () => target.scriptValue(READING_SCRIPT);
    case 'keyword_search tool ×100': return async () => {
      for (const q of QUERIES) await target.tool('keyword_search', { query: q });
    };
    case 'stream API ×100': return async () => {
      for (const q of QUERIES) await target.stream(q);
    };
  }
}

/** The other checkout's commit, or its folder when it is not a git checkout (an exported tree). */
function otherLabel(checkout: string): string {
  try {
    return execFileSync('git', ['-C', checkout, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return basename(checkout);
  }
}

const p50 = (samples: readonly number[]): number => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)]!;

/** The script's rows equal the stream's, and keyword_search names every file they do; returns the matched lines in all. */
async function checkAgreement(target: Target): Promise<number> {
  const fromScript = JSON.parse((await target.script(ROWS_SCRIPT)).files.get('rows.json') ?? 'null') as (string[] | Record<string, never>)[];
  const fromStream = await Promise.all(QUERIES.map((q) => target.stream(q)));
  // The same matched lines; the order of files is each API's own.
  assert.deepEqual(fromScript.map((rows) => (Array.isArray(rows) ? [...rows].sort() : [])), fromStream.map((rows) => [...rows].sort()), `${target.label}: the script's rows and the stream's matches disagree`);
  // keyword_search renders its answer within a token budget: the files it names must be among the rows.
  for (const [i, q] of QUERIES.entries()) {
    const answer = await target.tool('keyword_search', { query: q });
    const paths = new Set(fromStream[i]!.map((row) => row.split('\t')[1]!));
    if (paths.size > 0) assert.ok([...paths].some((p) => answer.includes(p)), `${target.label}: keyword_search for ${q} names none of the files the stream found`);
  }
  const lines = fromStream.reduce((n, rows) => n + rows.length, 0);
  assert.equal(Number(await target.scriptValue(COUNTING_SCRIPT)), lines, `${target.label}: the counting script disagrees`);
  return lines;
}

async function main(): Promise<void> {
  const other = process.env['QUARRY_AB_OTHER'];
  const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
  const data = makeTempDir('quarry-evaluator-bench');
  const targets: Target[] = [];
  try {
    await buildQuarryIndex(REPO, REPO_ROOT, data);
    await liftRateLimit(data);
    const builds: { label: string; bin: string; dataDir: string }[] = [{ label: `this (${commit.slice(0, 8)})`, bin: QUARRY_BIN, dataDir: data }];
    if (other !== undefined) {
      const otherData = `${data}-other`;
      cpSync(data, otherData, { recursive: true });
      builds.push({ label: `other (${otherLabel(other)})`, bin: join(other, 'bin', 'quarry.js'), dataDir: otherData });
    }
    for (const build of builds) targets.push(new Target(build.label, await startServerProcess(build.dataDir, [], process.env, build.bin)));

    let matchedLines = -1;
    for (const target of targets) {
      const lines = await checkAgreement(target);
      if (matchedLines !== -1) assert.equal(lines, matchedLines, 'the builds disagree');
      matchedLines = lines;
    }

    // A trivial script through the warm pool, builds alternating call by call.
    const trivial = new Map(targets.map((t) => [t, [] as number[]]));
    for (let i = 0; i < WARMUP_RUNS; i++) for (const t of targets) await t.scriptValue('return 1');
    for (let i = 0; i < TRIVIAL_RUNS; i++) {
      for (const t of i % 2 === 0 ? targets : [...targets].reverse()) {
        const started = performance.now();
        assert.equal(await t.scriptValue('return 1'), '1');
        trivial.get(t)!.push(performance.now() - started);
      }
    }

    // 100 searches four ways; modes and builds alternate, the order turning each round so neither always follows the other.
    const costs = new Map(targets.map((t) => [t, new Map(MODES.map((m) => [m, { wallMs: 0, processTicks: 0, mainTicks: 0, samples: [] } as Cost]))]));
    for (const t of targets) for (const mode of MODES) await runMode(t, mode)();
    for (let round = 0; round < ROUNDS; round++) {
      const order = MODES.flatMap((mode) => targets.map((t) => ({ t, mode })));
      if (round % 2 === 1) order.reverse();
      for (const { t, mode } of order) await measured(t, costs.get(t)!.get(mode)!, runMode(t, mode));
      process.stderr.write(`evaluator bench: round ${round + 1}/${ROUNDS}, load ${loadavg()[0]!.toFixed(1)}\n`);
    }

    const load = loadavg().map((l) => l.toFixed(2)).join(', ');
    const machine = await machineInfo();
    const ms = (ticks: number): number => (ticks * 10) / ROUNDS;
    const lines = [
      `# evaluator over MCP on loopback (${machine.kind}, ${new Date().toISOString()})`, '',
      `Corpus: this repository at ${commit.slice(0, 12)}, indexed by \`quarry index\`; a real \`quarry serve\` per build${targets.length > 1 ? ' (two at once, each on its own copy of the data; calls alternate between them)' : ''}. ${QUERIES.length} keyword queries (${TERMS.length} identifiers, each alone and with file:^src/), ${matchedLines} matched lines in all: the script's rows equal the stream API's matches for every query, and keyword_search's answer names files among them (checked before timing). Load average at the end: ${load}. ${ROUNDS} rounds.`, '',
      '| build | trivial script over MCP, p50 (goal < 5 ms) | p90 |', '|---|---:|---:|',
      ...targets.map((t) => {
        const samples = trivial.get(t)!;
        return `| ${t.label} | ${p50(samples).toFixed(2)} ms (${p50(samples) < 5 ? 'pass' : 'FAIL'}) | ${[...samples].sort((a, b) => a - b)[Math.floor(samples.length * 0.9)]!.toFixed(2)} ms |`;
      }),
      '',
      '| build | 100 keyword searches | server CPU per round | of which main thread | wall p50 | CPU vs keyword_search tool (goal ≤ 1.2x) | CPU vs stream API | wall vs tool |',
      '|---|---|---:|---:|---:|---:|---:|---:|',
    ];
    for (const t of targets) {
      const byMode = costs.get(t)!;
      const tool = byMode.get('keyword_search tool ×100')!;
      const stream = byMode.get('stream API ×100')!;
      for (const mode of MODES) {
        const c = byMode.get(mode)!;
        const cpuRatio = c.processTicks / tool.processTicks;
        const verdict = mode.startsWith('script') ? ` (${cpuRatio <= 1.2 ? 'pass' : 'FAIL'})` : '';
        lines.push(`| ${t.label} | ${mode} | ${ms(c.processTicks).toFixed(0)} ms | ${ms(c.mainTicks).toFixed(0)} ms | ${p50(c.samples).toFixed(0)} ms | ${cpuRatio.toFixed(2)}x${verdict} | ${(c.processTicks / stream.processTicks).toFixed(2)}x | ${(p50(c.samples) / p50(tool.samples)).toFixed(2)}x |`);
      }
    }
    lines.push('', 'CPU is the server process\'s (every thread), from /proc in 10 ms ticks summed over all rounds. The direct searches are what an agent would send instead of the script: one MCP keyword_search call each (its answer rendered), or one stream API request each. On a machine that other work keeps busy, wall time also counts the waits for a core.', '');
    const text = lines.join('\n');
    process.stdout.write(text);
    // An A/B run compares builds; only a run of this build alone is a record.
    if (other === undefined) await writeSideRun('evaluator', text, { commit, queries: QUERIES.length, matchedLines, loadAverage: loadavg(), trivial: [...trivial.values()], costs: [...costs.values()].map((m) => Object.fromEntries(m)) }, (key, value) => (key === 'samples' ? undefined : value));
  } finally {
    for (const t of targets) {
      t.close();
      await t.server.stop();
    }
    removeDir(data);
    if (other !== undefined) removeDir(`${data}-other`);
  }
}

await main();
