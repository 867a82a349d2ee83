/**
 * go_to_definition and find_references latency, warm, through the tools in-process: indexes one
 * corpus (QUARRY_NAV_CORPUS, a git repository; default this checkout's HEAD; a name with `linux`, or
 * QUARRY_NAV_LOOKUPS=linux, picks the kernel lookups), checks every lookup answers, then times a
 * fixed list of lookups. Goal on Linux: p50 < 20 ms, p99 < 100 ms.
 */
import { basename } from 'node:path';
import { performance } from 'node:perf_hooks';
import { runTool } from '../src/api/mcp/run-tool.js';
import type { ToolContext, ToolDefinition } from '../src/api/mcp/tool.js';
import { findReferencesTool } from '../src/api/mcp/tools/find-references.js';
import { goToDefinitionTool } from '../src/api/mcp/tools/go-to-definition.js';
import { ANONYMOUS } from '../src/auth/principal.js';
import { loadConfig } from '../src/config.js';
import { openEngine } from '../src/main.js';
import { addRepository } from '../src/repos/registry.js';
import { createMcpServices } from '../src/server/mcp-services.js';
import { getRepo } from '../src/store/repos.js';
import { makeTempDir, removeDir } from '../test/git/fixtures.js';
import { REPO_ROOT } from './paths.js';

const REPO = 'bench/corpus';
const ROUNDS = Number(process.env['QUARRY_NAV_ROUNDS'] ?? 20);

const QUARRY_LOOKUPS: readonly [string, string][] = [
  ['src/api/mcp/tools/read-file.ts', 'resolveRepoAtCommit'],
  ['src/api/mcp/tools/read-file.ts', 'AnswerBuilder'],
  ['src/api/mcp/tools/keyword-search.ts', 'renderSearchAnswer'],
  ['src/api/mcp/run-tool.ts', 'checkArguments'],
  ['src/server/mcp-services.ts', 'createRepoBrowser'],
  ['src/main.ts', 'openEngine'],
  ['src/errors.ts', 'createError'],
  ['src/api/mcp/format.ts', 'fileHeader'],
];

const LINUX_LOOKUPS: readonly [string, string][] = [
  ['kernel/fork.c', 'copy_process'],
  ['kernel/fork.c', 'mutex_lock'],
  ['kernel/exit.c', 'do_exit'],
  ['kernel/sched/core.c', 'wake_up_process'],
  ['mm/memory.c', 'handle_mm_fault'],
  ['mm/slub.c', 'kmem_cache_alloc'],
  ['mm/page_alloc.c', 'free_pages'],
  ['kernel/workqueue.c', 'queue_work_on'],
];

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function main(): Promise<void> {
  const corpus = process.env['QUARRY_NAV_CORPUS'] ?? REPO_ROOT;
  const linux = process.env['QUARRY_NAV_LOOKUPS'] === 'linux' || /linux/i.test(basename(corpus));
  const lookups = linux ? LINUX_LOOKUPS : QUARRY_LOOKUPS;
  const dataDir = makeTempDir('quarry-nav-bench');
  const engine = openEngine(loadConfig({ dataDir, threads: 2 }));
  try {
    await addRepository({ dataDir, store: engine.store }, REPO, corpus);
    const started = performance.now();
    await engine.index(getRepo(engine.store, REPO)!);
    console.log(`indexed ${corpus} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const services = createMcpServices({ dataDir, store: engine.store, catalog: engine.catalog, search: engine.search, pool: engine.pool });
    const ctx: ToolContext = { principal: ANONYMOUS, canRead: () => true, signal: new AbortController().signal, origin: 'http://bench', maxAnswerTokens: 8000, services };
    const tools: readonly ToolDefinition[] = [goToDefinitionTool, findReferencesTool] as unknown as readonly ToolDefinition[];
    const rows: string[] = [];
    for (const tool of tools) {
      for (const [path, symbol] of lookups) {
        const answer = await runTool(tool, { repo: REPO, path, symbol }, ctx);
        if (answer.isError) throw new Error(`${tool.name} ${path} ${symbol}: ${answer.text}`);
      }
      const samples: number[] = [];
      const perLookup = lookups.map((): number[] => []);
      for (let round = 0; round < ROUNDS; round++) {
        for (const [i, [path, symbol]] of lookups.entries()) {
          const t0 = performance.now();
          await runTool(tool, { repo: REPO, path, symbol }, ctx);
          samples.push(performance.now() - t0);
          perLookup[i]!.push(performance.now() - t0);
        }
      }
      const slowest = lookups.map(([, symbol], i) => `${symbol} ${percentile(perLookup[i]!.sort((a, b) => a - b), 50).toFixed(1)}`).join(', ');
      console.log(`${tool.name} median ms per lookup: ${slowest}`);
      samples.sort((a, b) => a - b);
      const p50 = percentile(samples, 50);
      const p99 = percentile(samples, 99);
      rows.push(`| ${tool.name} | ${samples.length} | ${p50.toFixed(2)} | ${p99.toFixed(2)} | ${p50 < 20 && p99 < 100 ? 'pass' : 'FAIL'} |`);
    }
    console.log(`\n${lookups.length} lookups x ${ROUNDS} rounds, warm, in-process (answers checked first)\n`);
    console.log('| tool | calls | p50 ms | p99 ms | goal p50 < 20, p99 < 100 |\n|---|---|---|---|---|');
    for (const row of rows) console.log(row);
    await services.close();
  } finally {
    await engine.close();
    removeDir(dataDir);
  }
}

await main();
