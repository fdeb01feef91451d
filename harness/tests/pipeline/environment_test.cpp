#include "pipeline/environment.hpp"

#include <cstdlib>
#include <optional>
#include <string>

#include <doctest/doctest.h>

using namespace cugrade;

TEST_CASE("pipeline::describe_environment") {
  ::unsetenv("SLURMD_NODENAME");
  const Environment outside = describe_environment("cpu", DeviceInfo{}, "");
  CHECK(outside.backend == "cpu");
  CHECK(outside.host.find("Slurm") == std::string::npos);

  SUBCASE("in a Slurm array task: the node, the task and, on the CUDA backend, the GPU it was given") {
    // The GPU runner's own CUDA_VISIBLE_DEVICES is given back afterwards.
    const char* before = std::getenv("CUDA_VISIBLE_DEVICES");
    const std::optional<std::string> devices = before ? std::optional<std::string>(before) : std::nullopt;
    ::setenv("SLURMD_NODENAME", "gpu07", 1);
    ::setenv("SLURM_ARRAY_JOB_ID", "41", 1);
    ::setenv("SLURM_ARRAY_TASK_ID", "3", 1);
    ::setenv("CUDA_VISIBLE_DEVICES", "1", 1);
    const Environment cuda = describe_environment("cuda", DeviceInfo{}, "");
    CHECK(cuda.host == outside.host + " (Slurm node gpu07, job 41_3, CUDA_VISIBLE_DEVICES=1)");
    const Environment cpu = describe_environment("cpu", DeviceInfo{}, "");
    CHECK(cpu.host == outside.host + " (Slurm node gpu07, job 41_3)");
    for (const char* name : {"SLURMD_NODENAME", "SLURM_ARRAY_JOB_ID", "SLURM_ARRAY_TASK_ID"}) ::unsetenv(name);
    if (devices) ::setenv("CUDA_VISIBLE_DEVICES", devices->c_str(), 1);
    else ::unsetenv("CUDA_VISIBLE_DEVICES");
  }
}
