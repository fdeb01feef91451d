#pragma once
// What every stage of a check shares: its progress lines and its clock.
#include <chrono>
#include <string>

#include "pipeline/check_submission.hpp"

namespace cugrade {

/// Passes `line` to the check's progress callback, when it has one.
inline void say(const CheckOptions& options, const std::string& line) {
  if (options.progress) options.progress(line);
}

/// Seconds since `start`.
inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace cugrade
