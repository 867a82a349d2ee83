// Database.test(): which patterns occur at all, as a bitmask, from the lighter test database.
#include <cstdint>

#include "args.h"
#include "database.h"
#include "scratch.h"
#include "status.h"

namespace quarry_hs {

namespace {

struct TestContext {
  uint32_t found;
  uint32_t all;
};

// Each pattern reports at most once (HS_FLAG_SINGLEMATCH); once every one has, the rest of the
// hay cannot change the answer, so the scan stops (HS_SCAN_TERMINATED, not an error here).
int OnFirstMatch(unsigned id, unsigned long long, unsigned long long, unsigned, void* context) {
  TestContext* test = static_cast<TestContext*>(context);
  test->found |= uint32_t{1} << id;
  return test->found == test->all ? 1 : 0;
}

}  // namespace

Napi::Value Database::Test(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Napi::Uint8Array hay = TypedArrayArg<Napi::Uint8Array>(info, 0, napi_uint8_array, "test(hay: Uint8Array, utf8: boolean)");
  const bool utf8 = info[1].ToBoolean().Value();
  auto status = [&](Status code) { return Napi::Number::New(env, code); };

  if (patternCount() > kMaxTestPatterns) return status(TOO_MANY_PATTERNS);
  const size_t hayLength = hay.ElementLength();
  if (hayLength > static_cast<size_t>(INT32_MAX)) return status(HAY_TOO_LARGE);
  // Where scan() cannot run in byte mode the caller answers with the reference engine; test()
  // must give that same answer, so it refuses in the same place.
  if (!utf8 && ForHay(false) == nullptr) return status(BYTE_MODE_UNAVAILABLE);
  ModeDatabase* database = ForTest(utf8);
  if (database == nullptr) return status(COMPILE_FAILED);
  ThreadState& state = GetThreadState(env);
  if (!database->scratchReady) {
    if (EnsureScratch(state, database->db) != HS_SUCCESS) return status(SCAN_FAILED);
    database->scratchReady = true;
  }

  TestContext context{0, static_cast<uint32_t>((uint64_t{1} << patternCount()) - 1)};
  const char* data = hayLength > 0 ? reinterpret_cast<const char*>(hay.Data()) : "";
  const hs_error_t rc = hs_scan(database->db, data, static_cast<unsigned>(hayLength), 0,
                                state.scratch, OnFirstMatch, &context);
  if (rc != HS_SUCCESS && rc != HS_SCAN_TERMINATED) return status(SCAN_FAILED);
  return Napi::Number::New(env, static_cast<double>(context.found));
}

}  // namespace quarry_hs
