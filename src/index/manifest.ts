/**
 * A repository's live index: which segments serve it, which of their docs newer segments replaced,
 * and what was skipped. Swapped whole, in one catalog transaction, when an index run completes.
 */

export interface SegmentRef {
  /** Directory name under data/index/segments. */
  readonly id: string;
  readonly docCount: number;
  /** Ascending doc ids of this segment that a newer segment or a deletion replaced. */
  readonly deleted: readonly number[];
}

export type SkipReason = 'binary' | 'too-large';

export interface SkippedFile {
  readonly path: string;
  readonly reason: SkipReason;
  readonly size: number;
}

/** Symbol extraction over a repository's live documents (index time). */
export interface SymbolCounts {
  /** Files with symbol tables. */
  readonly files: number;
  /** Text files of a language without symbol support (still indexed as text). */
  readonly unsupported: number;
  /** Too large or minified for symbol extraction. */
  readonly skipped: number;
  /** The parse threw or ran out of time. */
  readonly failed: number;
}

export interface Manifest {
  readonly formatVersion: number;
  readonly repo: string;
  readonly repoId: number;
  readonly commit: string;
  readonly branch: string;
  readonly indexedAt: string;
  readonly fork: boolean;
  readonly archived: boolean;
  /** Oldest first. */
  readonly segments: readonly SegmentRef[];
  readonly skipped: readonly SkippedFile[];
  /** Live (not deleted) documents and their bytes. */
  readonly files: number;
  readonly bytes: number;
  /** Absent when the index was built without symbols, or while they are being extracted. */
  readonly symbols?: SymbolCounts;
  /** Set while some live segment still lacks the symbol tables wanted (the symbols phase has not finished). */
  readonly symbolsPending?: boolean;
}

export function liveDocCount(manifest: Manifest): number {
  return manifest.segments.reduce((n, s) => n + s.docCount - s.deleted.length, 0);
}
