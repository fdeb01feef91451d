#pragma once
// The CPU backend's source pre-pass (design.md §8): turns a CUDA file into C++ the host compiler
// accepts together with the shim headers in harness/cpu/include.
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "core/result.hpp"

namespace cugrade::cpu {

/// How the pre-pass reads a local header (`#include "name"`, resolved against the directory of
/// the file that includes it): its text, or nullopt when there is no such file.
using HeaderReader = std::function<std::optional<std::string>(const std::filesystem::path& path)>;

/// Rewrites `kernel<<<grid, block[, smem[, stream]]>>>(args)` into a call of
/// ::cugrade_cpu::launch, `extern __shared__ T name[];` into an access to the block's dynamic
/// shared memory, and follows each static `__shared__` declaration with the call that poisons it
/// per block; everything else is copied unchanged. The output starts with a #line directive
/// naming `file_name` and keeps every line on its original number, so compiler messages point
/// at the student's own lines. With `read_header`, each `#include "name"` that it finds next to
/// the including file is replaced by that file, pre-passed the same way between #line
/// directives (so messages point at the header's lines); a header with `#pragma once` is inlined
/// once. Fails (with file:line) on a launch or declaration it cannot parse, or includes nested
/// past 32 levels.
Result<std::string> cuda_to_cpp(std::string_view source, const std::string& file_name,
                                const HeaderReader& read_header = {});

/// A HeaderReader over the file system.
HeaderReader read_headers_from_disk();

}  // namespace cugrade::cpu
