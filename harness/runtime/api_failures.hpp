#pragma once
// The first runtime call of an entry call that failed by itself (a cudaMemcpy with swapped
// pointers, a copy after cudaFree, a count in elements), with the student's line and why, so that
// the GPU's report names the call as the CPU backend's does. The line comes from the call-site
// header the nvcc build force-includes (build/call_site_header.hpp): each wrapped call passes its
// result through cugrade_api_returned. The why comes from the linker's wraps (copy_wraps.cpp,
// allocation_wraps.cpp), which see the call's arguments.
// Trust: all of this is in the runner's process, which the student's code can patch; it changes
// only the words of a case that already failed with a CUDA error, never whether it failed.
#include <cuda_runtime.h>

#include <optional>
#include <string>

#include "api_failure_text.hpp"

namespace cugrade::runner {

/// One failed runtime call.
struct ApiFailure {
  std::string call;                ///< "cudaMemcpy"
  std::string file;                ///< __FILE__ of the call ("" when its line is unknown)
  int line = 0;                    ///< __LINE__ of the call
  cudaError_t error = cudaSuccess;
  std::string why;                 ///< api_failure_text.hpp's reason ("" when none is known)
};

/// Whether `error` is one a runtime call makes by itself from its arguments (invalid value,
/// direction, pointer, symbol, pitch; out of memory), not one it repeats (a kernel's fault, a
/// launch's refusal, which every later call returns).
bool own_call_error(cudaError_t error);

/// Forgets every failure noted so far (before an entry call).
void forget_api_failures();

/// Called by a wrap whose real call failed with `error`: why, from the call's arguments. The
/// call-site hook that follows (cugrade_api_returned) takes it; a call with no hook (no header)
/// is kept without its line.
void note_api_reason(const char* call, cudaError_t error, std::string why);

/// The first failed call since forget_api_failures, when its error is `error` (the error the
/// runner found); nullopt when none failed with it.
std::optional<ApiFailure> api_failure_with(cudaError_t error);

/// Where the student's code first looked at an error it did not make itself (its
/// cudaGetLastError or cudaDeviceSynchronize that returned it), as "cudaDeviceSynchronize at
/// vecadd.cu:31"; "" when none did.
std::string error_seen_at();

/// The facts api_failure_text.hpp reasons from, for `pointer` in this process: the runtime's
/// pointer attributes and the GPU memory ledger's allocations (allocation_wraps.hpp).
PointerFacts pointer_facts(const void* pointer);

}  // namespace cugrade::runner

/// The call-site header's hook (build/call_site_header.hpp): `call` at `file`:`line` returned
/// `result`; noted when it failed, returned unchanged.
extern "C" cudaError_t cugrade_api_returned(const char* file, int line, const char* call, cudaError_t result);
