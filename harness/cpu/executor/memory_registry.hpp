#pragma once
// Which addresses are device memory: every cudaMalloc/cudaMallocHost/cudaMallocManaged range,
// with the guard pages around device allocations, so faults and bad pointers can be explained.
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace cugrade_cpu {

/// One sentence about `address` for a fault message: "4 bytes past the end of a 4000-byte
/// cudaMalloc allocation (the 2nd)", "in memory already released by cudaFree", or "" when the
/// address is in no allocation's reach.
std::string describe_device_address(const void* address);

/// A write into a cudaMalloc allocation's slack, found by its canary after the kernel.
struct SlackDamage {
  std::string text;                     ///< where, for the message; "" when every canary is intact
  const unsigned char* slack = nullptr;  ///< the damaged slack's first byte
  std::size_t bytes = 0;                 ///< its length
};

/// Where a kernel wrote into a cudaMalloc allocation's slack (the bytes between its end and the
/// next multiple of 16, and those between its leading guard page and its start, which no guard
/// page covers): text "byte offset 4001 of a 4001-byte cudaMalloc allocation (the 2nd), 0 bytes
/// past its end", "4 bytes before the start of a ...", or "" when every canary is intact.
/// Re-arms the canary it found damaged.
SlackDamage damaged_slack();

/// The byte ranges [begin, end) of every live allocation a kernel may update (cudaMalloc,
/// cudaMallocManaged, cudaMallocHost and registered __device__ variables), sorted by begin.
std::vector<std::pair<std::uintptr_t, std::uintptr_t>> global_ranges();

/// Whether `pointer` is memory a kernel can have written, as a copy's end: cudaMalloc'd, managed
/// or a __device__ variable, not cudaMallocHost's pinned host memory (host code fills that).
bool kernel_memory(const void* pointer);

/// Where `address`, inside an allocation, lies: "byte offset 8 of a 4000-byte cudaMalloc
/// allocation (the 2nd)"; "" outside every allocation.
std::string describe_global_element(const void* address);

/// Whether `pointer` lies inside an allocation the code already released (cudaFree): a use
/// after cudaFree, for a failed call's words.
bool freed_memory(const void* pointer);

}  // namespace cugrade_cpu
