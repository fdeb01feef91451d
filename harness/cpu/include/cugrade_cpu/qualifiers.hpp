#pragma once
// CUDA's declaration qualifiers as the host compiler sees them.
// Why `__shared__` is `static thread_local`: all CUDA threads of a block run as fibers on one
// worker thread, and a worker runs one block at a time, so a thread_local static is exactly
// one variable per running block, shared by its threads (design.md §8).
#define __global__
#define __device__
#define __host__
#define __constant__
#define __managed__
#define __shared__ static thread_local
#define __forceinline__ inline __attribute__((always_inline))
// No `__noinline__` macro: libstdc++ 13 writes `__attribute__((__noinline__))` itself, which such a
// macro would break. The pre-pass rewrites the student's `__noinline__` instead.
#define __launch_bounds__(...)
// A GNU attribute, as in CUDA: it may stand among the decl-specifiers (`__shared__ __align__(16)
// float t[...]`), where a standard alignas may not.
#define __align__(n) __attribute__((aligned(n)))
#define __grid_constant__
#ifndef __CUDACC__
#define __CUGRADE_CPU__ 1
#endif
