// Force-included by cugrade's nvcc build (build/call_site_header.hpp embeds this file): where each
// CUDA runtime call a submission makes was made, for the report of a call that failed
// (runtime/api_failures.hpp).
// Why each macro wraps the whole call: a parenthesised call stays one expression wherever a call
// can stand (an if's condition, a student's CHECK macro, a return). Why function-like macros only:
// `&cudaFree` and `decltype(cudaMemcpy)` stay the runtime's. A name the runtime's headers already
// made a macro (the per-thread default stream's cudaMemcpy_ptds) is left alone. Why __host__
// __device__: cudaMalloc, cudaFree, cudaGetLastError and cudaDeviceSynchronize may be called in
// device code too, where the hook (a host function) is not called.
#pragma once
#include <cuda_runtime.h>

extern "C" cudaError_t cugrade_api_returned(const char* file, int line, const char* call, cudaError_t result);

static __host__ __device__ inline cudaError_t cugrade_call_site(const char* file, int line, const char* call,
                                                                cudaError_t result) {
#ifdef __CUDA_ARCH__
  (void)file; (void)line; (void)call;
  return result;
#else
  return cugrade_api_returned(file, line, call, result);
#endif
}

#define CUGRADE_CALL_SITE(call, ...) cugrade_call_site(__FILE__, __LINE__, #call, call(__VA_ARGS__))
#ifndef cudaMalloc
#define cudaMalloc(...) CUGRADE_CALL_SITE(cudaMalloc, __VA_ARGS__)
#endif
#ifndef cudaFree
#define cudaFree(...) CUGRADE_CALL_SITE(cudaFree, __VA_ARGS__)
#endif
#ifndef cudaMemcpy
#define cudaMemcpy(...) CUGRADE_CALL_SITE(cudaMemcpy, __VA_ARGS__)
#endif
#ifndef cudaMemcpyAsync
#define cudaMemcpyAsync(...) CUGRADE_CALL_SITE(cudaMemcpyAsync, __VA_ARGS__)
#endif
#ifndef cudaMemcpy2D
#define cudaMemcpy2D(...) CUGRADE_CALL_SITE(cudaMemcpy2D, __VA_ARGS__)
#endif
#ifndef cudaMemset
#define cudaMemset(...) CUGRADE_CALL_SITE(cudaMemset, __VA_ARGS__)
#endif
#ifndef cudaMemsetAsync
#define cudaMemsetAsync(...) CUGRADE_CALL_SITE(cudaMemsetAsync, __VA_ARGS__)
#endif
#ifndef cudaGetLastError
#define cudaGetLastError() cugrade_call_site(__FILE__, __LINE__, "cudaGetLastError", cudaGetLastError())
#endif
#ifndef cudaPeekAtLastError
#define cudaPeekAtLastError() cugrade_call_site(__FILE__, __LINE__, "cudaPeekAtLastError", cudaPeekAtLastError())
#endif
#ifndef cudaDeviceSynchronize
#define cudaDeviceSynchronize() cugrade_call_site(__FILE__, __LINE__, "cudaDeviceSynchronize", cudaDeviceSynchronize())
#endif
