#pragma once
// The CPU backend's CUDA error state: the last error (cudaGetLastError) and the sticky error
// that, as after a kernel fault on a GPU, every later call returns.
#include <string>
#include <utility>

#include "cugrade_cpu/runtime_types.hpp"

namespace cugrade_cpu {

/// Records `error` as the last error; `detail` (when not empty) becomes what
/// cudaGetErrorString(error) returns, naming the kernel and the fault. Returns `error`.
cudaError_t record_error(cudaError_t error, const std::string& detail = {});

/// Records a fault that, as on a GPU, breaks every later call (cudaErrorIllegalAddress,
/// cudaErrorLaunchFailure). Also writes `detail` to stderr, once. Returns `error`.
cudaError_t record_sticky_error(cudaError_t error, const std::string& detail);

/// CUDA's own words for `error` ("invalid argument"), without the detail record_error gave it.
const char* plain_error_string(cudaError_t error);

/// The sticky error, or cudaSuccess.
cudaError_t sticky_error();

/// Returns `error` after recording it when it is not cudaSuccess; every API entry ends here.
inline cudaError_t api_result(cudaError_t error) {
  return error == cudaSuccess ? cudaSuccess : record_error(error);
}

/// Records a failed runtime API call as the last error: cudaGetErrorString(error) then names the
/// call, the student's line it was made on (note_api_site) and `why` ("cudaMemcpy (vecadd.cu:25)
/// failed: ..."), and the runner blames no kernel for it. `call` is a string literal (kept).
/// Returns `error`.
cudaError_t record_api_error(cudaError_t error, const char* call, const std::string& why);

/// True when the last error recorded came from a runtime API call, not from a kernel or a launch.
bool last_error_from_api();

/// When the last error recorded is `error` and came from a runtime API call: that call
/// ("cudaMemcpy"), whose sentence cudaGetErrorString(error) returns; "" otherwise.
std::string failed_api_call(cudaError_t error);

/// Clears every error (cudaDeviceReset), but not the kernel fault of the current call
/// (kernel_fault): a reset after an out-of-bounds write must not hide it from the runner.
void clear_errors();

/// The first fault (a sticky error: an out-of-bounds access, a bad pointer argument) since
/// forget_kernel, with its message; cudaSuccess and "" when none. cudaDeviceReset keeps it.
std::pair<cudaError_t, std::string> kernel_fault();

/// The kernel launches that ran since forget_kernel (a launch refused for its shape does not).
long launches_run();

/// A kernel's name as messages write it, in backquotes ("`vecAdd`"): a kernel may be named
/// `kernel`, and "kernel kernel was launched" reads as a typo.
inline std::string code_name(const std::string& kernel) { return "`" + kernel + "`"; }

/// Notes the kernel being launched (for the runner's messages) and returns its name.
void note_kernel(const char* name);

/// The last kernel launched ("" before the first).
std::string last_kernel();

/// Forgets the last kernel, the launches' threads and count, and the kernel fault.
void forget_kernel();

/// Notes a launch of `threads` threads that the checks accepted (it runs), and counts it.
void note_threads(long long threads);

/// The most threads one launch since forget_kernel had; 0 when none ran.
long long most_threads();

}  // namespace cugrade_cpu
