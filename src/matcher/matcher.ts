/**
 * The matcher seam: a compiled set of patterns that finds match ranges in a byte buffer.
 * Implementations (Hyperscan, JS reference) export `createXMatcherFactory()` with this shape;
 * nothing here knows about the index, the query language, or threads.
 */

/** One pattern, already translated into each engine's dialect by `src/regex`. */
export interface PatternSpec {
  /** Hyperscan source, or null when the pattern needs constructs Hyperscan lacks (backreferences, look-around). */
  readonly hyperscan: string | null;
  /** JavaScript RegExp source, for use with the `u` flag (plus `i` when caseless). */
  readonly js: string;
  readonly caseless: boolean;
}

export type MatcherEngine = 'hyperscan' | 'js';

export type Support = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/**
 * Matches found by one scan, as (patternIndex, start, end) byte-offset triples in `data`,
 * `count` triples long. Per pattern the matches do not overlap and are ordered by start; each
 * starts at the leftmost position where the pattern matches after the previous one ended.
 * The view is valid only until the next `scan` on the same matcher.
 */
export interface MatchList {
  readonly count: number;
  readonly data: Int32Array;
}

export interface CompiledMatcher {
  readonly engine: MatcherEngine;
  readonly patternCount: number;
  /** `utf8` says whether `hay` is valid UTF-8; invalid input is matched byte by byte. */
  scan(hay: Uint8Array, utf8: boolean): MatchList;
}

export interface MatcherFactory {
  readonly engine: MatcherEngine;
  supports(patterns: readonly PatternSpec[]): Support;
  /** Throws QuarryError('PATTERN_UNSUPPORTED' | 'PATTERN_INVALID') when it cannot compile. */
  compile(patterns: readonly PatternSpec[]): CompiledMatcher;
}
