#pragma once
// Small pieces several commands share.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "core/course_secret.hpp"
#include "core/locations.hpp"
#include "core/result.hpp"
#include "device/gpu_claim.hpp"
#include "graders/grader.hpp"
#include "pipeline/check_submission.hpp"
#include "spec/spec_loader.hpp"

namespace cugrade {

/// Prints "cugrade: <message>" to stderr and returns `code`.
int complain(const std::string& message, int code);

/// A path the user typed, made absolute against the current folder once, at the edge, so that
/// no later stage (a compiler run in another folder) reads it against the wrong one; "" stays "".
std::filesystem::path absolute_path(const std::string& typed);

/// Why `--backend cuda` cannot grade on this machine (`device` has no usable GPU): a fault of the
/// set-up, said once, never a grade of 0.
std::string no_gpu_message(const DeviceInfo& device);

/// GPU 0 claimed for a whole command (selftest, bench, calibrate) against other cugrade processes
/// (device/gpu_claim.hpp), a wait and a failed claim said on stderr; nothing where no GPU is
/// present or no claim could be made.
std::optional<GpuClaim> claim_gpu_for_command(const DeviceInfo& device);

/// "auto" | "cuda" | "cpu" → Backend; anything else is an error naming the choices (and, for
/// "gpu" and its kin, which one is the GPU's).
Result<Backend> parse_backend(const std::string& text);

/// The course secret from `secret_file` (if given) or $CUGRADE_COURSE_SECRET; nullopt when
/// neither is set. Kept as bytes (a file's trailing line break dropped); the variable is removed
/// from this process's environment once read. An unreadable or empty file is an error.
Result<std::optional<CourseSecret>> course_secret(const std::string& secret_file);

}  // namespace cugrade
