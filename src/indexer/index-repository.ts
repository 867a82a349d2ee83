/**
 * Indexes a repository's default branch HEAD in two phases under one lock: the text segment is
 * built and published first (searchable at once), then symbol tables are added per segment
 * (symbols-phase.ts). Incremental when possible: only blobs that changed since the indexed commit
 * are read, into a new segment, and the paths they replace are marked deleted in older segments.
 * Manifest swaps are the commit points; orphans are removed. A damaged index is rebuilt in full.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createBlobReader } from '../git/blobs.js';
import { defaultBranch, resolveRevision } from '../git/mirror.js';
import { diffTrees, listTree, type TreeEntry } from '../git/tree.js';
import { FORMAT_VERSION } from '../index/format.js';
import { segmentsDir } from '../index/lmdb/catalog.js';
import type { Manifest, SegmentRef, SkippedFile } from '../index/manifest.js';
import { buildSegment, type BuildOptions } from './build-segment.js';
import { segmentProblems } from './index-health.js';
import { PhaseMeter, type ProgressListener } from './index-progress.js';
import { acquireIndexLock } from './lock.js';
import { symbolCountsOf } from './symbol-counts.js';
import type { IndexContext, IndexTarget } from './index-target.js';
import { extractSymbols, segmentsWithoutSymbols } from './symbols-phase.js';
import { tombstones } from './tombstones.js';

export type { IndexContext, IndexTarget } from './index-target.js';

export interface IndexOutcome {
  readonly manifest: Manifest;
  readonly mode: 'full' | 'incremental' | 'unchanged';
  /** Blobs read for this run. */
  readonly blobsRead: number;
  /** Why the previous index could not be kept (damaged segments), when this run rebuilt it. */
  readonly repaired: readonly string[];
}

export interface IndexOptions {
  readonly maxFileSize: number;
  /** Extract symbol tables (default on; Config.symbols, QUARRY_SYMBOLS=0 turns it off). */
  readonly symbols?: boolean;
  /** Publish the text index and stop: the symbols phase is left pending for a later run. */
  readonly textOnly?: boolean;
  readonly onPhase?: ProgressListener;
}

/** Past these, an incremental update rebuilds the repository in one segment instead. */
const MAX_SEGMENTS = 8;
const MAX_DELETED_FRACTION = 0.3;

export async function indexRepository(ctx: IndexContext, target: IndexTarget, options: IndexOptions): Promise<IndexOutcome> {
  const lock = acquireIndexLock(join(segmentsDir(ctx.dataDir), `${target.id}.lock`));
  try {
    removeOrphans(ctx, target);
    const outcome = await indexText(ctx, target, options);
    if (options.textOnly || !outcome.manifest.symbolsPending) return outcome;
    const manifest = await extractSymbols(ctx, target, options.onPhase);
    removeOrphans(ctx, target);
    return { ...outcome, manifest: manifest ?? outcome.manifest };
  } finally {
    lock.release();
  }
}

