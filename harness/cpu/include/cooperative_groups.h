#pragma once
// The CPU backend's <cooperative_groups.h>: the subset in cugrade_cpu/cooperative_groups.hpp.
#include "cuda_runtime.h"
#include "cugrade_cpu/cooperative_groups.hpp"
