/**
 * Named status codes of the Hyperscan addon, mirrored from native/hyperscan/src/status.h
 * (test/native/hyperscan.test.ts asserts the two agree). Pure data: no addon import here.
 */

export const HyperscanStatus = {
  /** Results did not fit the output buffer, or some patterns need the reference engine. */
  RESULTS_RETAINED: -1,
  /** The scan produced more raw reports than the addon's cap and was stopped. */
  TOO_MANY_REPORTS: -2,
  /** The hay is not UTF-8 and the pattern set does not compile in byte mode. */
  BYTE_MODE_UNAVAILABLE: -3,
  /** The hay is too large for Int32 offsets. */
  HAY_TOO_LARGE: -4,
  /** Hyperscan could not allocate scratch or failed while scanning. */
  SCAN_FAILED: -5,
  /** Hyperscan rejected a pattern. */
  COMPILE_FAILED: -6,
  /** A pattern can match the empty string. */
  EMPTY_MATCH: -7,
  /** test() on a set larger than its bitmask holds. */
  TOO_MANY_PATTERNS: -8,
  /** lineSpans(): the output array holds fewer than count * 3 entries. */
  OUT_TOO_SMALL: -9,
  /** lineSpans(): an offset is negative, past the hay's end, or below the one before it. */
  OFFSETS_INVALID: -10,
} as const;

export type HyperscanStatusName = keyof typeof HyperscanStatus;
export type HyperscanStatusCode = (typeof HyperscanStatus)[HyperscanStatusName];

export function hyperscanStatusName(code: number): HyperscanStatusName | 'UNKNOWN_STATUS' {
  for (const [name, value] of Object.entries(HyperscanStatus)) {
    if (value === code) return name as HyperscanStatusName;
  }
  return 'UNKNOWN_STATUS';
}
