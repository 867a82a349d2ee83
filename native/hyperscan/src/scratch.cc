// One Hyperscan scratch per JS thread, held in N-API instance data and freed with the environment.
#include "scratch.h"

namespace quarry_hs {

namespace {
constexpr size_t kKeptReports = size_t{1} << 20;
constexpr size_t kKeptResults = size_t{3} << 20;
}  // namespace

ThreadState::~ThreadState() {
  if (scratch != nullptr) hs_free_scratch(scratch);
}

void InitThreadState(Napi::Env env) {
  env.SetInstanceData<ThreadState>(new ThreadState());
}

ThreadState& GetThreadState(Napi::Env env) {
  return *env.GetInstanceData<ThreadState>();
}

hs_error_t EnsureScratch(ThreadState& state, const hs_database_t* db) {
  return hs_alloc_scratch(db, &state.scratch);
}

void TrimBuffers(ThreadState& state) {
  if (state.reports.capacity() > kKeptReports) std::vector<Report>().swap(state.reports);
  if (state.results.capacity() > kKeptResults && state.results.size() <= kKeptResults) {
    state.results.shrink_to_fit();
  }
}

}  // namespace quarry_hs
