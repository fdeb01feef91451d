#pragma once
// Task markers: under compute-sanitizer the runner's stdout is where the sanitizer's reports
// land, interleaved with what the program prints, in the order things happened. With
// CUGRADE_TASK_MARKERS=1 in its environment the runner writes, before each check task's call,
// one line naming the task and one line per buffer (name, address, bytes), so the harness can
// tell which case a report belongs to and which array an address lies in. Shared by the runner
// (which writes them) and the harness (sanitize/, which reads them).
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace cugrade {

/// The environment variable that turns the markers on ("1").
inline constexpr const char* task_markers_variable = "CUGRADE_TASK_MARKERS";
/// Whether this process runs with the markers on (under compute-sanitizer): read once, at the
/// first call, so that the runner can take the variable out of its environment afterwards
/// (sanitizer_traces.hpp).
inline bool task_markers_on() {
  static const bool on = [] {
    const char* value = std::getenv(task_markers_variable);
    return value && std::strcmp(value, "1") == 0;
  }();
  return on;
}
/// "==cugrade-task== <task id>": the lines after it belong to that task.
inline constexpr const char* task_marker_prefix = "==cugrade-task== ";
/// "==cugrade-buffer== <name> 0x<address> <bytes>": one of the task's arrays.
inline constexpr const char* buffer_marker_prefix = "==cugrade-buffer== ";

/// The buffer line of array `name` at `address`, `bytes` long (no newline).
inline std::string buffer_marker(const std::string& name, const void* address, std::size_t bytes) {
  char text[64];
  std::snprintf(text, sizeof text, " %p %zu", address, bytes);
  return buffer_marker_prefix + name + text;
}

}  // namespace cugrade
