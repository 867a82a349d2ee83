/**
 * Index builds side by side: Quarry (`repos add`, then `index`) and cindex over the same corpus,
 * each one process under /usr/bin/time, after one read of the corpus so both start page-cache warm.
 */
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Corpus } from './corpus.js';
import { buildCindex } from './tools/csearch.js';
import type { TimedRun } from './tools/process.js';
import { buildQuarryIndex, quarryIndexSize, type QuarryIndexSize } from './tools/quarry.js';

export interface ProcessFigures {
  readonly wallSeconds: number;
  readonly peakRssKiB: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface IndexResults {
  readonly pageCacheWarmBytes: number;
  readonly quarryAdd: ProcessFigures;
  readonly quarryIndex: ProcessFigures;
  readonly quarrySize: QuarryIndexSize;
  readonly cindex: ProcessFigures;
  /** Allocated bytes of the csearch index file. */
  readonly cindexBytes: number;
}

function figures(run: TimedRun): ProcessFigures {
  return { wallSeconds: run.wallSeconds, peakRssKiB: run.peakRssKiB, stdout: run.stdout.toString('utf8').trim(), stderr: run.stderr.trim() };
}

/** Reads every regular file under `dir` once; returns the bytes read. */
function readTree(dir: string): number {
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) bytes += readTree(path);
    else if (entry.isFile()) bytes += readFileSync(path).length;
  }
  return bytes;
}

export async function buildIndexes(corpus: Corpus, dataDir: string, cindexFile: string): Promise<IndexResults> {
  const pageCacheWarmBytes = readTree(corpus.worktree) + readTree(corpus.gitDir);
  rmSync(dataDir, { recursive: true, force: true });
  console.error('index: quarry repos add + index');
  const quarry = await buildQuarryIndex(corpus.repoName, corpus.gitDir, dataDir);
  console.error('index: cindex');
  const cindex = await buildCindex(corpus.worktree, cindexFile);
  return {
    pageCacheWarmBytes,
    quarryAdd: figures(quarry.add),
    quarryIndex: figures(quarry.index),
    quarrySize: quarryIndexSize(dataDir),
    cindex: figures(cindex),
    cindexBytes: statSync(cindexFile).blocks * 512,
  };
}
