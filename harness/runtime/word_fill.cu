#include "word_fill.hpp"

namespace cugrade::runner {
namespace {

__global__ void fill_words_kernel(std::uint32_t* dest, std::size_t count, std::uint32_t word) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
    dest[i] = word;
}

}  // namespace

cudaError_t fill_words(void* dest, std::size_t count, std::uint32_t word) {
  if (count == 0) return cudaSuccess;
  constexpr unsigned threads = 256;
  // Enough blocks to fill every SM several times over; the loop covers the rest.
  const std::size_t wanted = (count + threads - 1) / threads;
  const unsigned blocks = static_cast<unsigned>(wanted < 4096 ? wanted : 4096);
  fill_words_kernel<<<blocks, threads>>>(static_cast<std::uint32_t*>(dest), count, word);
  return cudaGetLastError();
}

}  // namespace cugrade::runner
