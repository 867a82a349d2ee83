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
  /**
   * Whether the Hyperscan form needs HS_FLAG_CASELESS; defaults to `caseless`. src/regex spells
   * case variants out instead (`[fF]`), which Hyperscan runs two to three times faster.
   */
  readonly hyperscanCaseless?: boolean;
}

export type MatcherEngine = 'hyperscan' | 'js';

export type Support = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/**
 * Matches found by one scan, as (patternIndex, start, end) byte-offset triples in `data`,
 * `count` triples long. Per pattern the matches do not overlap and are ordered by start; each
 * starts at the leftmost position where the pattern matches after the previous one ended.
 * The whole list is ordered by (start, patternIndex). Extents differ by engine where a pattern is
 * ambiguous: Hyperscan's are leftmost-longest, the JS engine's leftmost-first (`a|ab` on "ab").
 * The view is valid only until the next `scan` on the same matcher.
 */
export interface MatchList {
  readonly count: number;
  readonly data: Int32Array;
}

/** The most patterns test() answers for: bit 30 is the highest that keeps its mask non-negative. */
export const MAX_TEST_PATTERNS = 31;

export interface CompiledMatcher {
  readonly engine: MatcherEngine;
  readonly patternCount: number;
  /**
   * Memory this matcher holds: native databases exactly, compiled RegExps estimated from their
   * sources (V8 does not tell), match buffers as allocated. Forms compiled on first use (byte mode,
   * match-or-not) add to it, so read it again after use. Caches weigh entries by it.
   */
  readonly retainedBytes: number;
  /** `utf8` says whether `hay` is valid UTF-8; invalid input is matched byte by byte. */
  scan(hay: Uint8Array, utf8: boolean): MatchList;
  /**
   * Which patterns occur in `hay`, without their extents: bit i is set exactly when scan() with
   * the same arguments would report at least one match for pattern i (zero-width ones included).
   * Cheaper than scan(), so callers test every candidate and scan only those that qualify.
   * Returns -1 ("unknown: call scan") for sets of more than MAX_TEST_PATTERNS patterns. Like a
   * scan, it may invalidate the MatchList of the previous scan.
   */
  test(hay: Uint8Array, utf8: boolean): number;
}

export interface MatcherFactory {
  readonly engine: MatcherEngine;
  supports(patterns: readonly PatternSpec[]): Support;
  /** Throws QuarryError('PATTERN_UNSUPPORTED' | 'PATTERN_INVALID') when it cannot compile. */
  compile(patterns: readonly PatternSpec[]): CompiledMatcher;
}
