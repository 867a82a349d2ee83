/**
 * go_to_definition and find_references latency through the tools in-process: indexes one corpus
 * (QUARRY_NAV_CORPUS, a git repository; default this checkout's HEAD; a name with `linux`, or
 * QUARRY_NAV_LOOKUPS=linux, picks the kernel lookups), times each lookup's first call (cold), then
 * the lookups that answered, warm. Goal on Linux: p50 < 20 ms, p99 < 100 ms. Linux runs are recorded.
 * QUARRY_NAV_DATA names a data directory that is kept, so a second run reuses its index.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { runTool } from '../src/api/mcp/run-tool.js';
import type { ToolContext, ToolDefinition } from '../src/api/mcp/tool.js';
import { findReferencesTool } from '../src/api/mcp/tools/find-references.js';
import { goToDefinitionTool } from '../src/api/mcp/tools/go-to-definition.js';
import { ANONYMOUS } from '../src/auth/principal.js';
import { loadConfig } from '../src/config.js';
import { createServices } from '../src/services.js';
import { addRepository } from '../src/repos/registry.js';
import { mcpServices } from '../src/server/mcp.js';
import { getRepo } from '../src/store/repos.js';
import { makeTempDir, removeDir } from '../test/git/fixtures.js';
import { LINUX_LOOKUPS, QUARRY_LOOKUPS, type Lookup } from './navigation-lookups.js';
import { REPO_ROOT } from './paths.js';
import { machineInfo, runDir, versions } from './record.js';

const REPO = 'bench/corpus';
const ROUNDS = Number(process.env['QUARRY_NAV_ROUNDS'] ?? 20);

interface FirstCall {
  readonly lookup: Lookup;
  readonly ms: number;
  readonly ok: boolean;
  /** Where the answer points (or the error), for checking answers by eye. */
  readonly summary: string;
}

interface ToolRun {
  readonly tool: string;
  readonly firstCalls: readonly FirstCall[];
  readonly coldP50: number;
  readonly coldMax: number;
  readonly warmCalls: number;
  readonly p50: number;
  readonly p99: number;
  readonly pass: boolean;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function sortedCopy(values: readonly number[]): number[] {
  return [...values].sort((a, b) => a - b);
}

/** go_to_definition: the header and first line shown; find_references: its "N references to …" note. */
function summarize(tool: string, text: string): string {
  const lines = text.split('\n');
  if (tool === findReferencesTool.name) return lines.find((l) => /^[\d,]+ references? to /.test(l) || l.startsWith('No references')) ?? lines[0]!;
  return `${lines[0]!.replace(/^# /, '')} |${(lines[1] ?? '').trim().slice(0, 80)}`;
}

async function measure(tool: ToolDefinition, lookups: readonly Lookup[], ctx: ToolContext): Promise<ToolRun> {
  const firstCalls: FirstCall[] = [];
  for (const lookup of lookups) {
    const t0 = performance.now();
    const answer = await runTool(tool, { repo: REPO, path: lookup.path, symbol: lookup.symbol }, ctx);
    const ms = performance.now() - t0;
    const call = { lookup, ms, ok: !answer.isError, summary: answer.isError ? answer.text.split('\n')[0]! : summarize(tool.name, answer.text) };
    console.error(`${tool.name} ${lookup.path} ${lookup.symbol}: first call ${ms.toFixed(1)} ms: ${call.summary}`);
    firstCalls.push(call);
  }
  const answering = firstCalls.filter((c) => c.ok).map((c) => c.lookup);
  const samples: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const { path, symbol } of answering) {
      const t0 = performance.now();
      await runTool(tool, { repo: REPO, path, symbol }, ctx);
      samples.push(performance.now() - t0);
    }
  }
  const warm = sortedCopy(samples);
  const cold = sortedCopy(firstCalls.map((c) => c.ms));
  const p50 = warm.length === 0 ? NaN : percentile(warm, 50);
  const p99 = warm.length === 0 ? NaN : percentile(warm, 99);
  return {
    tool: tool.name, firstCalls, coldP50: percentile(cold, 50), coldMax: cold[cold.length - 1]!,
    warmCalls: warm.length, p50, p99, pass: p50 < 20 && p99 < 100 && answering.length === lookups.length,
  };
}

