// Compiles pattern sets (hs_compile_multi, per-pattern flags) and owns the resulting databases.
#include "database.h"

#include <atomic>
#include <cstdlib>
#include <utility>

#include "args.h"
#include "scratch.h"
#include "status.h"

namespace quarry_hs {

namespace {

std::atomic<int64_t> liveDatabases{0};

// The pending result handed to the constructor through an External during compile().
struct PendingDatabase {
  std::vector<std::string> expressions;
  std::vector<uint8_t> caseless;
  ModeDatabase utf8;
};

// A test database drops start-of-match tracking (the costly part of scanning) and reports each
// pattern once; its expressions and other flags equal the scan database's, so its verdicts do too.
unsigned PatternFlags(bool caseless, bool utf8, bool forTest) {
  unsigned flags = HS_FLAG_MULTILINE | (forTest ? HS_FLAG_SINGLEMATCH : HS_FLAG_SOM_LEFTMOST);
  if (caseless) flags |= HS_FLAG_CASELESS;
  if (utf8) flags |= HS_FLAG_UTF8;
  return flags;
}

CompileOutcome Failure(int32_t status, int32_t index, std::string message) {
  CompileOutcome outcome;
  outcome.status = status;
  outcome.index = index;
  outcome.message = std::move(message);
  return outcome;
}

CompileOutcome CompileMode(const std::vector<std::string>& expressions,
                           const std::vector<uint8_t>& caseless, bool utf8, bool forTest) {
  const size_t count = expressions.size();
  std::vector<const char*> sources(count);
  std::vector<unsigned> flags(count);
  std::vector<unsigned> ids(count);
  CompileOutcome outcome;
  outcome.database.minWidth.resize(count);
  outcome.database.fixedWidth.resize(count);
  for (size_t i = 0; i < count; i++) {
    sources[i] = expressions[i].c_str();
    flags[i] = PatternFlags(caseless[i] != 0, utf8, forTest);
    ids[i] = static_cast<unsigned>(i);
    hs_expr_info_t* info = nullptr;
    hs_compile_error_t* error = nullptr;
    // Per-pattern info first: it names the failing pattern and yields widths for the scan post-pass.
    if (hs_expression_info(sources[i], flags[i], &info, &error) != HS_SUCCESS) {
      std::string message = error != nullptr ? error->message : "unknown Hyperscan error";
      hs_free_compile_error(error);
      return Failure(COMPILE_FAILED, static_cast<int32_t>(i), std::move(message));
    }
    const unsigned minWidth = info->min_width;
    const unsigned maxWidth = info->max_width;
    std::free(info);
    if (minWidth == 0) {
      return Failure(EMPTY_MATCH, static_cast<int32_t>(i), "pattern can match the empty string");
    }
    outcome.database.minWidth[i] = minWidth;
    outcome.database.fixedWidth[i] = minWidth == maxWidth ? 1 : 0;
  }
  hs_compile_error_t* error = nullptr;
  const hs_error_t rc = hs_compile_multi(sources.data(), flags.data(), ids.data(),
                                         static_cast<unsigned>(count), HS_MODE_BLOCK, nullptr,
                                         &outcome.database.db, &error);
  if (rc != HS_SUCCESS) {
    std::string message = error != nullptr ? error->message : "unknown Hyperscan error";
    const int32_t index = error != nullptr ? error->expression : -1;
    hs_free_compile_error(error);
    return Failure(COMPILE_FAILED, index, std::move(message));
  }
  hs_database_size(outcome.database.db, &outcome.database.bytes);
  return outcome;
}

}  // namespace

Napi::Function Database::DefineClass(Napi::Env env) {
  return ObjectWrap<Database>::DefineClass(
      env, "Database",
      {InstanceMethod<&Database::Scan>("scan"),
       InstanceMethod<&Database::Test>("test"),
       InstanceAccessor<&Database::PatternCount>("patternCount"),
       InstanceAccessor<&Database::Bytes>("bytes")});
}

Napi::Value Database::Compile(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const char* usage = "compile(expressions: string[], caseless: Uint8Array)";
  if (!info[0].IsArray()) throw Napi::TypeError::New(env, usage);
  Napi::Array list = info[0].As<Napi::Array>();
  Napi::Uint8Array caseless = TypedArrayArg<Napi::Uint8Array>(info, 1, napi_uint8_array, usage);
  const uint32_t count = list.Length();
  if (count == 0 || caseless.ElementLength() != count) {
    throw Napi::RangeError::New(env, "need one caseless flag per expression, and at least one expression");
  }
  PendingDatabase pending;
  pending.expressions.reserve(count);
  for (uint32_t i = 0; i < count; i++) {
    Napi::Value item = list.Get(i);
    if (!item.IsString()) throw Napi::TypeError::New(env, "expressions must be strings");
    pending.expressions.push_back(item.As<Napi::String>().Utf8Value());
  }
  pending.caseless.assign(caseless.Data(), caseless.Data() + count);
  CompileOutcome outcome = CompileMode(pending.expressions, pending.caseless, true, false);
  if (outcome.status != 0) {
    Napi::Object failure = Napi::Object::New(env);
    failure.Set("status", Napi::Number::New(env, outcome.status));
    failure.Set("index", Napi::Number::New(env, outcome.index));
    failure.Set("message", Napi::String::New(env, outcome.message));
    return failure;
  }
  pending.utf8 = std::move(outcome.database);
  ThreadState& state = GetThreadState(env);
  return state.databaseConstructor.New({Napi::External<PendingDatabase>::New(env, &pending)});
}

Database::Database(const Napi::CallbackInfo& info) : ObjectWrap<Database>(info) {
  if (info.Length() != 1 || !info[0].IsExternal()) {
    throw Napi::TypeError::New(info.Env(), "Database objects are made by compile()");
  }
  PendingDatabase* pending = info[0].As<Napi::External<PendingDatabase>>().Data();
  expressions_ = std::move(pending->expressions);
  caseless_ = std::move(pending->caseless);
  liveDatabases++;
  Adopt(utf8_, std::move(pending->utf8));
}

Database::~Database() {
  if (utf8_.db != nullptr) hs_free_database(utf8_.db);
  for (ModeDatabase* lazy : {&bytes_, &testUtf8_, &testBytes_}) {
    if (lazy->db != nullptr) hs_free_database(lazy->db);
  }
  liveDatabases--;
  if (externalBytes_ != 0) {
    // The C call, not the wrapper: a worker's environment may be tearing down, the call then fails,
    // and the wrapper would throw out of a destructor (std::terminate).
    int64_t adjusted = 0;
    napi_adjust_external_memory(Env(), -externalBytes_, &adjusted);
  }
}

void Database::Adopt(ModeDatabase& target, ModeDatabase&& source) {
  target = std::move(source);
  externalBytes_ += static_cast<int64_t>(target.bytes);
  // Tells V8 how much native memory this small wrapper keeps alive, so GC pressure is honest.
  Napi::MemoryManagement::AdjustExternalMemory(Env(), static_cast<int64_t>(target.bytes));
}

ModeDatabase* Database::ForHay(bool utf8) {
  if (utf8) return &utf8_;
  return CompileOnce(bytes_, bytesFailed_, false, false);
}

ModeDatabase* Database::ForTest(bool utf8) {
  return utf8 ? CompileOnce(testUtf8_, testUtf8Failed_, true, true)
              : CompileOnce(testBytes_, testBytesFailed_, false, true);
}

ModeDatabase* Database::CompileOnce(ModeDatabase& slot, bool& failed, bool utf8, bool forTest) {
  if (slot.db != nullptr) return &slot;
  if (failed) return nullptr;
  CompileOutcome outcome = CompileMode(expressions_, caseless_, utf8, forTest);
  if (outcome.status != 0) {
    failed = true;
    return nullptr;
  }
  Adopt(slot, std::move(outcome.database));
  return &slot;
}

int64_t Database::LiveCount() { return liveDatabases.load(); }

Napi::Value Database::Bytes(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), static_cast<double>(externalBytes_));
}

Napi::Value Database::PatternCount(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), static_cast<double>(expressions_.size()));
}

}  // namespace quarry_hs
