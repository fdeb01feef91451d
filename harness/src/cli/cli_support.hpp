#pragma once
// Small pieces several commands share.
#include <cstdint>
#include <optional>
#include <string>

#include "core/locations.hpp"
#include "core/result.hpp"
#include "graders/grader.hpp"
#include "pipeline/check_submission.hpp"
#include "spec/spec_loader.hpp"

namespace cugrade {

/// Prints "cugrade: <message>" to stderr and returns `code`.
int complain(const std::string& message, int code);

/// "auto" | "cuda" | "cpu" → Backend; anything else is an error naming the choices.
Result<Backend> parse_backend(const std::string& text);

/// The course secret from `secret_file` (if given) or $CUGRADE_COURSE_SECRET; nullopt when
/// neither is set. The text is hashed to 64 bits; an unreadable or empty file is an error.
Result<std::optional<std::uint64_t>> course_secret(const std::string& secret_file);

}  // namespace cugrade
