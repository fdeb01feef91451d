#pragma once
// The few calls of CUDA's driver API (cuda.h) that runtime-API programs make in passing, on the
// CPU backend's memory. Everything else of the driver API (modules, contexts, cuLaunchKernel) is
// not declared: a program built on it is a compile error naming the call.
#include <cstddef>

/// A device address as the driver API passes it.
typedef unsigned long long CUdeviceptr;
/// The driver API's status codes (those returned here).
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_INVALID_VALUE = 1, CUDA_ERROR_NOT_FOUND = 500 } CUresult;

/// The start and size of the allocation holding `address` (either output may be null). Declared
/// with C linkage, so that a call uses a driver-API symbol as on a GPU: the symbol policy refuses
/// it where the assignment does not allow the driver API (`cuda_driver`), on both backends.
extern "C" CUresult cuMemGetAddressRange(CUdeviceptr* base, std::size_t* size, CUdeviceptr address);
