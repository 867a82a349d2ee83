/**
 * How far an index run is, per phase (text, symbols, history): counts, rate and ETA, kept in a small
 * file beside the repository's lock so `quarry repos list` and `/metrics` in other processes see a
 * run as it goes. A file whose writer is gone (finished, killed) is ignored, never trusted.
 */
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { segmentsDir } from '../index/lmdb/catalog.js';
import { currentProcess, isRunning, type ProcessIdentity } from './process-identity.js';

export const INDEX_PHASES = ['text', 'symbols', 'history'] as const;
export type IndexPhase = (typeof INDEX_PHASES)[number];

export interface PhaseProgress {
  readonly phase: IndexPhase;
  /** What `done` and `total` count: files for text and symbols, commits for history. */
  readonly unit: 'files' | 'commits';
  readonly done: number;
  /** Null while not known yet (history counts as it walks). */
  readonly total: number | null;
  readonly bytes: number;
  readonly startedAt: string;
  /** Units per second since the phase started. */
  readonly rate: number;
  /** Seconds left at that rate; null when not known. */
  readonly etaSeconds: number | null;
  readonly finished: boolean;
}

export interface RunProgress {
  readonly repo: string;
  readonly owner: ProcessIdentity;
  readonly phases: readonly PhaseProgress[];
}

export type ProgressListener = (progress: PhaseProgress) => void;

const SUFFIX = '.progress.json';
/** The file is rewritten at most this often while a phase runs (always at its end). */
const WRITE_EVERY_MS = 250;

/** Measures one phase: rate and ETA from the counts it is given. */
export class PhaseMeter {
  private readonly started = Date.now();
  private current: PhaseProgress;

  constructor(phase: IndexPhase, unit: PhaseProgress['unit'], total: number | null, private readonly listener: ProgressListener) {
    this.current = { phase, unit, done: 0, total, bytes: 0, startedAt: new Date(this.started).toISOString(), rate: 0, etaSeconds: null, finished: false };
    listener(this.current);
  }

  update(done: number, bytes: number, total: number | null = this.current.total): void {
    const seconds = Math.max((Date.now() - this.started) / 1000, 0.001);
    const rate = done / seconds;
    const etaSeconds = total !== null && rate > 0 ? Math.max(total - done, 0) / rate : null;
    this.current = { ...this.current, done, bytes, total, rate, etaSeconds };
    this.listener(this.current);
  }

  finish(): void {
    this.current = { ...this.current, finished: true, etaSeconds: 0, ...(this.current.total === null ? { total: this.current.done } : {}) };
    this.listener(this.current);
  }
}

/** The run's progress file: every phase's latest numbers, written through a rename. */
export class ProgressFile {
  private readonly phases = new Map<IndexPhase, PhaseProgress>();
  private readonly path: string;
  private written = 0;

  constructor(dataDir: string, private readonly repo: string, repoId: number, private readonly forward?: ProgressListener) {
    this.path = join(segmentsDir(dataDir), `${repoId}${SUFFIX}`);
  }

  readonly listener: ProgressListener = (progress) => {
    this.phases.set(progress.phase, progress);
    this.forward?.(progress);
    const wait = this.written + WRITE_EVERY_MS - Date.now();
    if (progress.finished || progress.done === 0 || wait <= 0) this.write();
    // A throttled update is written a little later, so the file never stays behind the run for long.
    else this.trailing ??= setTimeout(() => this.write(), wait).unref();
  };

  remove(): void {
    this.removed = true;
    if (this.trailing) clearTimeout(this.trailing);
    rmSync(this.path, { force: true });
  }

  private trailing: NodeJS.Timeout | null = null;
  private removed = false;

  private write(): void {
    if (this.trailing) clearTimeout(this.trailing);
    this.trailing = null;
    if (this.removed) return;
    this.written = Date.now();
    const run: RunProgress = { repo: this.repo, owner: currentProcess(), phases: [...this.phases.values()] };
    try {
      writeFileSync(`${this.path}.tmp`, JSON.stringify(run));
      renameSync(`${this.path}.tmp`, this.path);
    } catch {
      // Progress is for watching only: a full disk must fail the index write that needs the space, with its own message, not this.
      rmSync(`${this.path}.tmp`, { force: true });
    }
  }
}

/** Progress of the index runs under way now, by repository name. */
export function readRunningProgress(dataDir: string): Map<string, RunProgress> {
  const runs = new Map<string, RunProgress>();
  let names: string[];
  try {
    names = readdirSync(segmentsDir(dataDir));
  } catch {
    return runs;
  }
  for (const name of names.filter((n) => n.endsWith(SUFFIX))) {
    try {
      const run = JSON.parse(readFileSync(join(segmentsDir(dataDir), name), 'utf8')) as RunProgress;
      if (isRunning(run.owner)) runs.set(run.repo, run);
    } catch {
      // Being replaced or removed as we read: the next read sees the new one.
    }
  }
  return runs;
}
