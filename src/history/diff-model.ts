/**
 * Diffs as the history tools read them: commits → files → hunks → lines with their numbers on
 * each side, and the hits a diff search finds in them. Plain data only; parsing lives in
 * diff-parse.ts, git access in diff-git.ts.
 */

export interface DiffLine {
  /** '+' added, '-' removed, ' ' context. */
  readonly kind: '+' | '-' | ' ';
  readonly text: string;
  /** 1-based line in the old file, or null for an added line. */
  readonly oldLine: number | null;
  /** 1-based line in the new file, or null for a removed line. */
  readonly newLine: number | null;
}

export interface DiffRange {
  /** 1-based; for an empty range git names the line before it (0 at the top of the file). */
  readonly startLine: number;
  readonly lines: number;
}

export interface DiffHunk {
  readonly oldRange: DiffRange;
  readonly newRange: DiffRange;
  /** The function or section header git prints after the second `@@`, or '' when none. */
  readonly section: string;
  readonly lines: readonly DiffLine[];
  /** True when the old (resp. new) side's last line has no final newline. */
  readonly oldNoNewlineAtEnd: boolean;
  readonly newNoNewlineAtEnd: boolean;
}

export type FileStatus = 'added' | 'deleted' | 'modified' | 'renamed' | 'copied';

export interface FileDiff {
  /** null for an added file. */
  readonly oldPath: string | null;
  /** null for a deleted file. */
  readonly newPath: string | null;
  readonly status: FileStatus;
  /** Binary changes carry no hunks and count no lines, as in `git diff --numstat` ("-"). */
  readonly binary: boolean;
  readonly hunks: readonly DiffHunk[];
  readonly added: number;
  readonly deleted: number;
}

export interface CommitMeta {
  readonly oid: string;
  readonly parents: readonly string[];
  readonly authorName: string;
  readonly authorEmail: string;
  /** RFC 3339 in UTC. */
  readonly authorDate: string;
  /** RFC 3339 in UTC: the date `git log --since/--until` compare with. */
  readonly committerDate: string;
  readonly message: string;
}

/** A commit and its changes against its parent (an empty list for an empty commit or a merge). */
export interface CommitDiff extends CommitMeta {
  readonly files: readonly FileDiff[];
}

/** A changed line a diff search matched. */
export interface LineHit {
  readonly line: DiffLine;
  /** [start, end) code point offsets in the line's text. */
  readonly ranges: readonly (readonly [number, number])[];
}

/** A hunk with the changed lines a diff search matched in it. */
export interface HunkHit {
  readonly oldPath: string | null;
  readonly newPath: string | null;
  readonly hunk: DiffHunk;
  readonly hits: readonly LineHit[];
}

/** A commit a diff search matched, with its matching hunks. */
export interface CommitHit {
  readonly commit: CommitMeta;
  readonly hunks: readonly HunkHit[];
}

/** The path a file diff is shown under: the new path unless the file was deleted. */
export function displayPath(file: FileDiff): string {
  return file.newPath ?? file.oldPath ?? '';
}

export function subjectOf(message: string): string {
  return message.split('\n', 1)[0] ?? '';
}
