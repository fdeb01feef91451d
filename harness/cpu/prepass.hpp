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
/// once. Inside the body of a device-only function (`__global__`, `__device__` without
/// `__host__`) __CUDA_ARCH__ reads `cuda_arch` (900: sm_90), as in nvcc's device pass: `#ifdef`
/// true, `#ifndef` false, `defined(...)` 1; elsewhere it stays undefined, as in nvcc's host pass.
/// Fails (with file:line) on a launch or declaration it cannot parse, or includes nested past 32
/// levels.
Result<std::string> cuda_to_cpp(std::string_view source, const std::string& file_name,
                                const HeaderReader& read_header = {}, int cuda_arch = 900);

/// __CUDA_ARCH__ for nvcc's `-arch` value: 750 for "sm_75", 900 for "sm_90a" or "compute_90";
/// 900 for anything else (an empty one included).
int cuda_arch_number(std::string_view arch);

/// A HeaderReader over the file system.
HeaderReader read_headers_from_disk();

}  // namespace cugrade::cpu
