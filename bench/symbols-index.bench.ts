/**
 * Index build with and without symbol tables on the Linux corpus (QUARRY_BENCH_QUICK=1: the small
 * one): wall time, MB/s on QUARRY_THREADS cores and the ratio, each a fresh `quarry index` process.
 * Goal (issue 5): symbols add at most 1.5x to the text index build time.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { corpusRoot, prepareCorpus } from './corpus.js';
import { QUARRY_BIN } from './paths.js';
import { timed } from './tools/process.js';
import { QUARRY_THREADS } from './tools/quarry.js';

const RATIO_GOAL = 1.5;

async function build(gitDir: string, repoName: string, symbols: boolean): Promise<{ seconds: number; mib: number; line: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'quarry-symbench-'));
  try {
    const env = { ...process.env, QUARRY_SYMBOLS: symbols ? '1' : '0' };
    await timed(process.execPath, [QUARRY_BIN, 'repos', 'add', repoName, gitDir, '--data', dataDir], { env });
    const run = await timed(process.execPath, [QUARRY_BIN, 'index', '--no-fetch', '--threads', String(QUARRY_THREADS), '--data', dataDir, repoName], { env });
    const line = run.stdout.toString('utf8').trim();
    const mib = Number(/\(([\d.]+) MiB\)/.exec(line)?.[1] ?? NaN);
    return { seconds: run.wallSeconds, mib, line };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const corpus = prepareCorpus(corpusRoot(), process.env['QUARRY_BENCH_QUICK'] === '1');
const text = await build(corpus.gitDir, corpus.repoName, false);
const withSymbols = await build(corpus.gitDir, corpus.repoName, true);
const ratio = withSymbols.seconds / text.seconds;
const rate = (r: { seconds: number; mib: number }): string => `${(r.mib * 1.048576 / r.seconds).toFixed(1)} MB/s`;
console.log(`corpus: ${corpus.repoName} (${text.mib} MiB), ${QUARRY_THREADS} threads`);
console.log(`text index:         ${text.seconds.toFixed(1)} s, ${rate(text)}`);
console.log(`with symbol tables: ${withSymbols.seconds.toFixed(1)} s, ${rate(withSymbols)}`);
console.log(`ratio: ${ratio.toFixed(2)}x (goal at most ${RATIO_GOAL}x): ${ratio <= RATIO_GOAL ? 'met' : 'missed'}`);
console.log(withSymbols.line);
