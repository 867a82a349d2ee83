/**
 * Where symbol extraction's time goes (issue 20): the same files parsed alone (the floor) and parsed
 * with everything extracted and encoded, on one thread, alternated in one process so the machine's
 * load falls on both alike; then one extraction pass under the V8 CPU profiler, summed per function.
 * Run: `node dist/bench/symbols-profile.js [dir ...]` (directories of the Linux corpus worktree).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { Session, type Profiler } from 'node:inspector';
import { join } from 'node:path';
import { extractBatch } from '../src/symbols/batch.js';
import { parseOnly } from '../src/symbols/parse.js';
import { corpusRoot } from './corpus.js';
import { writeSideRun } from './record.js';
import { summarizeProfile, type ProfileRow } from './tools/cpu-profile.js';

const DEFAULT_DIRS = ['kernel', 'mm', 'fs/ext4', 'net/ipv4'];
const ROUNDS = Number(process.env['QUARRY_BENCH_ROUNDS'] ?? 3);
/** Files per extractBatch call, as an index worker takes them. */
const BATCH = 50;

const dirs = process.argv.slice(2).length > 0 ? process.argv.slice(2) : DEFAULT_DIRS;
const worktree = join(corpusRoot(), 'linux-source-6.1');
const paths = execFileSync('find', [...dirs, '-type', 'f', '(', '-name', '*.c', '-o', '-name', '*.h', ')'], { cwd: worktree, encoding: 'utf8', maxBuffer: 1 << 26 })
  .trim().split('\n').sort();
const docs = paths.map((p) => readFileSync(join(worktree, p)));
const bytes = docs.reduce((sum, d) => sum + d.length, 0);

function parseAll(): number {
  const start = performance.now();
  for (let i = 0; i < paths.length; i++) parseOnly(paths[i]!, docs[i]!);
  return performance.now() - start;
}

function extractAll(): number {
  const start = performance.now();
  for (let i = 0; i < paths.length; i += BATCH) extractBatch(paths.slice(i, i + BATCH), docs.slice(i, i + BATCH));
  return performance.now() - start;
}

async function profiled(run: () => unknown): Promise<Profiler.Profile> {
  const session = new Session();
  session.connect();
  const post = <T>(method: string, params?: object): Promise<T> =>
    new Promise((resolve, reject) => session.post(method, params ?? {}, (error, result) => (error ? reject(error) : resolve(result as T))));
  await post('Profiler.enable');
  await post('Profiler.start');
  run();
  const { profile } = await post<{ profile: Profiler.Profile }>('Profiler.stop');
  session.disconnect();
  return profile;
}

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

parseAll();
extractAll();
const parse: number[] = [];
const extract: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  parse.push(parseAll());
  extract.push(extractAll());
}
const rows = summarizeProfile(await profiled(extractAll));
const table = (title: string, pick: (r: ProfileRow) => number): string[] => {
  const total = rows.reduce((sum, r) => sum + r.selfMs, 0);
  return [`| ${title} | ms | share |`, '| --- | ---: | ---: |',
    ...[...rows].sort((a, b) => pick(b) - pick(a)).slice(0, 20).map((r) => `| \`${r.name}\` | ${pick(r).toFixed(0)} | ${((100 * pick(r)) / total).toFixed(1)}% |`)];
};
const summary = [
  `# Symbol extraction against the parse floor (${paths.length} C files of ${dirs.join(', ')}, ${(bytes / 2 ** 20).toFixed(1)} MiB, one thread)`,
  '',
  `Medians of ${ROUNDS} alternated rounds after one warm-up each: parse alone ${median(parse).toFixed(0)} ms, parse with extraction and encoding ${median(extract).toFixed(0)} ms: **${(median(extract) / median(parse)).toFixed(2)}x the floor** (goal ≤ 1.25x). Load average at the end: ${loadavg().map((l) => l.toFixed(2)).join(', ')}.`,
  '',
  'One extraction pass under the V8 CPU profiler, by function (self time, then inclusive):',
  '',
  ...table('function (self)', (r) => r.selfMs),
  '',
  ...table('function (inclusive)', (r) => r.totalMs),
].join('\n');
console.log(summary);
await writeSideRun('symbols-profile', summary, { files: paths.length, bytes, parseMs: parse, extractMs: extract, profile: rows.slice(0, 60) });
