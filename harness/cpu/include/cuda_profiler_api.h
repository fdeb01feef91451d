#pragma once
// The CPU backend's <cuda_profiler_api.h>: there is no profiler to start, so both calls succeed.
#include "cuda_runtime.h"

/// Accepted and ignored (no profiler runs on the CPU backend).
static inline cudaError_t cudaProfilerStart() { return cudaSuccess; }
/// Accepted and ignored.
static inline cudaError_t cudaProfilerStop() { return cudaSuccess; }
