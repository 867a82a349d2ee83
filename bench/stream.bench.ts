/**
 * The stream API on the Linux 6.1 corpus alone (linux.bench.ts runs the same measurement after its
 * query timings): a fresh text index, then bench/stream-api.ts; prints the table and records it.
 * Run: `node dist/bench/stream.bench.js` (QUARRY_BENCH_QUICK=1 for the small corpus).
 */
import { rmSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { corpusRoot, prepareCorpus } from './corpus.js';
import { QUERIES } from './queries.js';
import { writeSideRun } from './record.js';
import { measureStreamApi, SELECTIVE_QUERY_IDS, streamApiTable } from './stream-api.js';
import { buildQuarryIndex } from './tools/quarry.js';

async function main(): Promise<void> {
  const quick = process.env['QUARRY_BENCH_QUICK'] === '1';
  const root = corpusRoot();
  const corpus = prepareCorpus(root, quick);
  const dataDir = join(root, quick ? 'work-quick' : 'work-full', 'quarry-stream-data');
  rmSync(dataDir, { recursive: true, force: true });
  console.error(`stream bench: indexing ${corpus.repoName} at ${corpus.commit.slice(0, 12)}`);
  await buildQuarryIndex(corpus.repoName, corpus.gitDir, dataDir);
  try {
    // The machine may be shared: the load around the timings says how far to trust them.
    const loadBefore = loadavg();
    const run = await measureStreamApi(dataDir, QUERIES.filter((q) => SELECTIVE_QUERY_IDS.includes(q.id)));
    const load = `Load average (1, 5, 15 min) before the timings: ${loadText(loadBefore)}; after: ${loadText(loadavg())} (${availableParallelism()} cores).`;
    const summary = [`# Stream API, Linux 6.1${quick ? ' (quick subset)' : ''}, selective queries`, '', ...streamApiTable(run), '', load, ''].join('\n');
    process.stdout.write(summary);
    await writeSideRun('stream', summary, run);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function loadText(load: readonly number[]): string {
  return load.map((l) => l.toFixed(2)).join(', ');
}

await main();
