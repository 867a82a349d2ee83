// Per-thread state: one Hyperscan scratch and the reusable report/result vectors of one JS thread.
#pragma once

#include <hs/hs.h>
#include <napi.h>

#include <cstdint>
#include <vector>

namespace quarry_hs {

struct Report {
  uint32_t id;
  uint32_t from;
  uint32_t to;
};

// Lives in N-API instance data, so each worker thread (each Node environment) owns exactly one.
struct ThreadState {
  hs_scratch_t* scratch = nullptr;
  std::vector<Report> reports;
  // Per-pattern working state of the post-pass, reused so a scan does not allocate.
  std::vector<uint32_t> lastEnd;
  std::vector<uint8_t> uncertain;
  // Triples of the last scan on this thread, kept for takeResults().
  std::vector<int32_t> results;
  Napi::FunctionReference databaseConstructor;

  ThreadState() = default;
  ThreadState(const ThreadState&) = delete;
  ThreadState& operator=(const ThreadState&) = delete;
  ~ThreadState();
};

void InitThreadState(Napi::Env env);
ThreadState& GetThreadState(Napi::Env env);

// Grows this thread's scratch so it also serves `db`; scratch only ever grows, so a database
// checked once stays valid for the thread's lifetime.
hs_error_t EnsureScratch(ThreadState& state, const hs_database_t* db);

// Drops oversized buffers left by an unusually large scan so an idle worker does not hold them.
void TrimBuffers(ThreadState& state);

}  // namespace quarry_hs
