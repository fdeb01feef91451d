#pragma once
// What a runner's end says to a student: a CUDA error event, a signal, a refused allocation in
// words. Shared by the cases' runs (run_job) and the timed runs (timing_side).
#include <string>

#include "job.hpp"

namespace cugrade {

/// A cuda_error event in words: a runtime call of the student's that failed by itself leads with
/// its own sentence ("cudaMemcpy (vecadd.cu:25) failed with cudaErrorInvalidValue: <why>"), as on
/// both backends; any other error is "CUDA error in <call>: <error>", with the last kernel
/// launched where one is known.
std::string cuda_error_message(const Event& event);

/// "SIGSEGV (segmentation fault)" for a signal number.
std::string describe_signal(int signal);

/// `message` followed by `memory_refused` (TaskStatus::memory_refused), the likely cause of the
/// failure it describes; `message` alone where nothing was refused.
std::string with_memory_refusal(std::string message, const std::string& memory_refused);

}  // namespace cugrade