/** The text phase: builds and publishes the new text segment (without symbol tables). */
async function indexText(ctx: IndexContext, target: IndexTarget, options: IndexOptions): Promise<IndexOutcome> {
  const wantSymbols = options.symbols ?? true;
  const branch = await defaultBranch(target.gitDir);
  const commit = await resolveRevision(target.gitDir, branch);
  const previous = ctx.catalog.get(target.name);
  const current = previous && previous.formatVersion === FORMAT_VERSION && previous.repoId === target.id ? previous : undefined;
  const repaired = current ? await segmentProblems(ctx.dataDir, current) : [];
  const usable = repaired.length === 0 ? current : undefined;
  if (usable && usable.commit === commit) {
    const pending = wantSymbols && segmentsWithoutSymbols(ctx.dataDir, usable.segments).length > 0;
    const { symbolsPending: _, ...rest } = usable;
    const manifest = { ...rest, fork: target.fork, archived: target.archived, ...(pending ? { symbolsPending: true } : {}) };
    await ctx.catalog.put(manifest);
    return { manifest, mode: 'unchanged', blobsRead: 0, repaired };
  }
  const incremental = usable && usable.segments.length < MAX_SEGMENTS ? await planIncremental(ctx, target, usable, commit) : null;
  const update = incremental ?? (await planFull(target, commit));
  const meter = options.onPhase ? new PhaseMeter('text', 'files', update.entries.length, options.onPhase) : null;
  const built = update.entries.length > 0 ? await buildInto(ctx, target, update.entries, options, meter) : null;
  meter?.finish();
  const segments: SegmentRef[] = update.keep.filter((s) => s.deleted.length < s.docCount);
  if (built) segments.push({ id: built.id, docCount: built.segment.info.docCount, deleted: [] });
  const skipped = [...update.skippedKept, ...(built?.segment.skipped ?? [])].sort((a, b) => (a.path < b.path ? -1 : 1));
  const pending = wantSymbols && segmentsWithoutSymbols(ctx.dataDir, segments).length > 0;
  const manifest: Manifest = {
    formatVersion: FORMAT_VERSION, repo: target.name, repoId: target.id, commit, branch,
    indexedAt: new Date().toISOString(), fork: target.fork, archived: target.archived, segments, skipped,
    files: segments.reduce((n, s) => n + s.docCount - s.deleted.length, 0),
    bytes: update.bytesKept + (built?.segment.bytes ?? 0),
    ...(pending ? { symbolsPending: true } : wantSymbols ? symbolCountsOf(ctx.dataDir, segments, undefined) : {}),
  };
  await ctx.catalog.put(manifest);
  removeOrphans(ctx, target);
  return { manifest, mode: incremental ? 'incremental' : 'full', blobsRead: update.entries.length, repaired };
}

interface UpdatePlan {
  readonly entries: readonly TreeEntry[];
  readonly keep: readonly SegmentRef[];
  readonly skippedKept: readonly SkippedFile[];
  readonly bytesKept: number;
}

async function planFull(target: IndexTarget, commit: string): Promise<UpdatePlan> {
  const listing = await listTree(target.gitDir, commit);
  return { entries: listing.entries, keep: [], skippedKept: [], bytesKept: 0 };
}

async function planIncremental(ctx: IndexContext, target: IndexTarget, previous: Manifest, commit: string): Promise<UpdatePlan | null> {
  const diff = await diffTrees(target.gitDir, previous.commit, commit);
  const replaced = new Set([...diff.modified.map((e) => e.path), ...diff.deleted]);
  const marked = tombstones(ctx.dataDir, previous.segments, replaced);
  const total = marked.keep.reduce((n, s) => n + s.docCount, 0);
  const deleted = marked.keep.reduce((n, s) => n + s.deleted.length, 0);
  if (total > 0 && deleted / total > MAX_DELETED_FRACTION) return null;
  return {
    entries: [...diff.added, ...diff.modified].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
    keep: marked.keep,
    skippedKept: previous.skipped.filter((s) => !replaced.has(s.path)),
    bytesKept: previous.bytes - marked.bytesRemoved,
  };
}

async function buildInto(ctx: IndexContext, target: IndexTarget, entries: readonly TreeEntry[], options: IndexOptions, meter: PhaseMeter | null) {
  const id = `${target.id}-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
  const blobs = createBlobReader(target.gitDir, { maxBytes: options.maxFileSize + 1 });
  const build: BuildOptions = { maxFileSize: options.maxFileSize, ...(meter ? { onProgress: (done: number, _: number, bytes: number) => meter.update(done, bytes) } : {}) };
  try {
    return { id, segment: await buildSegment(join(segmentsDir(ctx.dataDir), id), entries, blobs, ctx.pool, build) };
  } finally {
    await blobs.close();
  }
}

/** Deletes this repository's segment directories that no manifest references (crashed runs, replaced segments). */
function removeOrphans(ctx: IndexContext, target: IndexTarget): void {
  const live = new Set(ctx.catalog.get(target.name)?.segments.map((s) => s.id) ?? []);
  const prefix = `${target.id}-`;
  for (const name of readdirSync(segmentsDir(ctx.dataDir))) {
    if (name.startsWith(prefix) && !live.has(name)) rmSync(join(segmentsDir(ctx.dataDir), name), { recursive: true, force: true });
  }
}
