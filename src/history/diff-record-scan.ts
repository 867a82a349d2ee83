/**
 * Worker side of diff search over the history index: inflates a batch of stored commit records,
 * parses and matches the changed lines of those that can match (diff-line-scan.ts), and answers
 * only the commits that match, as hits ready to show, so the searching thread parses nothing.
 * Runs only in a pool worker, never on the main thread; the matcher compiler is injected.
 */
import { inflateRecordBytes } from '../index/history/record-codec.js';
import { hunkHits } from './diff-batch-match.js';
import { parseCommitRecord } from './diff-git.js';
import { packDiffLines } from './diff-lines.js';
import { scanDiffLines, type CompileMatcher } from './diff-line-scan.js';
import type { DiffPattern } from './diff-match.js';
import type { CommitDiff, CommitHit } from './diff-model.js';

export interface DiffRecordJob {
  /** Stored records (index/history/record-codec.ts), deflated, back to back. */
  readonly records: Uint8Array;
  /** Record i ends at byte ends[i] of records. */
  readonly ends: Uint32Array;
  readonly pattern: DiffPattern;
  /** LINE_ADDED | LINE_REMOVED bits (diff-lines.ts). */
  readonly searched: number;
}

export interface DiffRecordHits {
  /** Per record, in order: the commit (without its diff) and its matching hunks, or null when it does not match. */
  readonly hits: readonly (CommitHit | null)[];
}

export function scanDiffRecords(job: DiffRecordJob, compile: CompileMatcher): DiffRecordHits {
  const { pattern } = job;
  // A record holds each of its changed lines: when every reported atom is plain text, a record
  // none of them matches has no matching line, and is passed over unparsed.
  const whole = pattern.highlight.every((atom) => pattern.literal[atom] === true) ? pattern.highlight.map((atom) => compile([pattern.specs[atom]!], 'auto')) : null;
  const parsed: CommitDiff[] = [];
  const slots: number[] = [];
  let start = 0;
  job.ends.forEach((end, i) => {
    const bytes = inflateRecordBytes(job.records.subarray(start, end));
    start = end;
    if (whole !== null && whole.every((matcher) => matcher.test(bytes, true) === 0)) return;
    parsed.push(parseCommitRecord(bytes.toString('utf8')));
    slots.push(i);
  });
  const hits: (CommitHit | null)[] = job.ends.length === 0 ? [] : new Array<CommitHit | null>(job.ends.length).fill(null);
  if (parsed.length === 0) return { hits };
  const batch = packDiffLines(parsed);
  const perCommit = batch.ends.length === 0 ? parsed.map(() => []) : hunkHits(parsed, scanDiffLines({ ...batch, pattern, searched: job.searched }, compile));
  perCommit.forEach((hunks, k) => {
    if (hunks.length === 0) return;
    const { files: _files, ...commit } = parsed[k]!;
    hits[slots[k]!] = { commit, hunks };
  });
  return { hits };
}
