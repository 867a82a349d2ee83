/**
 * One build's warm query timings over an existing index, printed as JSON on stdout: the child that
 * bench/ab-builds.bench.ts runs from each checkout it compares. Run: `node dist/bench/query-timings.js DATA_DIR ROUNDS`.
 */
import { loadConfig } from '../src/config.js';
import { createServices } from '../src/services.js';
import { QUERIES } from './queries.js';
import { quarryQuery, QUARRY_THREADS } from './tools/quarry.js';

export interface QueryTimingsOutput {
  /** Per query id: the match count (checked equal between builds) and every sample in ms. */
  readonly queries: Record<string, { readonly matchCount: number; readonly samplesMs: number[] }>;
}

const WARM_UP_RUNS = 3;

async function main(): Promise<void> {
  const [dataDir, roundsArg] = process.argv.slice(2);
  const rounds = Number(roundsArg);
  if (!dataDir || !Number.isInteger(rounds) || rounds < 1) throw new Error('usage: query-timings.js DATA_DIR ROUNDS');
  const engine = createServices(loadConfig({ dataDir, threads: QUARRY_THREADS }));
  try {
    const out: QueryTimingsOutput = { queries: {} };
    for (const q of QUERIES) {
      const request = { query: quarryQuery(q) };
      let matchCount = 0;
      for (let i = 0; i < WARM_UP_RUNS; i++) matchCount = (await engine.search.search(request)).matchCount;
      const samplesMs: number[] = [];
      for (let i = 0; i < rounds; i++) {
        const started = performance.now();
        await engine.search.search(request);
        samplesMs.push(performance.now() - started);
      }
      out.queries[q.id] = { matchCount, samplesMs };
    }
    process.stdout.write(JSON.stringify(out));
  } finally {
    await engine.close();
  }
}

await main();
