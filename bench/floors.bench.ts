/**
 * Floors: the cheapest call across each boundary a search crosses (N-API, the worker pool, an LMDB
 * read). A query can never beat the sum of the floors it pays; compare stage timings against them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { open } from 'lmdb';
import { Piscina } from 'piscina';
import type * as HyperscanAddon from '../native/hyperscan/index.js';
import { measure, type Timing } from './timing.js';

/** Sub-microsecond calls are timed in batches; each sample is the mean of one batch. */
const BATCH = 10_000;

function batched(call: () => unknown): () => { overriddenDuration: number; overriddenIterationCost: number } {
  return () => {
    const started = performance.now();
    for (let i = 0; i < BATCH; i++) call();
    const elapsed = performance.now() - started;
    return { overriddenDuration: elapsed / BATCH, overriddenIterationCost: elapsed };
  };
}

/** The Hyperscan addon, loaded directly as src/matcher/hyperscan.ts does (bench/ may). */
export function loadAddon(): typeof HyperscanAddon {
  return createRequire(import.meta.url)('../../native/hyperscan/index.js') as typeof HyperscanAddon;
}

async function napiFloor(): Promise<Timing> {
  const addon = loadAddon();
  return measure('N-API noop()', batched(() => addon.noop()), { expectedMs: 1, warmupIterations: 16, async: false });
}

async function poolFloor(): Promise<Timing> {
  const pool = new Piscina({ filename: new URL('./floor-worker.js', import.meta.url).href, minThreads: 1, maxThreads: 1 });
  try {
    return await measure('piscina round trip', () => pool.run(1) as Promise<unknown>, { expectedMs: 1, warmupIterations: 64, async: true });
  } finally {
    await pool.destroy();
  }
}

async function lmdbFloor(): Promise<Timing> {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-bench-lmdb-'));
  const env = open({ path: join(dir, 'floor.mdb'), noSubdir: true });
  try {
    await env.put('present', 1);
    return await measure('LMDB get (missing key)', batched(() => env.get('missing')), { expectedMs: 1, warmupIterations: 16, async: false });
  } finally {
    await env.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function runFloors(): Promise<Timing[]> {
  return [await napiFloor(), await poolFloor(), await lmdbFloor()];
}

export function floorsTable(floors: readonly Timing[]): string[] {
  return [
    '| floor | median (µs) | min (µs) | samples |',
    '| --- | ---: | ---: | ---: |',
    ...floors.map((f) => `| ${f.name} | ${(f.medianMs * 1000).toFixed(3)} | ${(f.minMs * 1000).toFixed(3)} | ${f.samplesMs.length} |`),
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(floorsTable(await runFloors()).join('\n'));
}
