#pragma once
// Which addresses are device memory: every cudaMalloc/cudaMallocHost/cudaMallocManaged range,
// with the guard pages around device allocations, so faults and bad pointers can be explained.
#include <cstddef>
#include <string>

namespace cugrade_cpu {

/// One sentence about `address` for a fault message: "4 bytes past the end of a 4000-byte
/// cudaMalloc allocation (the 2nd)", "in memory already released by cudaFree", or "" when the
/// address is in no allocation's reach.
std::string describe_device_address(const void* address);

/// Where a kernel wrote into a cudaMalloc allocation's alignment slack (the bytes between its end and the
/// next multiple of 16, which no guard page covers): "byte offset 4001 of a 4001-byte cudaMalloc
/// allocation (the 2nd), 0 bytes past its end", or "" when every canary is intact. Re-arms the
/// canary it found damaged.
std::string damaged_slack();

}  // namespace cugrade_cpu
