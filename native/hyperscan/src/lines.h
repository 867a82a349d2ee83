// lineSpans(): line number, start and end for many ascending byte offsets in one pass over a hay.
#pragma once

#include <napi.h>

namespace quarry_hs {

// lineSpans(hay: Uint8Array, offsets: Int32Array, count: number, out: Int32Array): number
Napi::Value LineSpans(const Napi::CallbackInfo& info);

}  // namespace quarry_hs
