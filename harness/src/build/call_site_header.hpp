#pragma once
// The call-site header the nvcc build force-includes (nvcc -include): each runtime call a student
// makes (cudaMalloc, cudaFree, cudaMemcpy, cudaMemset and their Async forms, cudaGetLastError,
// cudaPeekAtLastError, cudaDeviceSynchronize) passes its result, its __FILE__ and __LINE__ to the
// runner (runtime/api_failures.hpp), so that a failed call is named with the student's line on a
// GPU as the CPU backend's shim headers name it. Kernel launches are not wrapped: nvcc writes
// their calls after the preprocessor has run; a launch's error already names its kernel.
// Trust: the hook is the runner's, in the student's process; what it records only words a case
// that already failed with a CUDA error. It is the one runner function a submission may use
// (call_site_function); defining it stays refused (the runner library defines it).
#include <string_view>

namespace cugrade {

/// The header's path in the build folder, as the compile command names it.
inline constexpr std::string_view call_site_header_path = "obj/cugrade_call_sites.cuh";

/// The runner's hook the header's macros call (runtime/api_failures.hpp).
inline constexpr std::string_view call_site_function = "cugrade_api_returned";

/// The header's text.
std::string_view call_site_header_text();

}  // namespace cugrade
