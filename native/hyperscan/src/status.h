// Named status codes returned across the N-API boundary; mirrored in src/matcher/hyperscan-status.ts.
#pragma once

#include <cstddef>
#include <cstdint>

namespace quarry_hs {

enum Status : int32_t {
  // Results did not fit the caller's buffer, or some patterns need the reference engine: call takeResults().
  RESULTS_RETAINED = -1,
  // The scan produced more than kMaxReports raw reports and was stopped.
  TOO_MANY_REPORTS = -2,
  // The hay is not UTF-8 and the pattern set cannot be compiled in byte mode.
  BYTE_MODE_UNAVAILABLE = -3,
  // Offsets would not fit an Int32Array.
  HAY_TOO_LARGE = -4,
  // Hyperscan failed to allocate scratch or to scan.
  SCAN_FAILED = -5,
  // Hyperscan rejected a pattern (syntax or unsupported construct).
  COMPILE_FAILED = -6,
  // A pattern can match the empty string; those are left to the JS engine.
  EMPTY_MATCH = -7,
  // test() on a set of more than kMaxTestPatterns patterns: the bitmask cannot hold them.
  TOO_MANY_PATTERNS = -8,
  // lineSpans(): `out` holds fewer than count * 3 entries.
  OUT_TOO_SMALL = -9,
  // lineSpans(): an offset is negative, past the hay's end, or smaller than the one before it.
  OFFSETS_INVALID = -10,
};

// Raw reports (one per match end) kept per scan; beyond this the scan stops with TOO_MANY_REPORTS.
constexpr size_t kMaxReports = size_t{4} << 20;

// test() answers with an int32 bitmask that stays non-negative, so it never reads as a status.
constexpr size_t kMaxTestPatterns = 31;

}  // namespace quarry_hs
