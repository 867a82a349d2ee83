/**
 * Index build with and without symbol tables on the Linux corpus (QUARRY_BENCH_QUICK=1: the small
 * one): wall time, MB/s on QUARRY_THREADS cores and the ratio, each a fresh `quarry index` process.
 * Goal (issue 5): symbols add at most 1.5x to the text index build time. Also the floor under any
 * tree-sitter design: the same files parsed alone (nothing extracted or stored) on as many threads.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Piscina } from 'piscina';
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

/** Wall time to parse every file of the worktree on QUARRY_THREADS threads, batches handed out as threads free up. */
async function parseFloor(worktree: string): Promise<{ seconds: number; parsed: number; mib: number }> {
  const paths = (readdirSync(worktree, { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
  const pool = new Piscina({ filename: new URL('./parse-floor-worker.js', import.meta.url).href, minThreads: QUARRY_THREADS, maxThreads: QUARRY_THREADS });
  try {
    const batches: string[][] = [];
    for (let i = 0; i < paths.length; i += 200) batches.push(paths.slice(i, i + 200));
    const started = performance.now();
    const results = await Promise.all(batches.map((b) => pool.run(b) as Promise<{ parsed: number; bytes: number }>));
    const seconds = (performance.now() - started) / 1000;
    return { seconds, parsed: results.reduce((n, r) => n + r.parsed, 0), mib: results.reduce((n, r) => n + r.bytes, 0) / 1048576 };
  } finally {
    await pool.destroy();
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
const floor = await parseFloor(corpus.worktree);
const floorRatio = (text.seconds + floor.seconds) / text.seconds;
console.log(`tree-sitter parse alone: ${floor.parsed} files, ${floor.mib.toFixed(1)} MiB in ${floor.seconds.toFixed(1)} s on ${QUARRY_THREADS} threads (${rate(floor)})`);
console.log(`floor for any design that parses every file with tree-sitter: text index + parse = ${floorRatio.toFixed(2)}x the text index (goal ${RATIO_GOAL}x ${floorRatio <= RATIO_GOAL ? 'within reach' : 'out of reach on these cores'})`);
