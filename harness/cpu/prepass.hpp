#pragma once
// The CPU backend's source pre-pass (design.md §8): turns a CUDA file into C++ the host compiler
// accepts together with the shim headers in harness/cpu/include.
#include <string>
#include <string_view>

#include "core/result.hpp"

namespace cugrade::cpu {

/// Rewrites `kernel<<<grid, block[, smem[, stream]]>>>(args)` into a call of
/// ::cugrade_cpu::launch and `extern __shared__ T name[];` into an access to the block's dynamic
/// shared memory; everything else is copied unchanged. The output starts with a #line directive
/// naming `file_name` and keeps every line on its original number, so compiler messages point
/// at the student's own lines. Fails (with file:line) on a launch or declaration it cannot parse.
Result<std::string> cuda_to_cpp(std::string_view source, const std::string& file_name);

}  // namespace cugrade::cpu
