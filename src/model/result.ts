/**
 * Search results as the engine produces them: the stream API's match shapes (reference §3.4)
 * with 0-based line numbers and [offset, length] pairs counted in Unicode code points.
 */
import type { SearchStats } from './stats.js';

export type OffsetAndLength = readonly [number, number];

export interface LineMatch {
  readonly line: string;
  readonly lineNumber: number;
  readonly offsetAndLengths: readonly OffsetAndLength[];
}

export interface FileMatch {
  readonly type: 'content' | 'path';
  readonly repository: string;
  readonly repositoryID: number;
  readonly commit: string;
  readonly branches: readonly string[];
  readonly path: string;
  readonly language: string | null;
  readonly lineMatches: readonly LineMatch[];
  /** Code point ranges in the path matched by pattern terms. */
  readonly pathMatches: readonly OffsetAndLength[];
  /** Lines matched (content) or 1 (path only). */
  readonly matchCount: number;
  readonly score: number;
}

export interface RepoMatch {
  readonly type: 'repo';
  readonly repository: string;
  readonly repositoryID: number;
  readonly branches: readonly string[];
  readonly fork: boolean;
  readonly archived: boolean;
}

export type SearchMatch = FileMatch | RepoMatch;

export interface SkippedNotice {
  readonly reason: 'shard-match-limit' | 'shard-timeout' | 'repository-missing' | 'repository-fork' | 'excluded-archive' | 'shard-failed';
  readonly title: string;
  readonly message: string;
  readonly severity: 'info' | 'warn';
  readonly suggested?: { readonly title: string; readonly queryExpression: string };
}

export interface SearchResponse {
  readonly matches: readonly SearchMatch[];
  /** Sum of matchCount over matches (before display truncation). */
  readonly matchCount: number;
  readonly limitHit: boolean;
  readonly skipped: readonly SkippedNotice[];
  readonly stats: SearchStats;
  /** The canonical form of the parsed query. */
  readonly query: string;
}
