/**
 * Matches one batch of commit diffs in the worker pool, several commits per task so the round
 * trip stays small, and turns the returned ranges back into hunk hits (as the worker that matches
 * stored records does too: diff-record-scan.ts). Never matches here.
 */
import { packDiffLines, searchedKinds, type DiffLineMatches, type DiffLineRunner } from './diff-lines.js';
import type { DiffPattern } from './diff-match.js';
import type { CommitDiff, FileDiff, HunkHit, LineHit } from './diff-model.js';

export interface BatchMatchRequest {
  readonly pattern: DiffPattern;
  readonly added: boolean;
  readonly removed: boolean;
  /** Epoch milliseconds. */
  readonly deadline: number;
  readonly signal?: AbortSignal;
}

/** Per commit, in order, the hunks whose lines matched; empty when none did or the pattern's expression rejects the commit. */
export async function matchCommitDiffs(pool: DiffLineRunner, diffs: readonly CommitDiff[], request: BatchMatchRequest): Promise<HunkHit[][]> {
  const batch = packDiffLines(diffs);
  if (batch.ends.length === 0) return diffs.map(() => []);
  const task = { ...batch, pattern: request.pattern, searched: searchedKinds(request.added, request.removed), deadline: request.deadline };
  const matches = await pool.submit('diff-lines', task, { signal: request.signal, deadline: request.deadline });
  return hunkHits(diffs, matches);
}

/** The packed batch's matches (diff-lines.ts) as each commit's hunk hits, in order; empty for a commit not accepted. */
export function hunkHits(diffs: readonly CommitDiff[], matches: DiffLineMatches): HunkHit[][] {
  const cursor = { line: 0, range: 0 };
  return diffs.map((commit, i) => {
    const hunks = commit.files.flatMap((file) => fileHits(file, matches, cursor));
    return matches.accepted[i] === 1 ? hunks : [];
  });
}

/** Reads the file's changed lines' results in packing order, moving the cursor past them. */
function fileHits(file: FileDiff, matches: DiffLineMatches, cursor: { line: number; range: number }): HunkHit[] {
  const out: HunkHit[] = [];
  for (const hunk of file.hunks) {
    const hits: LineHit[] = [];
    for (const line of hunk.lines) {
      if (line.kind === ' ') continue;
      const count = matches.counts[cursor.line++]!;
      const ranges: [number, number][] = [];
      for (let r = 0; r < count; r++, cursor.range++) ranges.push([matches.ranges[cursor.range * 2]!, matches.ranges[cursor.range * 2 + 1]!]);
      if (count > 0) hits.push({ line, ranges });
    }
    if (hits.length > 0) out.push({ oldPath: file.oldPath, newPath: file.newPath, hunk, hits });
  }
  return out;
}
