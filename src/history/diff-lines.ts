/**
 * The added and removed lines of a batch of commits packed to cross to a worker (one UTF-8 buffer
 * plus offsets, all transferable), the matches a worker sends back, the same for stored records
 * (diff-record-scan.ts), and DiffLineRunner, the part of the worker pool that carries them.
 * Packing only: no matching.
 */
import { ADDED_LINE, REMOVED_LINE } from '../index/history/diff-postings.js';
import type { CommitDiff, CommitHit, DiffLine } from './diff-model.js';
import type { DiffPattern } from './diff-match.js';
import type { TextMatchJob, TextMatches } from './text-batch.js';
import type { RunnerOptions } from './text-atoms.js';

export const LINE_ADDED = ADDED_LINE;
export const LINE_REMOVED = REMOVED_LINE;

export interface DiffLineBatch {
  /** Every line's text as UTF-8, back to back. */
  readonly text: Uint8Array;
  /** Line i ends at byte ends[i] of text. */
  readonly ends: Uint32Array;
  /** LINE_ADDED or LINE_REMOVED per line. */
  readonly flags: Uint8Array;
  /** Commit i owns the lines before line index commitEnds[i]. */
  readonly commitEnds: Uint32Array;
}

export interface DiffLineJob extends DiffLineBatch {
  readonly pattern: DiffPattern;
  /** LINE_ADDED | LINE_REMOVED bits: the lines searched; the others get no ranges and do not count for the pattern's expression. */
  readonly searched: number;
}

export interface DiffLineMatches {
  /** Per line, how many ranges it has. */
  readonly counts: Uint32Array;
  /** [start, end) code point pairs, line after line, in the order each line reports them. */
  readonly ranges: Uint32Array;
  /** Per commit, 1 when the pattern's expression accepts it (always 1 without one). */
  readonly accepted: Uint8Array;
}

export interface DiffRecordJob {
  /** Stored records (index/history/record-codec.ts), deflated, back to back. */
  readonly records: Uint8Array;
  /** Record i ends at byte ends[i] of records. */
  readonly ends: Uint32Array;
  readonly pattern: DiffPattern;
  /** LINE_ADDED | LINE_REMOVED bits. */
  readonly searched: number;
  /** Answer only whether each record matches (`matched`), without its hits: commit_search needs no more. */
  readonly matchesOnly?: boolean;
}

export interface DiffRecordHits {
  /** Per record, in order: the commit (without its diff) and its matching hunks, or null when it does not match; empty with matchesOnly. */
  readonly hits: readonly (CommitHit | null)[];
  /** Per record, in order: 1 when it matches. */
  readonly matched: Uint8Array;
}

/**
 * What diff search needs of the worker pool: changed lines matched, and regexes over commit
 * metadata (as TextMatchRunner). pool/'s engine pool implements it; declared here so history/
 * never imports pool/, which runs history/'s scanners in its workers.
 */
export interface DiffLineRunner {
  /** Matches a batch in a worker; TIMEOUT past the deadline, ABORTED on the signal. The batch's arrays are transferred. */
  submit(kind: 'diff-lines', task: DiffLineJob & { readonly deadline: number }, options?: RunnerOptions): Promise<DiffLineMatches>;
  /** Matches stored records in a worker, as diff-lines does; the batch's arrays are transferred. */
  submit(kind: 'diff-records', task: DiffRecordJob & { readonly deadline: number }, options?: RunnerOptions): Promise<DiffRecordHits>;
  submit(kind: 'text-match', task: TextMatchJob, options?: RunnerOptions): Promise<TextMatches>;
}

/** The lines a batch carries, in the order packDiffLines packs them: files, hunks, lines. */
export function changedLines(commit: CommitDiff): DiffLine[] {
  return commit.files.flatMap((file) => file.hunks.flatMap((hunk) => hunk.lines.filter((line) => line.kind !== ' ')));
}

export function packDiffLines(commits: readonly CommitDiff[]): DiffLineBatch {
  const perCommit = commits.map(changedLines);
  const lines = perCommit.flat();
  const ends = new Uint32Array(lines.length);
  const flags = new Uint8Array(lines.length);
  const commitEnds = new Uint32Array(commits.length);
  let bytes = 0;
  lines.forEach((line, i) => {
    bytes += Buffer.byteLength(line.text, 'utf8');
    ends[i] = bytes;
    flags[i] = line.kind === '+' ? LINE_ADDED : LINE_REMOVED;
  });
  // Its own ArrayBuffer (never Buffer's shared slab), so transferring it detaches nothing else.
  const text = new Uint8Array(bytes);
  const encoder = new TextEncoder();
  lines.forEach((line, i) => encoder.encodeInto(line.text, text.subarray(i === 0 ? 0 : ends[i - 1]!)));
  let count = 0;
  perCommit.forEach((own, i) => (commitEnds[i] = count += own.length));
  return { text, ends, flags, commitEnds };
}

/** Which lines to search: both kinds unless exactly one is asked for. */
export function searchedKinds(added: boolean, removed: boolean): number {
  const both = added === removed;
  return (both || added ? LINE_ADDED : 0) | (both || removed ? LINE_REMOVED : 0);
}
