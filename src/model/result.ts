/**
 * Search results as the engine produces them: the stream API's match shapes (reference §3.4)
 * with 0-based line numbers and [offset, length] pairs counted in Unicode code points.
 */
import type { SearchStats } from './stats.js';
import type { SourceRange } from './symbols.js';

export type OffsetAndLength = readonly [number, number];

export interface LineMatch {
  readonly line: string;
  readonly lineNumber: number;
  readonly offsetAndLengths: readonly OffsetAndLength[];
}

/** Sourcegraph's symbol kinds (LSP names, upper case), as GraphQL and the stream API spell them. */
export type SymbolKindName =
  | 'FUNCTION' | 'METHOD' | 'CLASS' | 'INTERFACE' | 'ENUM' | 'VARIABLE' | 'CONSTANT' | 'FIELD'
  | 'PROPERTY' | 'MODULE' | 'NAMESPACE' | 'CONSTRUCTOR' | 'ENUMMEMBER';

/** A symbol definition carried by a file match (`type:symbol`, `select:symbol`). */
export interface SymbolMatch {
  readonly name: string;
  /** The enclosing definition's name, or null at file level. */
  readonly containerName: string | null;
  readonly kind: SymbolKindName;
  readonly language: string;
  /** Visible outside its file; Sourcegraph's `fileLocal` is the opposite. */
  readonly exported: boolean;
  /** The name's range: 0-based lines, columns in UTF-16 code units. */
  readonly range: SourceRange;
}

export interface FileMatch {
  readonly type: 'content' | 'path' | 'symbol';
  readonly repository: string;
  readonly repositoryID: number;
  readonly commit: string;
  readonly branches: readonly string[];
  readonly path: string;
  readonly language: string | null;
  readonly lineMatches: readonly LineMatch[];
  /** Code point ranges in the path matched by pattern terms. */
  readonly pathMatches: readonly OffsetAndLength[];
  /** Lines matched (content), symbols (symbol) or 1 (path only). */
  readonly matchCount: number;
  readonly score: number;
  /** Definitions matched by the query: set on `symbol` matches and by select:symbol's input. */
  readonly symbols?: readonly SymbolMatch[];
}

export interface RepoMatch {
  readonly type: 'repo';
  readonly repository: string;
  readonly repositoryID: number;
  readonly branches: readonly string[];
  readonly fork: boolean;
  readonly archived: boolean;
}

/** A commit found by `type:commit` (reference §3.4 `commit` event), its message as the matched content. */
export interface CommitMatch {
  readonly type: 'commit';
  readonly repository: string;
  readonly repositoryID: number;
  readonly oid: string;
  readonly message: string;
  readonly authorName: string;
  readonly authorEmail: string;
  /** RFC 3339. */
  readonly authorDate: string;
  readonly committerName: string;
  readonly committerEmail: string;
  readonly committerDate: string;
  readonly parents: readonly string[];
  /** Pattern matches in the message as [line, character, length], 0-based lines of the message. */
  readonly ranges: readonly (readonly [number, number, number])[];
  /** Always 1: one commit is one match. */
  readonly matchCount: number;
  /** `type:diff` only: the matching hunks as text, and the matches in it. */
  readonly diffPreview?: DiffPreview;
}

/**
 * Matching hunks as Sourcegraph formats a diff preview: per file a `oldPath newPath` line, then
 * each hunk's `@@ -a,b +c,d @@ section` header and its lines with their ` `, `+` or `-` prefix.
 */
export interface DiffPreview {
  readonly value: string;
  /** [line, character, length]: 0-based line and code point column in `value` (the prefix is column 0). */
  readonly ranges: readonly (readonly [number, number, number])[];
}

export type SearchMatch = FileMatch | RepoMatch | CommitMatch;

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
