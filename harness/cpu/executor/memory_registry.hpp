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

}  // namespace cugrade_cpu
