{
  "targets": [
    {
      "target_name": "hyperscan",
      "sources": ["src/addon.cc", "src/database.cc", "src/scratch.cc", "src/scan.cc", "src/test-scan.cc", "src/lines.cc"],
      "include_dirs": ["<!(node -p \"require('node-addon-api').include_dir\")"],
      "libraries": ["-lhs"],
      # A worker terminated while a call runs makes N-API calls fail as the call returns; swallowing the
      # resulting unthrowable exception keeps it from escaping to std::terminate and aborting the process.
      "defines": ["NAPI_VERSION=8", "NAPI_CPP_EXCEPTIONS", "NODE_ADDON_API_DISABLE_DEPRECATED", "NODE_API_SWALLOW_UNTHROWABLE_EXCEPTIONS"],
      "cflags!": ["-fno-exceptions"],
      "cflags_cc!": ["-fno-exceptions"],
      "cflags_cc": ["-std=c++17", "-fexceptions", "-O2", "-Wall", "-Wextra"]
    }
  ]
}
