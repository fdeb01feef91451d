#pragma once
// The CPU backend's cuda_runtime.h: what a CUDA file, pre-passed into C++ (harness/cpu/prepass),
// compiles against instead of the CUDA toolkit's header (design.md §8).
// The toolkit's own include guards: code tests them to learn what is declared (the samples'
// helper_cuda.h defines checkCudaErrors and findCudaDevice only `#ifdef __DRIVER_TYPES_H__`).
#define __CUDA_RUNTIME_H__
#define __DRIVER_TYPES_H__
#define __VECTOR_TYPES_H__
#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "cugrade_cpu/qualifiers.hpp"
#include "cugrade_cpu/vector_types.hpp"
#include "cugrade_cpu/runtime_types.hpp"
#include "cugrade_cpu/context.hpp"
#include "cugrade_cpu/math.hpp"
#include "cugrade_cpu/sync.hpp"
#include "cugrade_cpu/shared_memory.hpp"
#include "cugrade_cpu/atomics.hpp"
#include "cugrade_cpu/read_modify_write.hpp"
#include "cugrade_cpu/launch.hpp"
#include "cugrade_cpu/runtime_api.hpp"
#include "cugrade_cpu/runtime_settings.hpp"

// What nvcc defines in each of its passes, and code tests: that a CUDA compiler reads the file
// (the editors' idiom `#ifndef __CUDACC__` / `#define __syncthreads()` would otherwise empty every
// barrier) and the toolkit's version (`#if CUDART_VERSION >= 9000` picks __shfl_down_sync).
// __CUDA_ARCH__ is not: nvcc defines it in device passes only, and this file is one host pass;
// the pre-pass writes its value into device-only functions' bodies instead (harness/cpu/prepass.hpp).
#ifndef __CUDACC__
#define __CUDACC__ 1
#endif
#ifndef CUDART_VERSION
#define CUDART_VERSION 13000
#endif
