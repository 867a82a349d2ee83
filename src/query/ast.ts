/**
 * The parsed Sourcegraph query: an OR of basic queries, each a set of filters scoped over a
 * boolean expression of pattern atoms (reference §2.6: operators divide filter scope).
 * Plain data only; `queryToString` gives the canonical form used as cache key and in tests.
 */

export type PatternType = 'keyword' | 'standard' | 'literal' | 'regexp';

export type ResultType = 'file' | 'path' | 'repo' | 'symbol' | 'commit' | 'diff';

export type SelectKind = 'repo' | 'file' | 'file.directory' | 'content' | 'symbol' | `symbol.${string}` | 'commit.diff.added' | 'commit.diff.removed';

export type YesNoOnly = 'no' | 'yes' | 'only';

/** One search term. `regexp` atoms hold RE2 syntax; literal atoms hold the exact text. */
export interface PatternAtom {
  readonly kind: 'atom';
  readonly value: string;
  readonly regexp: boolean;
  /** NOT term / -content: — excludes documents that contain it. */
  readonly negated: boolean;
  /** 'content' came from content:, which never matches file paths; 'default' may also match the path in keyword mode. */
  readonly field: 'default' | 'content';
}

export interface PatternAnd {
  readonly kind: 'and';
  readonly children: readonly PatternExpr[];
}

export interface PatternOr {
  readonly kind: 'or';
  readonly children: readonly PatternExpr[];
}

export type PatternExpr = PatternAtom | PatternAnd | PatternOr;

/** A repo: filter; `revs` from repo:x@a:b or rev:. */
export interface RepoFilter {
  readonly pattern: string;
  readonly negated: boolean;
  readonly revs: readonly string[];
}

export interface Filters {
  readonly repos: readonly RepoFilter[];
  /** rev:/revision: values that apply to every included repo. */
  readonly revs: readonly string[];
  readonly files: readonly { readonly pattern: string; readonly negated: boolean }[];
  /** Canonical language names (e.g. 'Go', 'TypeScript'). */
  readonly langs: readonly { readonly name: string; readonly negated: boolean }[];
  readonly caseSensitive: boolean;
  readonly types: readonly ResultType[];
  /** null = the front door's default; 'all' = no limit. */
  readonly count: number | 'all' | null;
  /** Milliseconds, or null for the default. */
  readonly timeoutMs: number | null;
  readonly select: SelectKind | null;
  readonly fork: YesNoOnly | null;
  readonly archived: YesNoOnly | null;
  readonly patternType: PatternType;
  /** Present only when the query has commit filters. */
  readonly commit?: CommitFilters;
}

/** author:, committer:, message:, before:, after: of type:commit and type:diff (reference §2.8). */
export interface CommitFilters {
  /** Regular expressions over `Name <email>` (authors, committers) and the message. */
  readonly authors: readonly NegatableValue[];
  readonly committers: readonly NegatableValue[];
  readonly messages: readonly NegatableValue[];
  /** Dates as written: relative ones are read when the search runs. */
  readonly before: string | null;
  readonly after: string | null;
}

export interface NegatableValue {
  readonly pattern: string;
  readonly negated: boolean;
}

export interface BasicQuery {
  readonly filters: Filters;
  readonly pattern: PatternExpr | null;
}

export interface Query {
  /** Union of results of each basic query. Never empty. */
  readonly basics: readonly BasicQuery[];
}
