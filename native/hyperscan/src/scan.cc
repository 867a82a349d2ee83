// Database.scan(): one hs_scan into per-thread reports, then the per-pattern greedy selection.
#include "scan.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <new>

#include "args.h"
#include "database.h"
#include "scratch.h"
#include "status.h"

namespace quarry_hs {

namespace {

struct ScanContext {
  std::vector<Report>* reports;
  bool overflow;
};

int OnMatch(unsigned id, unsigned long long from, unsigned long long to, unsigned, void* context) {
  ScanContext* scan = static_cast<ScanContext*>(context);
  if (scan->reports->size() >= kMaxReports) {
    scan->overflow = true;
    return 1;
  }
  try {
    scan->reports->push_back({id, static_cast<uint32_t>(from), static_cast<uint32_t>(to)});
  } catch (const std::bad_alloc&) {
    scan->overflow = true;
    return 1;
  }
  return 0;
}

// Hyperscan (with SOM_LEFTMOST) reports, per match end, only the leftmost start. Taking the
// longest report at each start greedily is exact except when a skipped report straddles the end
// of the last taken match: a shorter match with the same end may then start after that end and
// never have been reported. Such patterns are marked "uncertain" (a (pattern, -1, -1) triple at
// the front) so the caller can rerun just them on the reference engine.
bool SelectMatches(const ModeDatabase& database, size_t patternCount, ThreadState& state) {
  std::vector<Report>& reports = state.reports;
  std::vector<int32_t>& results = state.results;
  if (reports.empty()) return false;
  std::sort(reports.begin(), reports.end(), [](const Report& a, const Report& b) {
    if (a.from != b.from) return a.from < b.from;
    if (a.id != b.id) return a.id < b.id;
    return a.to > b.to;
  });
  std::vector<uint32_t>& lastEnd = state.lastEnd;
  std::vector<uint8_t>& uncertain = state.uncertain;
  lastEnd.assign(patternCount, 0);
  uncertain.assign(patternCount, 0);
  bool anyUncertain = false;
  for (const Report& report : reports) {
    const uint32_t id = report.id;
    if (uncertain[id]) continue;
    if (report.from >= lastEnd[id]) {
      results.insert(results.end(), {static_cast<int32_t>(id), static_cast<int32_t>(report.from),
                                     static_cast<int32_t>(report.to)});
      lastEnd[id] = report.to;
    } else if (report.to > lastEnd[id] && !database.fixedWidth[id] &&
               report.to - lastEnd[id] >= database.minWidth[id]) {
      uncertain[id] = 1;
      anyUncertain = true;
    }
  }
  if (!anyUncertain) return false;
  std::vector<int32_t> kept;
  kept.reserve(results.size());
  for (size_t id = 0; id < patternCount; id++) {
    if (uncertain[id]) kept.insert(kept.end(), {static_cast<int32_t>(id), -1, -1});
  }
  for (size_t i = 0; i < results.size(); i += 3) {
    if (!uncertain[results[i]]) kept.insert(kept.end(), results.begin() + i, results.begin() + i + 3);
  }
  results.swap(kept);
  return true;
}

}  // namespace

Napi::Value Database::Scan(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const char* usage = "scan(hay: Uint8Array, utf8: boolean, out: Int32Array)";
  Napi::Uint8Array hay = TypedArrayArg<Napi::Uint8Array>(info, 0, napi_uint8_array, usage);
  const bool utf8 = info[1].ToBoolean().Value();
  Napi::Int32Array out = TypedArrayArg<Napi::Int32Array>(info, 2, napi_int32_array, usage);
  ThreadState& state = GetThreadState(env);
  state.results.clear();
  state.reports.clear();
  auto status = [&](Status code) { return Napi::Number::New(env, code); };

  // Uint8Array's cached ElementLength equals its byte length and avoids another N-API query.
  const size_t hayLength = hay.ElementLength();
  if (hayLength > static_cast<size_t>(INT32_MAX)) return status(HAY_TOO_LARGE);
  ModeDatabase* database = ForHay(utf8);
  if (database == nullptr) return status(BYTE_MODE_UNAVAILABLE);
  if (!database->scratchReady) {
    if (EnsureScratch(state, database->db) != HS_SUCCESS) return status(SCAN_FAILED);
    database->scratchReady = true;
  }

  ScanContext context{&state.reports, false};
  const char* data = hayLength > 0 ? reinterpret_cast<const char*>(hay.Data()) : "";
  const hs_error_t rc = hs_scan(database->db, data, static_cast<unsigned>(hayLength), 0,
                                state.scratch, OnMatch, &context);
  if (context.overflow) {
    state.reports.clear();
    TrimBuffers(state);
    return status(TOO_MANY_REPORTS);
  }
  if (rc != HS_SUCCESS) return status(SCAN_FAILED);

  const bool uncertain = SelectMatches(*database, patternCount(), state);
  state.reports.clear();
  TrimBuffers(state);
  if (uncertain || state.results.size() > out.ElementLength()) return status(RESULTS_RETAINED);
  if (!state.results.empty()) {
    std::memcpy(out.Data(), state.results.data(), state.results.size() * sizeof(int32_t));
  }
  return Napi::Number::New(env, static_cast<double>(state.results.size() / 3));
}

Napi::Value TakeResults(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Napi::Int32Array out = TypedArrayArg<Napi::Int32Array>(info, 0, napi_int32_array, "takeResults(out: Int32Array)");
  const std::vector<int32_t>& results = GetThreadState(env).results;
  if (!results.empty() && results.size() <= out.ElementLength()) {
    std::memcpy(out.Data(), results.data(), results.size() * sizeof(int32_t));
  }
  return Napi::Number::New(env, static_cast<double>(results.size() / 3));
}

}  // namespace quarry_hs
