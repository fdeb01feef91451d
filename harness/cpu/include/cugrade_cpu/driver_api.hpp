#pragma once
// The few calls of CUDA's driver API (cuda.h) that runtime-API programs make in passing, on the
// CPU backend's memory. Everything else of the driver API (modules, contexts, cuLaunchKernel) is
// not declared: a program built on it is a compile error naming the call.
#include <cstddef>

/// A device address as the driver API passes it.
typedef unsigned long long CUdeviceptr;
/// The driver API's status codes (those returned here).
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_INVALID_VALUE = 1, CUDA_ERROR_NOT_FOUND = 500 } CUresult;

namespace cugrade_cpu {
/// The allocation (cudaMalloc, cudaMallocHost, cudaMallocManaged) holding `address`: its start
/// and size; false when no live allocation holds it.
bool allocation_range(const void* address, void** base, std::size_t* bytes);
}  // namespace cugrade_cpu

/// The start and size of the allocation holding `address` (either output may be null).
static inline CUresult cuMemGetAddressRange(CUdeviceptr* base, std::size_t* size, CUdeviceptr address) {
  void* start = nullptr;
  std::size_t bytes = 0;
  if (!cugrade_cpu::allocation_range(reinterpret_cast<const void*>(address), &start, &bytes)) return CUDA_ERROR_NOT_FOUND;
  if (base) *base = reinterpret_cast<CUdeviceptr>(start);
  if (size) *size = bytes;
  return CUDA_SUCCESS;
}
