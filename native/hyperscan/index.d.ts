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
   * Scans `hay` (not retained, not modified) and writes (patternIndex, start, end) byte-offset
   * triples into `out`, ordered by start then pattern; per pattern non-overlapping and
   * leftmost-longest. Returns the triple count when every triple fit in `out` (the caller owns
   * `out`; nothing past count*3 is touched), else a negative status. On RESULTS_RETAINED the
   * triples stay in this thread's buffer until its next scan: fetch them with takeResults().
   * Retained results may begin with (pattern, -1, -1) markers: patterns whose extents Hyperscan
   * cannot pin down for this hay; their other triples are omitted.
   */
  scan(hay: Uint8Array, utf8: boolean, out: Int32Array): number;
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

/** An empty native call: the floor for boundary-crossing benchmarks. */
export declare function noop(): void;

/** Hyperscan's version string, e.g. "5.4.0 2021-01-26". */
export declare function version(): string;

/** Databases alive in this process across all threads (drops as the GC finalizes them). */
export declare function liveDatabases(): number;

export declare const status: StatusCodes;

/** The raw report cap per scan behind TOO_MANY_REPORTS. */
export declare const maxReports: number;
