/**
 * One page of a diff search: the candidate commits of one or more repositories merged into one
 * newest-first list, whose diffs are read from a position on in batches (from the history index
 * when it holds them, else through git) and matched in the worker pool until one more than `count`
 * commits matched. Every hit carries its position in the list, so a later page can start exactly
 * where this one stopped. No line is matched on this thread.
 */
import { isQuarryError } from '../errors.js';
import { answersOf } from './diff-answers.js';
import { matchCommitDiffs, type BatchMatchRequest } from './diff-batch-match.js';
import { readCommitDiffs, type GitBounds } from './diff-git.js';
import type { DiffIndexReader } from './diff-index-filter.js';
import { searchedKinds, type DiffLineRunner } from './diff-lines.js';
import type { CommitDiff, CommitHit, CommitMeta } from './diff-model.js';

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
/** Pool tasks a batch's stored records are split in: one per thread of the usual pool. */
const RECORD_TASKS = 2;
/** Fewer records than this per task cost more in round trips than they gain. */
const MIN_RECORDS_PER_TASK = 4;
/** Lines of context around each change: enough to read a hunk, few enough to keep answers small. */
export const DIFF_CONTEXT_LINES = 1;
/** Output bound of one read: a commit whose diff alone is larger is skipped (and counted), never indexed. */
export const DIFF_READ_MAX_BYTES = 32 * 1024 * 1024;

/** One source's candidates, for as long as its list (a cached walk's) lives. */
const single = new WeakMap<readonly CommitMeta[], readonly DiffCandidate[]>();

/**
 * Each source's commits (newest first as git lists them) merged into one list by committer date,
 * newest first; ties go to the lower source, and each source keeps its own order.
 */
export function mergeNewestFirst(lists: readonly (readonly CommitMeta[])[]): readonly DiffCandidate[] {
  if (lists.length === 1) {
    let alone = single.get(lists[0]!);
    if (alone === undefined) single.set(lists[0]!, (alone = lists[0]!.map((commit) => ({ source: 0, oid: commit.oid }))));
    return alone;
  }
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
 * read. A candidate at a position `toRead` answers false for is known not to match (the history
 * index says so) and is passed over without reading; it keeps its position, so pages and cursors
 * stay the same. `toRead` is asked only about the positions the page reaches, once each.
 */
export async function scanDiffPage(pool: DiffLineRunner, sources: readonly DiffReadSource[], candidates: readonly DiffCandidate[], start: number, request: DiffPageRequest, toRead?: (position: number) => boolean): Promise<DiffPage> {
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
    const read: boolean[] = [];
    while (end < candidates.length && batch.length < batchSize) {
      read.push(toRead === undefined || toRead(end));
      if (read.at(-1)) batch.push(candidates[end]!);
      end++;
    }
    batchSize = Math.min(BATCH, batchSize * 2);
    let matched: Matched;
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
      const one = read[at - position] ? matched.get(candidate.oid) : undefined;
      if (one !== undefined) {
        found.push({ source: candidate.source, position: at, hit: one });
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

type Matched = Map<string, CommitHit>;
type Answers = ReturnType<typeof answersOf>;

/**
 * Per source in the batch, its stored records matched in pool tasks (the worker inflates and
 * parses them, and answers only the hits) while git reads the commits the index does not hold,
 * whose diffs one more task matches. Commits skipped as too large are absent; so are those that
 * do not match.
 */
async function readAndMatch(pool: DiffLineRunner, sources: readonly DiffReadSource[], batch: readonly DiffCandidate[], request: DiffPageRequest): Promise<{ matched: Matched; skipped: number }> {
  const bySource = new Map<number, string[]>();
  for (const { source, oid } of batch) bySource.set(source, [...(bySource.get(source) ?? []), oid]);
  const matched: Matched = new Map();
  const done = await Promise.all([...bySource].map(async ([source, oids]) => {
    const { index, gitDir } = sources[source]!;
    const known = index === null ? null : answersOf(index, JSON.stringify([request.pattern, searchedKinds(request.added, request.removed)]));
    const stored = storedRecords(index, oids);
    const unknown = oids.filter((oid, i) => {
      const answer = stored[i] === undefined ? undefined : known!.get(oid);
      if (answer !== undefined && answer !== null) matched.set(oid, answer);
      return answer === undefined;
    });
    const [fromGit] = await Promise.all([
      matchFromGit(pool, gitDir, oids.filter((_, i) => stored[i] === undefined), request, matched),
      ...recordTasks(stored, oids, unknown).map((task) => matchRecords(pool, task, request, matched, known!)),
    ]);
    return fromGit;
  }));
  return { matched, skipped: done.reduce((n, skipped) => n + skipped, 0) };
}

/** Each commit's stored record, deflated, or undefined when the index does not hold it. */
function storedRecords(index: DiffIndexReader | null, oids: readonly string[]): (Uint8Array | undefined)[] {
  return oids.map((oid) => {
    const ordinal = index?.ordinalOf(oid);
    return ordinal === undefined ? undefined : index!.deflatedRecord(ordinal);
  });
}

/** The stored records of a batch not yet answered, split in at most RECORD_TASKS tasks so the pool's threads share a large batch. */
function recordTasks(stored: readonly (Uint8Array | undefined)[], oids: readonly string[], unknown: readonly string[]): { oids: string[]; records: Uint8Array[] }[] {
  const wanted = new Set(unknown);
  const held = stored.flatMap((record, i) => (record === undefined || !wanted.has(oids[i]!) ? [] : [{ oid: oids[i]!, record }]));
  const size = Math.max(MIN_RECORDS_PER_TASK, Math.ceil(held.length / RECORD_TASKS));
  const tasks = [];
  for (let at = 0; at < held.length; at += size) {
    const part = held.slice(at, at + size);
    tasks.push({ oids: part.map((p) => p.oid), records: part.map((p) => p.record) });
  }
  return tasks;
}

async function matchRecords(pool: DiffLineRunner, task: { oids: readonly string[]; records: readonly Uint8Array[] }, request: DiffPageRequest, matched: Matched, known: Answers): Promise<void> {
  const ends = new Uint32Array(task.records.length);
  let bytes = 0;
  task.records.forEach((record, i) => (ends[i] = bytes += record.length));
  // Its own ArrayBuffer, so transferring it detaches nothing else.
  const records = new Uint8Array(bytes);
  task.records.forEach((record, i) => records.set(record, i === 0 ? 0 : ends[i - 1]!));
  const job = { records, ends, pattern: request.pattern, searched: searchedKinds(request.added, request.removed), deadline: request.deadline };
  const { hits } = await pool.submit('diff-records', job, { signal: request.signal, deadline: request.deadline });
  hits.forEach((hit, i) => {
    if (hit !== null) matched.set(task.oids[i]!, hit);
    known.set(task.oids[i]!, hit);
  });
}

/** The commits the index does not hold, read through git and matched in one task; answers how many were too large to read. */
async function matchFromGit(pool: DiffLineRunner, gitDir: string, oids: readonly string[], request: DiffPageRequest, matched: Matched): Promise<number> {
  if (oids.length === 0) return 0;
  const read = await readBatch(gitDir, oids, request.deadline);
  const perCommit = await matchCommitDiffs(pool, read.diffs, request);
  read.diffs.forEach((commit, i) => {
    if (perCommit[i]!.length > 0) matched.set(commit.oid, { commit, hunks: perCommit[i]! });
  });
  return read.skipped;
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
