#pragma once
// Part of the CPU backend's shim of the CUDA headers: everything lives in cuda_runtime.h.
#include "cuda_runtime.h"
