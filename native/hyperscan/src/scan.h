// Block scans: raw Hyperscan reports become per-pattern, non-overlapping, leftmost-longest triples.
#pragma once

#include <napi.h>

namespace quarry_hs {

// takeResults(out: Int32Array): number — copies the last scan's retained triples when they fit.
Napi::Value TakeResults(const Napi::CallbackInfo& info);

}  // namespace quarry_hs
