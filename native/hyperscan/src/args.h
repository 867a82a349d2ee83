// Argument checks for the exported functions: a wrongly typed array must throw, never be misread.
#pragma once

#include <napi.h>

namespace quarry_hs {

template <typename T>
T TypedArrayArg(const Napi::CallbackInfo& info, size_t index, napi_typedarray_type type, const char* usage) {
  if (!info[index].IsTypedArray()) throw Napi::TypeError::New(info.Env(), usage);
  T array = info[index].As<T>();
  if (array.TypedArrayType() != type) throw Napi::TypeError::New(info.Env(), usage);
  return array;
}

}  // namespace quarry_hs
