// A compiled Hyperscan pattern set wrapped as a JS object; native memory is freed by the GC finalizer.
#pragma once

#include <hs/hs.h>
#include <napi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "scratch.h"

namespace quarry_hs {

// One compiled database (UTF-8 or byte mode) plus the per-pattern widths the scan post-pass needs.
struct ModeDatabase {
  hs_database_t* db = nullptr;
  std::vector<uint32_t> minWidth;
  std::vector<uint8_t> fixedWidth;
  size_t bytes = 0;
  // Set once this thread's scratch has been grown for `db` (a Database never leaves its thread).
  bool scratchReady = false;
};

struct CompileOutcome {
  ModeDatabase database;
  int32_t status = 0;
  int32_t index = -1;
  std::string message;
};

class Database : public Napi::ObjectWrap<Database> {
 public:
  static Napi::Function DefineClass(Napi::Env env);
  static Napi::Value Compile(const Napi::CallbackInfo& info);
  // Databases alive in this process (all threads); lets tests observe GC finalization.
  static int64_t LiveCount();

  explicit Database(const Napi::CallbackInfo& info);
  ~Database() override;

  size_t patternCount() const { return expressions_.size(); }
  // The database for this kind of hay; compiles the byte-mode one on first use, null if it cannot.
  ModeDatabase* ForHay(bool utf8);
  // ForHay's match-or-not twin for test(): no start of match, at most one report per pattern.
  // Compiled on first use, null if it cannot be.
  ModeDatabase* ForTest(bool utf8);

 private:
  Napi::Value Scan(const Napi::CallbackInfo& info);
  Napi::Value Test(const Napi::CallbackInfo& info);
  Napi::Value PatternCount(const Napi::CallbackInfo& info);
  // Bytes of the databases compiled so far (the lazily compiled forms included once they exist).
  Napi::Value Bytes(const Napi::CallbackInfo& info);
  void Adopt(ModeDatabase& target, ModeDatabase&& source);
  ModeDatabase* CompileOnce(ModeDatabase& slot, bool& failed, bool utf8, bool forTest);

  std::vector<std::string> expressions_;
  std::vector<uint8_t> caseless_;
  ModeDatabase utf8_;
  ModeDatabase bytes_;
  ModeDatabase testUtf8_;
  ModeDatabase testBytes_;
  bool bytesFailed_ = false;
  bool testUtf8Failed_ = false;
  bool testBytesFailed_ = false;
  int64_t externalBytes_ = 0;
};

}  // namespace quarry_hs
