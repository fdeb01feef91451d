#pragma once
// The CPU backend's build stage (design.md §8): pre-pass each student file into C++, compile it
// with the host compiler against the shim headers, link it against the assignment's CPU runner
// library. Same contract as the CUDA backend (build/build_request.hpp).
#include "build/build_request.hpp"
#include "process/process_runner.hpp"

namespace cugrade {

/// Builds the runner binary for a submission with the host C++ compiler (request.compiler,
/// default g++): compile errors become Outcome::compile_error with diagnostics on the student's
/// own lines, a missing entry point Outcome::link_error naming it.
BuildOutput build_submission_cpu(ProcessRunner& runner, const BuildRequest& request);

}  // namespace cugrade
