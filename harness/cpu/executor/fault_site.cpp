// Why the program counter and not a location recorded at each access: a kernel's global accesses
// are checked by the hardware (guard pages and the unmapped reach around every allocation,
// memory.cpp), so the hot path costs nothing; only a fault, once per failing case, pays for
// reading the line tables.
#include "fault_site.hpp"

#include <cstdint>
#include <mutex>
#include <string_view>

#if defined(CUGRADE_CPU_HAS_BACKTRACE) && __has_include(<backtrace.h>)
#include <backtrace.h>
#define CUGRADE_CPU_LINE_TABLES 1
#endif

namespace cugrade_cpu {

#ifdef CUGRADE_CPU_LINE_TABLES
namespace {

/// Whether `file` lies in a folder named include (the shim headers, libstdc++, GCC's own): code
/// there is not the student's, and the inlined frame around it is.
bool in_include_folder(std::string_view file) {
  return file.starts_with("include/") || file.find("/include/") != std::string_view::npos;
}

struct Found {
  std::string file;
  int line = 0;
};

// libbacktrace calls this for each frame at the PC, innermost (inlined) first; returning
// non-zero stops it.
int on_frame(void* data, std::uintptr_t, const char* file, int line, const char*) {
  if (!file || line <= 0 || in_include_folder(file)) return 0;
  auto* found = static_cast<Found*>(data);
  found->file = file;
  found->line = line;
  return 1;
}

void on_error(void*, const char*, int) {}  // no line tables: the message goes without a line

std::mutex mutex;

}  // namespace

std::string source_site_of(const void* pc) {
  if (!pc) return {};
  std::lock_guard lock(mutex);
  // Made at the first fault, not at start: most runs never fault. Reads /proc/self/exe.
  static backtrace_state* state = backtrace_create_state(nullptr, 0, on_error, nullptr);
  if (!state) return {};
  Found found;
  backtrace_pcinfo(state, reinterpret_cast<std::uintptr_t>(pc), on_frame, on_error, &found);
  if (found.line <= 0) return {};
  std::string_view file = found.file;
  if (auto slash = file.rfind('/'); slash != std::string_view::npos) file.remove_prefix(slash + 1);
  return std::string(file) + ":" + std::to_string(found.line);
}
#else
std::string source_site_of(const void*) { return {}; }
#endif

}  // namespace cugrade_cpu
