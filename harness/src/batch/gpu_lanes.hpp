#pragma once
// Which GPUs a batch grades on: one lane per GPU, each lane's runners told their GPU through
// CUDA_VISIBLE_DEVICES, so that one submission at a time uses each GPU.
#include <cstddef>
#include <string>
#include <vector>

#include "pipeline/check_submission.hpp"

namespace cugrade {

/// The GPU lanes of this machine: one per GPU the probe saw, named as CUDA_VISIBLE_DEVICES must
/// name it: by the entries of `visible` (this process's CUDA_VISIBLE_DEVICES) when set, else 0..n-1.
std::vector<std::string> gpu_lanes_for(int device_count, const char* visible);

/// `base` made a check on GPU `gpu` of `gpu_lanes`: its runners see that GPU alone
/// (CUDA_VISIBLE_DEVICES), and its timing uses that GPU's CPUs; the reference's baselines it
/// takes and finds are that GPU's, since their key holds CUDA_VISIBLE_DEVICES (run/baseline_cache).
CheckOptions options_on_gpu(CheckOptions base, const std::vector<std::string>& gpu_lanes, std::size_t gpu);

}  // namespace cugrade
