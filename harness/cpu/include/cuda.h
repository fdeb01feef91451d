#pragma once
// The CPU backend's cuda.h: the runtime API (cuda_runtime.h) and the driver API calls that
// runtime-API programs make in passing (cugrade_cpu/driver_api.hpp).
#include "cuda_runtime.h"
#include "cugrade_cpu/driver_api.hpp"
