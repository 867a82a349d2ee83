/**
 * One page of a diff search: the candidate commits of one or more repositories merged into one
 * newest-first list, whose diffs are read from a position on in batches (from the history index
 * when it holds them, else through git) and matched in the worker pool until one more than `count`
 * commits matched. Every hit carries its position in the list, so a later page can start exactly
 * where this one stopped. No line is matched on this thread.
 */
import { isQuarryError } from '../errors.js';
import { matchCommitDiffs, type BatchMatchRequest } from './diff-batch-match.js';
import { parseCommitRecord, readCommitDiffs, type GitBounds } from './diff-git.js';
import type { DiffIndexReader } from './diff-index-filter.js';
import type { DiffLineRunner } from './diff-lines.js';
import type { CommitDiff, CommitHit, CommitMeta, HunkHit } from './diff-model.js';

/** A candidate commit: which source (repository) it belongs to, and its id. */
export interface DiffCandidate {
  readonly source: number;
  readonly oid: string;
}

/** Where one source's diffs are read: its history index for the commits it holds, git for the others. */
export interface DiffReadSource {
  readonly gitDir: string;
  readonly index: DiffIndexReader | null;
}

export interface DiffPageRequest extends BatchMatchRequest {
  /** Commits wanted on the page. */
  readonly count: number;
  /**
   * Whether the hits found so far already fill what the caller can show (its answer budget): the
   * page then ends after the last of them, and reads nothing more.
   */
  readonly pageFull?: (hits: readonly PagedHit[]) => boolean;
}

export interface PagedHit {
  readonly source: number;
  /** Position of the commit in the merged candidate list. */
  readonly position: number;
  readonly hit: CommitHit;
}

export interface DiffPage {
  /** At most `count`, in candidate order. */
  readonly hits: readonly PagedHit[];
  /** Where the next page starts, or null when no candidate is left to read. */
  readonly next: number | null;
  readonly timedOut: boolean;
  /** Commits this page read or the history index ruled out, out of `candidates` (all, from the first position). */
  readonly scanned: number;
  readonly candidates: number;
  /** Commits too large to read within the output bound. */
  readonly skipped: number;
}

/** Commits read per batch, at most: the diffs of one pool task. */
const BATCH = 40;
/** The first batch of a page: small, since a page that fills its answer budget early reads no more. */
const FIRST_BATCH = 8;
/** Lines of context around each change: enough to read a hunk, few enough to keep answers small. */
export const DIFF_CONTEXT_LINES = 1;
/** Output bound of one read: a commit whose diff alone is larger is skipped (and counted), never indexed. */
export const DIFF_READ_MAX_BYTES = 32 * 1024 * 1024;

/**
 * Each source's commits (newest first as git lists them) merged into one list by committer date,
 * newest first; ties go to the lower source, and each source keeps its own order.
 */
export function mergeNewestFirst(lists: readonly (readonly CommitMeta[])[]): DiffCandidate[] {
  const next = lists.map(() => 0);
  const dates = lists.map((list) => list.map((commit) => Date.parse(commit.committerDate)));
  const merged: DiffCandidate[] = [];
  for (;;) {
    let best = -1;
    for (let s = 0; s < lists.length; s++) {
      if (next[s]! < lists[s]!.length && (best < 0 || dates[s]![next[s]!]! > dates[best]![next[best]!]!)) best = s;
    }
    if (best < 0) return merged;
    merged.push({ source: best, oid: lists[best]![next[best]!]!.oid });
    next[best]!++;
  }
}

/**
 * Reads and matches the candidates from `start` on; `sources[source]` is where a candidate's diff is
 * read. A candidate whose `toRead` entry is 0 is known not to match (the history index says so)
 * and is passed over without reading; it keeps its position, so pages and cursors stay the same.
 */
