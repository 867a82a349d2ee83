/**
 * What the catalog says about each repository's index, for `quarry repos list`, and dropping a
 * repository's index when the repository is removed.
 */
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { openCatalog, segmentsDir } from '../index/lmdb/catalog.js';
import { FORMAT_VERSION } from '../index/format.js';
import type { SymbolCounts } from '../index/manifest.js';
import { segmentProblems } from './index-health.js';

export interface IndexState {
  readonly commit: string;
  readonly indexedAt: string;
  readonly files: number;
  readonly bytes: number;
  readonly segments: number;
  readonly skippedBinary: number;
  readonly skippedTooLarge: number;
  /** Absent when indexed without symbols. */
  readonly symbols?: SymbolCounts;
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
