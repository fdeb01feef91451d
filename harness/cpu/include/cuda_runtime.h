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
#include "cugrade_cpu/launch.hpp"
#include "cugrade_cpu/runtime_api.hpp"
#include "cugrade_cpu/runtime_settings.hpp"