export async function scanDiffPage(pool: DiffLineRunner, sources: readonly DiffReadSource[], candidates: readonly DiffCandidate[], start: number, request: DiffPageRequest, toRead?: Uint8Array): Promise<DiffPage> {
  const found: PagedHit[] = [];
  let position = start;
  let scanned = 0;
  let skipped = 0;
  let timedOut = false;
  let full = false;
  let batchSize = FIRST_BATCH;
  while (position < candidates.length && !full) {
    if (Date.now() >= request.deadline || request.signal?.aborted) {
      timedOut = true;
      break;
    }
    let end = position;
    const batch: DiffCandidate[] = [];
    while (end < candidates.length && batch.length < batchSize) {
      if (toRead === undefined || toRead[end] === 1) batch.push(candidates[end]!);
      end++;
    }
    batchSize = Math.min(BATCH, batchSize * 2);
    let matched: Map<string, { commit: CommitDiff; hunks: HunkHit[] }>;
    try {
      const read = await readAndMatch(pool, sources, batch, request);
      matched = read.matched;
      skipped += read.skipped;
    } catch (err) {
      if (!isTimeout(err) && !isStopped(err)) throw err;
      timedOut = true;
      break;
    }
    for (let at = position; at < end; at++) {
      scanned++;
      const candidate = candidates[at]!;
      const one = toRead === undefined || toRead[at] === 1 ? matched.get(candidate.oid) : undefined;
      if (one !== undefined && one.hunks.length > 0) {
        found.push({ source: candidate.source, position: at, hit: { commit: one.commit, hunks: one.hunks } });
        full = found.length > request.count || (request.pageFull?.(found) ?? false);
      }
      if (full) {
        end = at + 1;
        break;
      }
    }
    position = end;
  }
  if (found.length > request.count) return { hits: found.slice(0, request.count), next: found[request.count]!.position, timedOut, scanned, candidates: candidates.length, skipped };
  const next = (full || timedOut) && position < candidates.length ? position : null;
  return { hits: found, next, timedOut, scanned, candidates: candidates.length, skipped };
}

/** One index read or git run and one pool task per source in the batch; commits skipped as too large are absent. */
async function readAndMatch(pool: DiffLineRunner, sources: readonly DiffReadSource[], batch: readonly DiffCandidate[], request: DiffPageRequest) {
  if (batch.length === 0) return { matched: new Map<string, { commit: CommitDiff; hunks: HunkHit[] }>(), skipped: 0 };
  const bySource = new Map<number, string[]>();
  for (const { source, oid } of batch) bySource.set(source, [...(bySource.get(source) ?? []), oid]);
  const matched = new Map<string, { commit: CommitDiff; hunks: HunkHit[] }>();
  let skipped = 0;
  for (const [source, oids] of bySource) {
    const read = await readFromIndexOrGit(sources[source]!, oids, request.deadline);
    skipped += read.skipped;
    const perCommit = await matchCommitDiffs(pool, read.diffs, request);
    read.diffs.forEach((commit, i) => matched.set(commit.oid, { commit, hunks: perCommit[i]! }));
  }
  return { matched, skipped };
}

/** The diffs the index holds are parsed from their stored records; git reads the others, and the batch keeps its order. */
async function readFromIndexOrGit(source: DiffReadSource, oids: readonly string[], deadline: number): Promise<{ diffs: CommitDiff[]; skipped: number }> {
  const stored = oids.map((oid) => {
    const ordinal = source.index?.ordinalOf(oid);
    return ordinal === undefined ? undefined : source.index!.record(ordinal);
  });
  const missing = oids.filter((_, i) => stored[i] === undefined);
  const read = await readBatch(source.gitDir, missing, deadline);
  const fromGit = new Map(read.diffs.map((diff) => [diff.oid, diff]));
  const diffs: CommitDiff[] = [];
  oids.forEach((oid, i) => {
    const record = stored[i];
    const diff = record === undefined ? fromGit.get(oid) : parseCommitRecord(record);
    if (diff !== undefined) diffs.push(diff);
  });
  return { diffs, skipped: read.skipped };
}

/** A batch too large for the output bound is read commit by commit; single commits still too large are skipped and counted. */
async function readBatch(gitDir: string, oids: readonly string[], deadline: number): Promise<{ diffs: CommitDiff[]; skipped: number }> {
  if (oids.length === 0) return { diffs: [], skipped: 0 };
  try {
    return { diffs: await readCommitDiffs(gitDir, oids, DIFF_CONTEXT_LINES, boundsUntil(deadline, DIFF_READ_MAX_BYTES)), skipped: 0 };
  } catch (err) {
    if (!isOversized(err)) throw err;
  }
  if (oids.length === 1) return { diffs: [], skipped: 1 };
  const diffs: CommitDiff[] = [];
  let skipped = 0;
  for (const oid of oids) {
    const one = await readBatch(gitDir, [oid], deadline);
    diffs.push(...one.diffs);
    skipped += one.skipped;
  }
  return { diffs, skipped };
}

export function boundsUntil(deadline: number, maxBytes: number): GitBounds {
  return { timeoutMs: Math.max(1, deadline - Date.now()), maxBytes };
}

export function isTimeout(err: unknown): boolean {
  return isQuarryError(err, 'GIT_FAILED') && err.details['timedOut'] === true;
}

/** The pool stopped the batch's matching: its deadline passed or the search was cancelled. */
function isStopped(err: unknown): boolean {
  return isQuarryError(err, 'TIMEOUT') || isQuarryError(err, 'ABORTED');
}

export function isOversized(err: unknown): boolean {
  return isQuarryError(err, 'GIT_FAILED') && typeof err.details['maxBytes'] === 'number';
}
