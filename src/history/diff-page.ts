/**
 * One page of a diff search: the candidate commits of one or more repositories merged into one
 * newest-first list, whose diffs are read from a position on in batches and matched in the worker
 * pool until one more than `count` commits matched. Every hit carries its position in the list, so a
 * later page can start exactly where this one stopped. No line is matched on this thread.
 */
import { isQuarryError } from '../errors.js';
import { matchCommitDiffs, type BatchMatchRequest } from './diff-batch-match.js';
import { readCommitDiffs, type GitBounds } from './diff-git.js';
import type { DiffLineRunner } from './diff-lines.js';
import type { CommitDiff, CommitHit, CommitMeta, HunkHit } from './diff-model.js';

/** A candidate commit: which source (repository) it belongs to, and its id. */
export interface DiffCandidate {
  readonly source: number;
  readonly oid: string;
}

export interface DiffPageRequest extends BatchMatchRequest {
  /** Commits wanted on the page. */
  readonly count: number;
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

const BATCH = 40;
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
 * Reads and matches the candidates from `start` on; `gitDirs[source]` is where a candidate's diff is
 * read. A candidate whose `toRead` entry is 0 is known not to match (the history index says so)
 * and is passed over without reading; it keeps its position, so pages and cursors stay the same.
 */
export async function scanDiffPage(pool: DiffLineRunner, gitDirs: readonly string[], candidates: readonly DiffCandidate[], start: number, request: DiffPageRequest, toRead?: Uint8Array): Promise<DiffPage> {
  const found: PagedHit[] = [];
  let position = start;
  let scanned = 0;
  let skipped = 0;
  let timedOut = false;
  while (position < candidates.length && found.length <= request.count) {
    if (Date.now() >= request.deadline || request.signal?.aborted) {
      timedOut = true;
      break;
    }
    let end = position;
    const batch: DiffCandidate[] = [];
    while (end < candidates.length && batch.length < BATCH) {
      if (toRead === undefined || toRead[end] === 1) batch.push(candidates[end]!);
      end++;
    }
    let matched: Map<string, { commit: CommitDiff; hunks: HunkHit[] }>;
    try {
      const read = await readAndMatch(pool, gitDirs, batch, request);
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
      if (one !== undefined && one.hunks.length > 0) found.push({ source: candidate.source, position: at, hit: { commit: one.commit, hunks: one.hunks } });
      if (found.length > request.count) break;
    }
    position = end;
  }
  const next = found.length > request.count ? found[request.count]!.position : timedOut ? position : null;
  return { hits: found.slice(0, request.count), next, timedOut, scanned, candidates: candidates.length, skipped };
}

/** One git run and one pool task per source in the batch; commits skipped as too large are absent. */
async function readAndMatch(pool: DiffLineRunner, gitDirs: readonly string[], batch: readonly DiffCandidate[], request: DiffPageRequest) {
  if (batch.length === 0) return { matched: new Map<string, { commit: CommitDiff; hunks: HunkHit[] }>(), skipped: 0 };
  const bySource = new Map<number, string[]>();
  for (const { source, oid } of batch) bySource.set(source, [...(bySource.get(source) ?? []), oid]);
  const matched = new Map<string, { commit: CommitDiff; hunks: HunkHit[] }>();
  let skipped = 0;
  for (const [source, oids] of bySource) {
    const read = await readBatch(gitDirs[source]!, oids, request.deadline);
    skipped += read.skipped;
    const perCommit = await matchCommitDiffs(pool, read.diffs, request);
    read.diffs.forEach((commit, i) => matched.set(commit.oid, { commit, hunks: perCommit[i]! }));
  }
  return { matched, skipped };
}

/** A batch too large for the output bound is read commit by commit; single commits still too large are skipped and counted. */
async function readBatch(gitDir: string, oids: readonly string[], deadline: number): Promise<{ diffs: CommitDiff[]; skipped: number }> {
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
