/**
 * This checkout against another build of Quarry (QUARRY_AB_OTHER: a checkout with its dist built) on
 * the Linux 6.1 queries, warm and in-process, over one index: turns alternate between the builds so
 * the machine's drift falls on both; answers are checked equal before any figure is kept.
 * Run: `QUARRY_AB_OTHER=/path/to/checkout node dist/bench/ab-builds.bench.js` (QUARRY_BENCH_QUICK=1 for the small corpus).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { corpusRoot, prepareCorpus } from './corpus.js';
import { percentile } from './load/latency.js';
import { REPO_ROOT } from './paths.js';
import { QUERIES } from './queries.js';
import type { QueryTimingsOutput } from './query-timings.js';
import { writeSideRun } from './record.js';
import { buildQuarryIndex } from './tools/quarry.js';

const TURNS = Number(process.env['QUARRY_AB_TURNS'] ?? 4);
const ROUNDS_PER_TURN = Number(process.env['QUARRY_AB_ROUNDS'] ?? 15);
/** The bound: no query slower than this ratio against the other build. */
const ALLOWED_SLOWDOWN = 1.03;

interface BuildFigures {
  readonly label: string;
  readonly checkout: string;
  readonly matchCounts: Map<string, number>;
  readonly samples: Map<string, number[]>;
}

function gitHead(checkout: string): string {
  return execFileSync('git', ['-C', checkout, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
}

function runTurn(build: BuildFigures, dataDir: string): void {
  const script = join(build.checkout, 'dist', 'bench', 'query-timings.js');
  if (!existsSync(script)) throw new Error(`${script} is missing: build that checkout first (npx tsc -p .)`);
  const out = JSON.parse(execFileSync(process.execPath, [script, dataDir, String(ROUNDS_PER_TURN)], { encoding: 'utf8', maxBuffer: 64 << 20 })) as QueryTimingsOutput;
  for (const [id, figures] of Object.entries(out.queries)) {
    const known = build.matchCounts.get(id);
    if (known !== undefined && known !== figures.matchCount) throw new Error(`${build.label}: ${id} answered ${figures.matchCount} matches after ${known}`);
    build.matchCounts.set(id, figures.matchCount);
    build.samples.set(id, [...(build.samples.get(id) ?? []), ...figures.samplesMs]);
  }
}

const p50 = (samples: readonly number[]): number => percentile([...samples].sort((a, b) => a - b), 50);

async function main(): Promise<void> {
  const other = process.env['QUARRY_AB_OTHER'];
  if (!other) throw new Error('set QUARRY_AB_OTHER to the checkout to compare with (its dist built)');
  const quick = process.env['QUARRY_BENCH_QUICK'] === '1';
  const root = corpusRoot();
  const corpus = prepareCorpus(root, quick);
  const dataDir = join(root, quick ? 'work-quick' : 'work-full', 'quarry-ab-data');
  rmSync(dataDir, { recursive: true, force: true });
  console.error(`ab bench: indexing ${corpus.repoName} with this build`);
  await buildQuarryIndex(corpus.repoName, corpus.gitDir, dataDir);
  const builds: BuildFigures[] = [
    { label: `this (${gitHead(REPO_ROOT)})`, checkout: REPO_ROOT, matchCounts: new Map(), samples: new Map() },
    { label: `other (${gitHead(other)})`, checkout: other, matchCounts: new Map(), samples: new Map() },
  ];
  try {
    for (let turn = 0; turn < TURNS; turn++) {
      // Alternate which build goes first, so neither always runs on a machine the other warmed.
      for (const build of turn % 2 === 0 ? builds : [...builds].reverse()) {
        console.error(`ab bench: turn ${turn + 1}/${TURNS}, ${build.label}`);
        runTurn(build, dataDir);
      }
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  const [self, base] = builds as [BuildFigures, BuildFigures];
  const rows = QUERIES.map((q) => {
    if (self.matchCounts.get(q.id) !== base.matchCounts.get(q.id)) throw new Error(`${q.id}: the builds disagree (${self.matchCounts.get(q.id)} vs ${base.matchCounts.get(q.id)} matches)`);
    const mine = p50(self.samples.get(q.id)!);
    const theirs = p50(base.samples.get(q.id)!);
    return { id: q.id, matches: self.matchCounts.get(q.id)!, thisP50Ms: mine, otherP50Ms: theirs, ratio: mine / theirs };
  });
  const geomean = Math.exp(rows.reduce((s, r) => s + Math.log(r.ratio), 0) / rows.length);
  const summary = [
    `# This build against another, Linux 6.1${quick ? ' (quick subset)' : ''} queries, warm in-process`, '',
    `${TURNS} alternating turns of ${ROUNDS_PER_TURN} runs per query and build (3 warm-up runs each turn); answers equal before timing.`, '',
    `| query | matches | ${self.label} p50 (ms) | ${base.label} p50 (ms) | ratio |`,
    '| --- | ---: | ---: | ---: | ---: |',
    ...rows.map((r) => `| ${r.id} | ${r.matches} | ${r.thisP50Ms.toFixed(2)} | ${r.otherP50Ms.toFixed(2)} | ${r.ratio.toFixed(3)} |`),
    '', `Geometric mean ratio: ${geomean.toFixed(3)} (goal ≤ ${ALLOWED_SLOWDOWN}: ${geomean <= ALLOWED_SLOWDOWN ? 'pass' : 'FAIL'}).`, '',
  ].join('\n');
  process.stdout.write(summary);
  await writeSideRun('ab-builds', summary, { builds: builds.map((b) => b.label), turns: TURNS, roundsPerTurn: ROUNDS_PER_TURN, rows, geomean });
}

await main();
