/**
 * What the catalog says about each repository's index, for `quarry repos list`, and dropping a
 * repository's index when the repository is removed.
 */
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { openCatalog, segmentsDir } from '../index/lmdb/catalog.js';
import { FORMAT_VERSION } from '../index/format.js';
import type { Manifest, SymbolCounts } from '../index/manifest.js';
import { segmentProblems } from './index-health.js';
import { INDEX_PHASES, type IndexPhase, type RunProgress } from './index-progress.js';

/** One phase of a repository's index as a reader sees it: what it serves and what a run under way is doing. */
export interface IndexPhaseState {
  readonly phase: IndexPhase;
  /** complete: published; indexing: a run is in it now; pending: wanted, not published yet; disabled: not wanted. */
  readonly state: 'complete' | 'indexing' | 'pending' | 'disabled';
  readonly done: number;
  readonly total: number | null;
  readonly rate: number;
  readonly etaSeconds: number | null;
}

/** Each phase's state from the live manifest and the run under way (index-progress.ts), if any. */
export function indexPhaseStates(manifest: Manifest | undefined, run: RunProgress | undefined): IndexPhaseState[] {
  return INDEX_PHASES.map((phase) => {
    const live = run?.phases.find((p) => p.phase === phase && !p.finished);
    if (live) return { phase, state: 'indexing', done: live.done, total: live.total, rate: live.rate, etaSeconds: live.etaSeconds };
    // History runs after symbols in the same run, so it waits for them too.
    const state = !manifest ? 'pending'
      : phase === 'symbols' ? (manifest.symbolsPending ? 'pending' : manifest.symbols ? 'complete' : 'disabled')
      : phase === 'history' && manifest.symbolsPending ? 'pending' : 'complete';
    // History counts commits, which the manifest does not hold.
    const total = phase === 'history' ? null : manifest?.files ?? null;
    return { phase, state, done: state === 'complete' && phase !== 'history' ? manifest?.files ?? 0 : 0, total, rate: 0, etaSeconds: state === 'complete' ? 0 : null };
  });
}

export interface IndexState {
  readonly commit: string;
  readonly indexedAt: string;
  readonly files: number;
  readonly bytes: number;
  readonly segments: number;
  readonly skippedBinary: number;
  readonly skippedTooLarge: number;
  /** Absent when indexed without symbols, or while they are pending. */
  readonly symbols?: SymbolCounts;
  /** The symbols phase: done, waiting for a run to extract them (after a text-only or killed run), or not wanted. */
  readonly symbolsPhase: 'complete' | 'pending' | 'off';
  /** Why segments of the live index cannot serve (index-health.ts); empty when all can. */
  readonly problems: readonly string[];
}

export async function readIndexStates(dataDir: string): Promise<Map<string, IndexState>> {
  const catalog = openCatalog(dataDir);
  try {
    const states = new Map<string, IndexState>();
    for (const m of catalog.list()) states.set(m.repo, {
      commit: m.commit,
      indexedAt: m.indexedAt,
      files: m.files,
      bytes: m.bytes,
      segments: m.segments.length,
      skippedBinary: m.skipped.filter((s) => s.reason === 'binary').length,
      skippedTooLarge: m.skipped.filter((s) => s.reason === 'too-large').length,
      ...(m.symbols ? { symbols: m.symbols } : {}),
      symbolsPhase: m.symbolsPending ? 'pending' : m.symbols ? 'complete' : 'off',
      problems: m.formatVersion === FORMAT_VERSION ? await segmentProblems(dataDir, m) : ['built by an older Quarry; index again'],
    });
    return states;
  } finally {
    await catalog.close();
  }
}

/** Removes the manifest first (searches stop seeing it), then the segment directories. */
export async function removeIndex(dataDir: string, name: string, repoId: number): Promise<void> {
  const catalog = openCatalog(dataDir);
  try {
    await catalog.remove(name);
  } finally {
    await catalog.close();
  }
  for (const entry of readdirSync(segmentsDir(dataDir))) {
    if (entry.startsWith(`${repoId}-`)) rmSync(join(segmentsDir(dataDir), entry), { recursive: true, force: true });
  }
}
