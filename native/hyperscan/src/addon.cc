// Module init: per-thread state, the Database class, and the exported functions and status codes.
#include <hs/hs.h>
#include <napi.h>

#include "database.h"
#include "lines.h"
#include "scan.h"
#include "scratch.h"
#include "status.h"

namespace quarry_hs {

namespace {

void Noop(const Napi::CallbackInfo&) {}

Napi::Value Version(const Napi::CallbackInfo& info) {
  return Napi::String::New(info.Env(), hs_version());
}

Napi::Value LiveDatabases(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), static_cast<double>(Database::LiveCount()));
}

Napi::Object StatusCodes(Napi::Env env) {
  Napi::Object codes = Napi::Object::New(env);
  codes.Set("RESULTS_RETAINED", Napi::Number::New(env, RESULTS_RETAINED));
  codes.Set("TOO_MANY_REPORTS", Napi::Number::New(env, TOO_MANY_REPORTS));
  codes.Set("BYTE_MODE_UNAVAILABLE", Napi::Number::New(env, BYTE_MODE_UNAVAILABLE));
  codes.Set("HAY_TOO_LARGE", Napi::Number::New(env, HAY_TOO_LARGE));
  codes.Set("SCAN_FAILED", Napi::Number::New(env, SCAN_FAILED));
  codes.Set("COMPILE_FAILED", Napi::Number::New(env, COMPILE_FAILED));
  codes.Set("EMPTY_MATCH", Napi::Number::New(env, EMPTY_MATCH));
  codes.Set("TOO_MANY_PATTERNS", Napi::Number::New(env, TOO_MANY_PATTERNS));
  codes.Set("OUT_TOO_SMALL", Napi::Number::New(env, OUT_TOO_SMALL));
  codes.Set("OFFSETS_INVALID", Napi::Number::New(env, OFFSETS_INVALID));
  codes.Freeze();
  return codes;
}

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  InitThreadState(env);
  Napi::Function databaseClass = Database::DefineClass(env);
  GetThreadState(env).databaseConstructor = Napi::Persistent(databaseClass);
  exports.Set("Database", databaseClass);
  exports.Set("compile", Napi::Function::New<Database::Compile>(env, "compile"));
  exports.Set("takeResults", Napi::Function::New<TakeResults>(env, "takeResults"));
  exports.Set("lineSpans", Napi::Function::New<LineSpans>(env, "lineSpans"));
  exports.Set("noop", Napi::Function::New<Noop>(env, "noop"));
  exports.Set("version", Napi::Function::New<Version>(env, "version"));
  exports.Set("liveDatabases", Napi::Function::New<LiveDatabases>(env, "liveDatabases"));
  exports.Set("status", StatusCodes(env));
  exports.Set("maxReports", Napi::Number::New(env, static_cast<double>(kMaxReports)));
  exports.Set("maxTestPatterns", Napi::Number::New(env, static_cast<double>(kMaxTestPatterns)));
  return exports;
}

}  // namespace

}  // namespace quarry_hs

static Napi::Object InitModule(Napi::Env env, Napi::Object exports) {
  return quarry_hs::Init(env, exports);
}

NODE_API_MODULE(hyperscan, InitModule)