function report(corpus: string, indexSeconds: number | null, runs: readonly ToolRun[], lookups: number): string {
  const out = [`# Navigation latency (${new Date().toISOString()})`, '',
    `Corpus ${corpus}, ${indexSeconds === null ? 'index reused from QUARRY_NAV_DATA' : `indexed with symbols in ${indexSeconds.toFixed(1)} s (2 index threads)`}. ${lookups} lookups; tools called in-process.`,
    `Cold: each lookup's first call, go_to_definition's pass first (find_references' first calls then find some caches warm). The very first call after indexing: ${runs[0]!.firstCalls[0]!.ms.toFixed(1)} ms.`,
    `Warm: ${ROUNDS} rounds over the lookups that answered.`, '',
    '| tool | answered | cold p50 ms | cold max ms | warm calls | warm p50 ms | warm p99 ms | goal p50 < 20, p99 < 100 |', '|---|---:|---:|---:|---:|---:|---:|---|'];
  for (const r of runs) {
    const answered = r.firstCalls.filter((c) => c.ok).length;
    out.push(`| ${r.tool} | ${answered}/${r.firstCalls.length} | ${r.coldP50.toFixed(1)} | ${r.coldMax.toFixed(1)} | ${r.warmCalls} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.pass ? 'pass' : 'FAIL'} |`);
  }
  for (const r of runs) {
    out.push('', `## ${r.tool}: answers`, '', '| kind | file | symbol | first call ms | answer |', '|---|---|---|---:|---|');
    for (const c of r.firstCalls) out.push(`| ${c.lookup.kind} | ${c.lookup.path} | ${c.lookup.symbol} | ${c.ms.toFixed(1)} | ${c.ok ? '' : 'ERROR: '}${c.summary.replaceAll('|', '\\|')} |`);
  }
  return `${out.join('\n')}\n`;
}

async function main(): Promise<void> {
  const corpus = process.env['QUARRY_NAV_CORPUS'] ?? REPO_ROOT;
  const linux = process.env['QUARRY_NAV_LOOKUPS'] === 'linux' || /linux/i.test(basename(corpus));
  const lookups = linux ? LINUX_LOOKUPS : QUARRY_LOOKUPS;
  const keptDir = process.env['QUARRY_NAV_DATA'];
  const dataDir = keptDir ?? makeTempDir('quarry-nav-bench');
  const engine = createServices(loadConfig({ dataDir, threads: 2 }));
  try {
    const reused = getRepo(engine.store, REPO) !== undefined;
    if (!reused) await addRepository({ dataDir, store: engine.store }, REPO, corpus);
    const started = performance.now();
    await engine.index(getRepo(engine.store, REPO)!);
    const indexSeconds = (performance.now() - started) / 1000;
    console.log(`indexed ${corpus} in ${indexSeconds.toFixed(1)} s`);
    const services = mcpServices(engine);
    const ctx: ToolContext = { principal: { ...ANONYMOUS, canRead: () => true }, signal: new AbortController().signal, origin: 'http://bench', maxAnswerTokens: 8000, services };
    const tools = [goToDefinitionTool, findReferencesTool] as unknown as readonly ToolDefinition[];
    const runs: ToolRun[] = [];
    for (const tool of tools) runs.push(await measure(tool, lookups, ctx));
    const summary = report(corpus, reused ? null : indexSeconds, runs, lookups.length);
    console.log(summary);
    if (linux) {
      const dir = runDir(await machineInfo(), false);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'navigation.md'), summary);
      writeFileSync(join(dir, 'navigation.json'), `${JSON.stringify({ corpus, indexSeconds, rounds: ROUNDS, versions: await versions(), runs }, null, 2)}\n`);
      console.log(`recorded in ${dir}`);
    }
  } finally {
    await engine.close();
    if (keptDir === undefined) removeDir(dataDir);
  }
}

await main();
