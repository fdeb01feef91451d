#pragma once
// The CUDA backend's build stage: student sources -> objects (nvcc) -> symbol policy (nm) ->
// runner binary (nvcc link against the assignment's runner library).
#include "build/build_request.hpp"
#include "build/build_session.hpp"  // build_log_limit_bytes, which callers read from here
#include "process/process_runner.hpp"

namespace cugrade {

/// Builds the runner binary for a submission with nvcc: compile each source, check the symbol
/// policy, link against the assignment's runner library.
BuildOutput build_submission_cuda(ProcessRunner& runner, const BuildRequest& request);

/// Compiles each source with nvcc and nothing more: the CPU backend's validity check, so code
/// that nvcc rejects (a __device__ function calling a host function, say) fails there too.
BuildOutput compile_with_nvcc(ProcessRunner& runner, const BuildRequest& request);

}  // namespace cugrade
