/**
 * Quarry against cindex/csearch and ripgrep on the Linux 6.1 source: index build, agreement of every
 * query's (path, line) rows, query latency, floors, selective queries through the stream API; prints
 * the summary and records the run.
 * Run through scripts/bench (QUARRY_BENCH_QUICK=1 for the small corpus). Exits non-zero on disagreement.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { agrees, diffSample } from './agreement.js';
import { corpusRoot, prepareCorpus, type Corpus } from './corpus.js';
import { runFloors } from './floors.bench.js';
import { indexGoals, queryGoals } from './goals.js';
import { buildIndexes, type IndexResults } from './index-build.js';
import { QUERIES } from './queries.js';
import { checkQuery, timeQuery, type QueryAgreement, type QueryContext, type QueryTimings } from './query-bench.js';
import { machineInfo, runDir, versions, writeRun, type MachineInfo, type Versions } from './record.js';
import { summaryMarkdown } from './report.js';
import { measureStreamApi, SELECTIVE_QUERY_IDS, streamApiTable } from './stream-api.js';
import { csearchIndexedPaths } from './tools/csearch.js';
import { openQuarry, QUARRY_THREADS } from './tools/quarry.js';

function disagreements(agreements: readonly QueryAgreement[]): string[] {
  const lines: string[] = [];
  for (const a of agreements) {
    for (const c of a.comparisons.filter((x) => !agrees(x))) {
      lines.push(`${a.query.id} (${a.quarryQuery}): Quarry and ${c.contender} disagree on ${c.onlyQuarry.length + c.onlyContender.length} rows ` +
        `(${c.onlyQuarry.length} only in Quarry, ${c.onlyContender.length} only in ${c.contender}); first differing rows:`, ...diffSample(c));
    }
    if (a.oneShotLines !== a.quarryFiles + 1) {
      lines.push(`${a.query.id}: \`quarry search --json\` printed ${a.oneShotLines} lines, expected ${a.quarryFiles} file matches plus a progress line`);
    }
  }
  return lines;
}

function context(corpus: Corpus, index: IndexResults, machine: MachineInfo, v: Versions): string[] {
  return [
    `Corpus: Linux 6.1 from Debian's linux-source-6.1 ${v.linuxSource}${corpus.quick ? ', quick subset (kernel/ and mm/ only)' : ''}; ` +
      `commit ${corpus.commit}, ${corpus.gitEntries} entries in git`,
    `Page cache: warm. The corpus (${(index.pageCacheWarmBytes / 2 ** 30).toFixed(2)} GiB, worktree and git objects) was read once before the index builds; it is not dropped.`,
    `Machine: ${machine.cpuModel}, nproc ${machine.nproc}, ${(machine.memTotalBytes / 2 ** 30).toFixed(0)} GiB, Linux ${machine.kernel}`,
    `Versions: node ${v.node}; ${v.rg}; codesearch ${v.codesearch}; ${v.git}; Hyperscan ${v.hyperscan}; tinybench ${v.tinybench}; ` +
      `Quarry ${v.quarryCommit}${v.quarryDirty ? ' with uncommitted changes in src/ or native/' : ''}`,
    `Quarry: ${QUARRY_THREADS} worker threads. Warm = one engine opened in the benchmark process; one-shot = a \`quarry search --json\` process per query. ` +
      'rg: -j2, a process per query. csearch: a process per query. Every process output is read through a pipe and counted.',
  ];
}

/** Agreement for every query, then (only when all agree) timings; null after reporting a disagreement. */
async function runQueries(corpus: Corpus, dataDir: string, cindexFile: string): Promise<{ agreements: QueryAgreement[]; timings: QueryTimings[] } | null> {
  const quarry = openQuarry(dataDir);
  try {
    const ctx: QueryContext = {
      corpus, dataDir, cindexFile, quarry,
      quarrySkipped: quarry.skippedPaths(corpus.repoName),
      csearchIndexed: csearchIndexedPaths(cindexFile, corpus.worktree),
    };
    const agreements: QueryAgreement[] = [];
    for (const q of QUERIES) {
      const a = await checkQuery(ctx, q);
      agreements.push(a);
      console.error(`agreement: ${q.id}: Quarry ${a.rows.quarry} rows, rg ${a.rows.rg}, csearch ${a.rows.csearch}`);
    }
    const problems = disagreements(agreements);
    if (problems.length > 0) {
      console.error(['', 'BENCHMARK FAILED: the contenders disagree, so no timing was done.', ...problems].join('\n'));
      return null;
    }
    const timings: QueryTimings[] = [];
    for (const a of agreements) {
      timings.push(await timeQuery(ctx, a));
      console.error(`timed: ${a.query.id}`);
    }
    return { agreements, timings };
  } finally {
    await quarry.close();
  }
}

/** Writes dirty pages back (a fresh corpus, new indexes) so the writeback does not run under a timing. */
function settle(): void {
  execFileSync('sync');
}

async function main(): Promise<void> {
  const quick = process.env['QUARRY_BENCH_QUICK'] === '1';
  const startedAt = new Date();
  const root = corpusRoot();
  const corpus = prepareCorpus(root, quick);
  const workDir = join(root, quick ? 'work-quick' : 'work-full');
  mkdirSync(workDir, { recursive: true });
  const dataDir = join(workDir, 'quarry-data');
  const cindexFile = join(workDir, 'csearchindex');
  const [machine, v] = [await machineInfo(), await versions()];
  console.error(`bench: ${corpus.repoName} at ${corpus.commit.slice(0, 12)} (${corpus.worktree}), ${QUERIES.length} queries`);

  // Floors first, on a quiet machine: thread wake-ups are the first thing background I/O slows.
  settle();
  const floors = await runFloors();
  const index = await buildIndexes(corpus, dataDir, cindexFile);
  settle();
  const queries = await runQueries(corpus, dataDir, cindexFile);
  if (queries === null) {
    process.exitCode = 1;
    return;
  }
  const { agreements, timings } = queries;
  settle();
  const stream = await measureStreamApi(dataDir, QUERIES.filter((q) => SELECTIVE_QUERY_IDS.includes(q.id)));

  const goals = [...indexGoals(index), ...queryGoals(timings)];
  const title = `Quarry vs csearch vs ripgrep: Linux 6.1${quick ? ' (quick subset)' : ''}, ${startedAt.toISOString().slice(0, 10)}, ${machine.kind}`;
  const summary = [summaryMarkdown({ title, context: context(corpus, index, machine, v), index, agreements, timings, floors, goals }), '', ...streamApiTable(stream), ''].join('\n');
  console.log(summary);
  const dir = runDir(machine, quick, startedAt);
  const raw = {
    schema: 1, startedAt: startedAt.toISOString(), finishedAt: new Date().toISOString(), quick,
    corpus, machine, versions: v, index, agreements, timings, floors, goals, stream,
  };
  writeRun(dir, raw, summary);
  console.error(`bench: recorded ${dir}`);
}

await main();
