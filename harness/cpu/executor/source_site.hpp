#pragma once
// Where in the student's source a thread is, as the executor's messages say it.
#include <cstring>
#include <source_location>
#include <string>
#include <string_view>

namespace cugrade_cpu {

/// "vecadd.cu:12": the file by name only (the build names it by its full path in #line).
inline std::string site(const std::source_location& where) {
  std::string_view file = where.file_name();
  if (auto slash = file.rfind('/'); slash != std::string_view::npos) file.remove_prefix(slash + 1);
  return std::string(file) + ":" + std::to_string(where.line());
}

/// Whether two places are the same line of the same file.
inline bool same_site(const std::source_location& a, const std::source_location& b) {
  return a.line() == b.line() && std::strcmp(a.file_name(), b.file_name()) == 0;
}

}  // namespace cugrade_cpu
