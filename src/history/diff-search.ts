/**
 * Diff search in one repository: candidate commits (reachable from the tips, filtered by author,
 * date and message on their metadata) read newest first in batches of diffs, their added and
 * removed lines matched in the worker pool (one task per batch), until one more than `count`
 * commits matched or the deadline passed. No line is matched on this thread.
 */
import { isQuarryError } from '../errors.js';
import type { PoolFor } from '../pool/pool.js';
import { applyCommitFilter, type CommitField, type CommitFilter } from './commit-filter.js';
import { personText } from './commit-table.js';
import { matchCommitDiffs } from './diff-batch-match.js';
import type { CommitMeta, DiffHunk, DiffLine } from './diff-model.js';
import { listCommits, readCommitDiffs, type GitBounds } from './diff-git.js';
import type { DiffPattern } from './diff-match.js';
import type { TextList } from './text-atoms.js';

/** The part of the worker pool diff search needs: changed lines, and regexes over commit metadata. */
export type DiffLineRunner = PoolFor<'diff-lines' | 'text-match'>;

export interface DiffSearchRequest {
  /** The planned pattern (and, for the query language, its AND/OR/NOT); a worker matches it. */
  readonly pattern: DiffPattern;
  /** Which changed lines to search: both unless exactly one is asked for. */
  readonly added: boolean;
  readonly removed: boolean;
  /** Commit ids the history is walked from. */
  readonly tips: readonly string[];
  /** What authors (`Name <email>`) and messages must match; null: any commit. */
  readonly metadata: CommitFilter | null;
  /** Committer date bounds, as `git log --since/--until` apply them. */
  readonly after: Date | null;
  readonly before: Date | null;
  readonly count: number;
  /** Epoch milliseconds. */
  readonly deadline: number;
  readonly signal?: AbortSignal;
}

export interface LineHit {
  readonly line: DiffLine;
  /** [start, end) code point offsets in the line's text. */
  readonly ranges: readonly (readonly [number, number])[];
}

export interface HunkHit {
  readonly oldPath: string | null;
  readonly newPath: string | null;
  readonly hunk: DiffHunk;
  readonly hits: readonly LineHit[];
}

export interface CommitHit {
  readonly commit: CommitMeta;
  readonly hunks: readonly HunkHit[];
}

export interface DiffSearchOutcome {
  /** At most `count`, newest first. */
  readonly commits: readonly CommitHit[];
  /** More matching commits exist, or the search stopped before it could tell. */
  readonly limitHit: boolean;
  readonly timedOut: boolean;
  /** Commits whose diffs were read, out of `candidates`. */
  readonly scanned: number;
  readonly candidates: number;
  /** Commits too large to read within the output bound. */
  readonly skipped: number;
}

const BATCH = 40;
/** Lines of context around each change: enough to read a hunk, few enough to keep answers small. */
export const DIFF_CONTEXT_LINES = 1;
const BATCH_MAX_BYTES = 32 * 1024 * 1024;
const LIST_MAX_BYTES = 256 * 1024 * 1024;

export async function searchDiffs(pool: DiffLineRunner, gitDir: string, request: DiffSearchRequest): Promise<DiffSearchOutcome> {
  let candidates: CommitMeta[];
  try {
    candidates = await wanted(pool, await listCommits(gitDir, request.tips, boundsUntil(request.deadline, LIST_MAX_BYTES)), request);
  } catch (err) {
    if (!isTimeout(err)) throw err;
    return { commits: [], limitHit: true, timedOut: true, scanned: 0, candidates: 0, skipped: 0 };
  }
  return scanCommitDiffs(pool, gitDir, candidates.map((c) => c.oid), request);
}

export type DiffScanRequest = Pick<DiffSearchRequest, 'pattern' | 'added' | 'removed' | 'count' | 'deadline' | 'signal'>;

/** Reads the diffs of commits already chosen (newest first) and keeps those whose changed lines match. */
export async function scanCommitDiffs(pool: DiffLineRunner, gitDir: string, candidates: readonly string[], request: DiffScanRequest): Promise<DiffSearchOutcome> {
  const found: CommitHit[] = [];
  let scanned = 0;
  let skipped = 0;
  let timedOut = false;
  for (let i = 0; i < candidates.length && found.length <= request.count; i += BATCH) {
    if (Date.now() >= request.deadline || request.signal?.aborted) {
      timedOut = true;
      break;
    }
    const batch = candidates.slice(i, i + BATCH);
    try {
      const read = await readBatch(gitDir, batch, request.deadline);
      skipped += read.skipped;
      const perCommit = await matchCommitDiffs(pool, read.diffs, request);
      for (const [j, commit] of read.diffs.entries()) {
        scanned++;
        const hunks = perCommit[j]!;
        if (hunks.length > 0) found.push({ commit, hunks });
        if (found.length > request.count) break;
      }
    } catch (err) {
      if (!isTimeout(err) && !isStopped(err)) throw err;
      timedOut = true;
      break;
    }
  }
  const limitHit = found.length > request.count || timedOut;
  return { commits: found.slice(0, request.count), limitHit, timedOut, scanned, candidates: candidates.length, skipped };
}

/** The commits within the dates whose author and message pass the metadata filter (regexes matched in the pool). */
async function wanted(pool: DiffLineRunner, commits: readonly CommitMeta[], request: DiffSearchRequest): Promise<CommitMeta[]> {
  const scope = Uint8Array.from(commits, (commit) => {
    const time = Date.parse(commit.committerDate);
    return (request.after === null || time >= request.after.getTime()) && (request.before === null || time <= request.before.getTime()) ? 1 : 0;
  });
  const texts = (field: CommitField): TextList => ({ texts: commits.map(field === 'message' ? (c) => c.message : (c) => personText(c.authorName, c.authorEmail)) });
  const kept = request.metadata === null ? scope : await applyCommitFilter(request.metadata, texts, scope, pool, request);
  return commits.filter((_, i) => kept[i] === 1);
}

/** A batch too large for the output bound is read commit by commit; single commits still too large are skipped and counted. */
async function readBatch(gitDir: string, oids: readonly string[], deadline: number): Promise<{ diffs: Awaited<ReturnType<typeof readCommitDiffs>>; skipped: number }> {
  try {
    return { diffs: await readCommitDiffs(gitDir, oids, DIFF_CONTEXT_LINES, boundsUntil(deadline, BATCH_MAX_BYTES)), skipped: 0 };
  } catch (err) {
    if (!isOversized(err)) throw err;
  }
  if (oids.length === 1) return { diffs: [], skipped: 1 };
  const diffs = [];
  let skipped = 0;
  for (const oid of oids) {
    const one = await readBatch(gitDir, [oid], deadline);
    diffs.push(...one.diffs);
    skipped += one.skipped;
  }
  return { diffs, skipped };
}

function boundsUntil(deadline: number, maxBytes: number): GitBounds {
  return { timeoutMs: Math.max(1, deadline - Date.now()), maxBytes };
}

function isTimeout(err: unknown): boolean {
  return isQuarryError(err, 'GIT_FAILED') && err.details['timedOut'] === true;
}

/** The pool stopped the batch's matching: its deadline passed or the search was cancelled. */
function isStopped(err: unknown): boolean {
  return isQuarryError(err, 'TIMEOUT') || isQuarryError(err, 'ABORTED');
}

function isOversized(err: unknown): boolean {
  return isQuarryError(err, 'GIT_FAILED') && typeof err.details['maxBytes'] === 'number';
}
