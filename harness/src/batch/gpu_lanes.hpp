#pragma once
// Which GPUs a batch grades on: one lane per GPU, each lane's runners told their GPU through
// CUDA_VISIBLE_DEVICES, so that one submission at a time uses each GPU.
#include <string>
#include <vector>

namespace cugrade {

/// The GPU lanes of this machine: one per GPU the probe saw, named as CUDA_VISIBLE_DEVICES must
/// name it: by the entries of `visible` (this process's CUDA_VISIBLE_DEVICES) when set, else 0..n-1.
std::vector<std::string> gpu_lanes_for(int device_count, const char* visible);

}  // namespace cugrade
