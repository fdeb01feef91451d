#pragma once
// Which kernel did the student launch last, and did its launches use shared memory? Kernel
// launches are routed through wrappers (launch_tracking.cpp) so a CUDA error can name the kernel
// that caused it, and a result that changes with what the GPU held before the call can be told
// apart: shared memory, or a register no one set (pipeline/schedule_race.hpp). Also which runtime
// call of the student's made an error by itself, so that the error names that call, not a kernel.
#include <optional>
#include <string>

namespace cugrade::runner {

/// Forgets the last kernel and the launches' shared memory; called before each entry point so an
/// error is never blamed on a kernel of an earlier call.
void reset_last_kernel();

/// The kernel launches since the reset (every thread's), on both backends; on the CPU backend
/// only launches that ran (a GPU counts a launch before it knows whether it is refused).
long launches_since_reset();

/// A fault of a kernel since the reset that a later call (cudaDeviceReset) cleared from the
/// runtime's error state: its message, with its cudaError_t's value in `error`; "" when none, and
/// always on a GPU (there compute-sanitizer reports the fault whatever the program does next).
std::string fault_since_reset(int& error);

/// The most threads one launch since the reset had (its grid's blocks times a block's threads),
/// on both backends; a launch the runtime refused does not count; 0 when none ran.
long long most_threads_since_reset();

/// Why the last launch refused since the reset was refused, when it returned `error` (a
/// cudaError_t's value: the harness includes this header without CUDA's) and its
/// shape or registers say why ("kernel `k` was launched with 2048 threads per block (2048x1x1);
/// a block has at most 1024 threads", launch_rules.hpp); empty otherwise, and on the CPU backend,
/// whose error string already says it.
std::string launch_refusal(int error);

/// A runtime call of the student's that failed by itself (a cudaMemcpy with swapped pointers).
struct FailedCall {
  std::string call;      ///< "cudaMemcpy"
  std::string sentence;  ///< "cudaMemcpy (vecadd.cu:25) failed with cudaErrorInvalidValue: <why>" (api_failure_text.hpp)
};

/// The student's runtime call since the reset that made `error` (a cudaError_t's value) by
/// itself, with its sentence; nullopt when none did (a kernel's fault, a launch's refusal). The
/// GPU runner's is api_failures.cpp's, from the call-site header; the CPU executor's its own.
std::optional<FailedCall> failed_call_with(int error);

/// The (demangled) name of the last kernel launched since the reset; empty when none was
/// launched, or the link did not route launches through the wrappers.
std::string last_kernel_name();

/// The environment variable that asks the runner to note whether each check call's kernels use
/// shared memory ("1"). Only on request: reading a kernel's static size loads its module, which
/// cost every check about 2 s of runner starts on an H100; the harness asks where it needs the
/// answer (pipeline/schedule_race.hpp, the GPU's third run).
inline constexpr const char* note_shared_memory_variable = "CUGRADE_NOTE_SHARED_MEMORY";

/// Whether the launches since the reset used shared memory: "yes" (static or dynamic), "no"
/// (none did, or nothing was launched), or "" when not asked for (note_shared_memory_variable)
/// or a kernel's static size could not be read.
std::string shared_memory_used();

}  // namespace cugrade::runner
