#pragma once
// The command lines of the CUDA build: nvcc compile, symbol listing, nvcc link.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "build/build_request.hpp"

namespace cugrade {

/// Linker flag that routes every kernel launch through the runner library's wrappers. Why: the
/// runner records the name of each kernel the student's code launches, so a CUDA error names the
/// kernel. In CUDA 13, `k<<<g, b>>>()` calls __cudaLaunchKernel (or __cudaLaunchKernel_ptsz with
/// a per-thread default stream); explicit launches call cudaLaunchKernel. Each wrapper forwards
/// to the real function (__real_...).
inline constexpr std::string_view wrap_launch_flag =
    "--wrap=__cudaLaunchKernel,--wrap=__cudaLaunchKernel_ptsz,--wrap=cudaLaunchKernel";

/// The object file a source compiles to: <work_dir>/<stem>.o.
std::filesystem::path object_path(const BuildRequest& request, const std::filesystem::path& source);

/// nvcc -std=c++17 -O3 -lineinfo -arch=<arch> -I<assignment_dir> -Xcompiler=-fno-common
/// -c <source> -o <object>.
std::vector<std::string> nvcc_compile_command(const BuildRequest& request,
                                              const std::filesystem::path& source,
                                              const std::filesystem::path& object);

/// nvcc -arch=<arch> -o <work_dir>/runner <objects...> <runner_library> -Xlinker <wrap flag>.
std::vector<std::string> nvcc_link_command(const BuildRequest& request,
                                           const std::vector<std::filesystem::path>& objects);

/// nm --defined-only -C <object>: the symbols an object defines, demangled.
std::vector<std::string> defined_symbols_command(const std::filesystem::path& object);

/// The command as one line a person can paste into a shell (arguments quoted where needed).
std::string display_command(const std::vector<std::string>& argv);

}  // namespace cugrade
