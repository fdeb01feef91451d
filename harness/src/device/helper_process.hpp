#pragma once
// Running one of the GPU helper binaries (cugrade-probe, cugrade-calibrate) and turning every
// way it can fail into one sentence.
#include <filesystem>
#include <string>

#include "core/result.hpp"
#include "process/process_runner.hpp"

namespace cugrade {

/// Runs `binary` (described as `what` in messages, e.g. "the GPU probe") with a scrubbed
/// environment and returns its stdout when it exits 0. A non-zero exit fails with the "error"
/// of the JSON it printed, or else the first line of its stderr.
Result<std::string> run_helper(ProcessRunner& runner, const std::filesystem::path& binary,
                               const std::string& what, double timeout_s);

/// The first line of `output`, cut to 200 characters (for messages quoting a program's output).
std::string first_line(const std::string& output);

}  // namespace cugrade
