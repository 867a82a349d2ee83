// lineSpans(): newlines are found with memchr/memrchr and counted 16 bytes at a time (SSE2, which
// every CPU Hyperscan runs on has), so the cost is one pass over the hay, not a call per line.
#include "lines.h"

#include <emmintrin.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "args.h"
#include "status.h"

namespace quarry_hs {

namespace {

size_t CountNewlines(const uint8_t* from, const uint8_t* to) {
  const __m128i newline = _mm_set1_epi8('\n');
  size_t total = 0;
  while (to - from >= 16) {
    // Per-byte counters would wrap after 255 blocks, so they are folded into `total` that often.
    const size_t blocks = std::min<size_t>(static_cast<size_t>(to - from) / 16, 255);
    __m128i counts = _mm_setzero_si128();
    for (size_t i = 0; i < blocks; i++, from += 16) {
      const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(from));
      counts = _mm_sub_epi8(counts, _mm_cmpeq_epi8(bytes, newline));
    }
    const __m128i sums = _mm_sad_epu8(counts, _mm_setzero_si128());
    total += static_cast<size_t>(_mm_cvtsi128_si64(sums) + _mm_cvtsi128_si64(_mm_unpackhi_epi64(sums, sums)));
  }
  for (; from < to; from++) total += *from == '\n';
  return total;
}

// memchr and memrchr over [from, to), as offsets from `base`; `none` when there is no newline.
// An empty range never reaches libc, whose behaviour for a null pointer is undefined.
size_t NextNewline(const uint8_t* base, size_t from, size_t to, size_t none) {
  if (from >= to) return none;
  const void* found = std::memchr(base + from, '\n', to - from);
  return found == nullptr ? none : static_cast<const uint8_t*>(found) - base;
}

size_t LastNewline(const uint8_t* base, size_t from, size_t to, size_t none) {
  if (from >= to) return none;
  const void* found = memrchr(base + from, '\n', to - from);
  return found == nullptr ? none : static_cast<const uint8_t*>(found) - base;
}

}  // namespace

Napi::Value LineSpans(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const char* usage = "lineSpans(hay: Uint8Array, offsets: Int32Array, count: number, out: Int32Array)";
  Napi::Uint8Array hay = TypedArrayArg<Napi::Uint8Array>(info, 0, napi_uint8_array, usage);
  Napi::Int32Array offsets = TypedArrayArg<Napi::Int32Array>(info, 1, napi_int32_array, usage);
  Napi::Int32Array out = TypedArrayArg<Napi::Int32Array>(info, 3, napi_int32_array, usage);
  if (!info[2].IsNumber()) throw Napi::TypeError::New(env, usage);
  const double requested = info[2].As<Napi::Number>().DoubleValue();
  if (!(requested >= 0) || requested != std::floor(requested) || requested > offsets.ElementLength()) {
    throw Napi::RangeError::New(env, "count must be an integer from 0 to offsets.length");
  }
  const size_t count = static_cast<size_t>(requested);
  auto status = [&](Status code) { return Napi::Number::New(env, code); };
  const size_t length = hay.ElementLength();
  if (length > static_cast<size_t>(INT32_MAX)) return status(HAY_TOO_LARGE);
  if (out.ElementLength() / 3 < count) return status(OUT_TOO_SMALL);

  const uint8_t* base = hay.Data();
  const int32_t* at = offsets.Data();
  int32_t* spans = out.Data();
  // The line before the first offset "ends" at a virtual newline at -1, so the first offset
  // always starts a new line; from then on lineEnd is a newline's offset or the hay's length.
  int64_t lineEnd = -1;
  size_t line = 0;
  size_t lineStart = 0;
  int32_t previous = 0;
  for (size_t i = 0; i < count; i++) {
    const int32_t offset = at[i];
    if (offset < previous || static_cast<size_t>(offset) > length) return status(OFFSETS_INVALID);
    previous = offset;
    if (offset > lineEnd) {
      const size_t from = static_cast<size_t>(lineEnd + 1);
      const size_t target = static_cast<size_t>(offset);
      line += (lineEnd >= 0 ? 1 : 0) + CountNewlines(base + from, base + target);
      const size_t last = LastNewline(base, from, target, SIZE_MAX);
      lineStart = last == SIZE_MAX ? from : last + 1;
      lineEnd = static_cast<int64_t>(NextNewline(base, target, length, length));
    }
    spans[i * 3] = static_cast<int32_t>(line);
    spans[i * 3 + 1] = static_cast<int32_t>(lineStart);
    spans[i * 3 + 2] = static_cast<int32_t>(lineEnd);
  }
  return Napi::Number::New(env, static_cast<double>(count));
}

}  // namespace quarry_hs
