#pragma once
// Filling an output buffer with a 32-bit pattern (an f32 output's fill, fills.hpp) in one pass.
#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>

namespace cugrade::runner {

/// Writes `word` into each of the `count` 32-bit words at `dest`, which is device memory (on the
/// CPU backend, whose "device" memory is the host's, a plain loop); the launch's error, if any.
/// One kernel: cudaMemset2D of one-byte rows four bytes apart, which did the same before, took
/// about 7 ms per 256 MiB on an H100 (every timed call of a large step paid it twice a round).
cudaError_t fill_words(void* dest, std::size_t count, std::uint32_t word);

}  // namespace cugrade::runner
