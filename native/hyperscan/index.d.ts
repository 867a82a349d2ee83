/**
 * Hand-written types for the Hyperscan addon (native/hyperscan/src). Only numbers, booleans and
 * buffers cross the boundary on the scan path; strings cross only when compiling.
 *
 * Threading: every Node thread (main or worker) that loads the addon gets its own scratch space
 * and its own retained-results buffer. A Database belongs to the thread that compiled it (JS
 * objects cannot move between threads); compile the same patterns again in each worker.
 */

/** Named status codes; scan() returns one of these (all negative) when it returns no count. */
export interface StatusCodes {
  /** Results did not fit `out`, or some patterns need the reference engine: call takeResults(). */
  readonly RESULTS_RETAINED: -1;
  /** More than `maxReports` raw reports; the scan was stopped and nothing is retained. */
  readonly TOO_MANY_REPORTS: -2;
  /** The hay is not UTF-8 and the set does not compile in byte mode. */
  readonly BYTE_MODE_UNAVAILABLE: -3;
  /** The hay is 2 GiB or larger; offsets would not fit an Int32Array. */
  readonly HAY_TOO_LARGE: -4;
  /** Hyperscan could not allocate scratch or failed while scanning. */
  readonly SCAN_FAILED: -5;
  /** compile(): Hyperscan rejected a pattern (syntax, or a construct it lacks). */
  readonly COMPILE_FAILED: -6;
  /** compile(): a pattern can match the empty string (Hyperscan would report at every offset). */
  readonly EMPTY_MATCH: -7;
  /** test(): the set has more than `maxTestPatterns` patterns. */
  readonly TOO_MANY_PATTERNS: -8;
  /** lineSpans(): `out` holds fewer than count * 3 entries. */
  readonly OUT_TOO_SMALL: -9;
  /** lineSpans(): an offset is negative, past the hay's end, or below the offset before it. */
  readonly OFFSETS_INVALID: -10;
}

/** A compile() refusal, as data: which pattern (or -1 for the whole set) and Hyperscan's message. */
export interface CompileFailure {
  readonly status: StatusCodes['COMPILE_FAILED'] | StatusCodes['EMPTY_MATCH'];
  readonly index: number;
  readonly message: string;
}

/**
 * A compiled pattern set: a UTF-8 database made by compile(), plus a byte-mode database made on
 * the first scan of non-UTF-8 hay. Native memory is freed when the GC collects this object;
 * there is no explicit free. Use it only on the thread that created it.
 */
export declare class Database {
  private constructor();
  readonly patternCount: number;
  /**
   * Native bytes of the databases compiled so far: the UTF-8 one, and the byte-mode and
   * match-or-not ones once a scan or test has compiled them. Scratch space (per thread) not included.
   */
  readonly bytes: number;
  /**
   * Scans `hay` (not retained, not modified) and writes (patternIndex, start, end) byte-offset
   * triples into `out`, ordered by start then pattern; per pattern non-overlapping and
   * leftmost-longest. Returns the triple count when every triple fit in `out` (the caller owns
   * `out`; nothing past count*3 is touched), else a negative status. On RESULTS_RETAINED the
   * triples stay in this thread's buffer until its next scan: fetch them with takeResults().
   * Retained results may begin with (pattern, -1, -1) markers: patterns whose extents Hyperscan
   * cannot pin down for this hay; their other triples are omitted. Throws TypeError when `hay`
   * is not a Uint8Array (a Buffer is one) or `out` not an Int32Array.
   */
  scan(hay: Uint8Array, utf8: boolean, out: Int32Array): number;
  /**
   * Which patterns occur in `hay`, as a bitmask (bit i: pattern i), from a second database of
   * the same expressions and flags without start-of-match and with HS_FLAG_SINGLEMATCH, compiled
   * on the first test() (UTF-8 or byte mode, as `utf8` says) and stopped once every pattern has
   * been seen. A bit is set exactly when scan() would report that pattern. Negative statuses:
   * TOO_MANY_PATTERNS (more than `maxTestPatterns`), HAY_TOO_LARGE, BYTE_MODE_UNAVAILABLE (where
   * scan() would return it too), COMPILE_FAILED (the test database did not compile), SCAN_FAILED.
   */
  test(hay: Uint8Array, utf8: boolean): number;
}

/**
 * Compiles `expressions` (Hyperscan syntax; `^`/`$` are line anchors) into one database;
 * `caseless[i]` is 1 for a case-insensitive pattern. Returns the Database, or a CompileFailure
 * (never throws for a bad pattern; throws TypeError/RangeError for malformed arguments).
 */
export declare function compile(expressions: readonly string[], caseless: Uint8Array): Database | CompileFailure;

/**
 * Copies the triples retained by this thread's last scan into `out` when they all fit (else copies
 * nothing) and returns their count, so a caller can grow `out` to count*3 and call again.
 */
export declare function takeResults(out: Int32Array): number;

/**
 * For each of the first `count` offsets in `offsets` (ascending, each from 0 to hay.length),
 * writes three ints to `out` at 3*i: the 0-based line number (the '\n' bytes before the offset),
 * the line's start (just past the previous '\n', or 0) and its end (the first '\n' at or after
 * the offset, or hay.length). One pass over the hay up to the last line end. `out` must not
 * overlap `offsets`. Returns `count`, or OUT_TOO_SMALL, OFFSETS_INVALID or HAY_TOO_LARGE (what
 * `out` then holds is unspecified). Throws TypeError for wrongly typed arguments and RangeError
 * when `count` is not an integer from 0 to offsets.length.
 */
export declare function lineSpans(hay: Uint8Array, offsets: Int32Array, count: number, out: Int32Array): number;

/** An empty native call: the floor for boundary-crossing benchmarks. */
export declare function noop(): void;

/** Hyperscan's version string, e.g. "5.4.0 2021-01-26". */
export declare function version(): string;

/** Databases alive in this process across all threads (drops as the GC finalizes them). */
export declare function liveDatabases(): number;

export declare const status: StatusCodes;

/** The raw report cap per scan behind TOO_MANY_REPORTS. */
export declare const maxReports: number;

/** The largest pattern set Database#test() answers for (31: the mask stays a non-negative int32). */
export declare const maxTestPatterns: number;
