#pragma once
// The command lines of the build. Every path in them is one the harness chose, relative to the
// build folder the commands run in ("src/submission_0.cu", "obj/submission_0.o"): nothing a
// student named reaches a command line (nvcc runs its sub-commands through a shell).
#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "build/build_request.hpp"

namespace cugrade {

/// Linker flag that routes every kernel launch and every allocating CUDA call through the runner
/// library's wrappers, each forwarding to the real function (__real_...). Why: the runner records
/// the name of each kernel the student's code launches, so a CUDA error names the kernel (in CUDA
/// 13, `k<<<g, b>>>()` calls __cudaLaunchKernel, or __cudaLaunchKernel_ptsz with a per-thread
/// default stream; explicit launches call cudaLaunchKernel); the GPU memory a runner holds is
/// counted against the assignment's limit; and a timed call's allocations are served from blocks
/// earlier timed calls freed (runtime/allocation_wraps.hpp); and a check call's copies are seen
/// (runtime/host_work.hpp: whether its result is the GPU's work); and a failed copy, set or free
/// says why (runtime/api_failures.hpp).
inline constexpr std::string_view runner_wraps_flag =
    "--wrap=__cudaLaunchKernel,--wrap=__cudaLaunchKernel_ptsz,--wrap=cudaLaunchKernel,"
    "--wrap=cudaMalloc,--wrap=cudaFree,--wrap=cudaMallocManaged,--wrap=cudaMallocPitch,--wrap=cudaMalloc3D,"
    "--wrap=cudaMallocAsync,--wrap=cudaFreeAsync,--wrap=cudaDeviceSetLimit,"
    "--wrap=cudaMemcpy,--wrap=cudaMemcpy_ptds,--wrap=cudaMemcpyAsync,--wrap=cudaMemcpyAsync_ptsz,"
    "--wrap=cudaMemcpy2D,--wrap=cudaMemcpy2D_ptds,--wrap=cudaMemcpy2DAsync,--wrap=cudaMemcpy2DAsync_ptsz,"
    "--wrap=cudaLaunchKernelExC,--wrap=cudaLaunchKernelExC_ptsz,--wrap=cudaLaunchCooperativeKernel,"
    "--wrap=cudaGraphLaunch,"
    "--wrap=cudaMemset,--wrap=cudaMemset_ptds,--wrap=cudaMemsetAsync,--wrap=cudaMemsetAsync_ptsz";

/// The build's files, relative to the build folder: "obj/submission_<i>.o", its compiler
/// dependency list ".d" and its assembler dependency list ".as.d".
std::string object_path(std::size_t index);
std::string dependency_path(std::size_t index);
std::string assembler_dependency_path(std::size_t index);

/// The student's objects joined and sealed (seal_command): "obj/submission.o".
inline constexpr std::string_view sealed_object = "obj/submission.o";

/// The entry points the seal keeps global, one raw name a line: "obj/entry_points.txt".
inline constexpr std::string_view entry_points_file = "obj/entry_points.txt";

/// The first line of that file, a name no object can hold (not an identifier).
inline constexpr std::string_view no_entry_point = ".cugrade.no.entry.point";

/// nvcc -std=c++17 -O3 -lineinfo -arch=<arch> -Isrc -Xcompiler=-fno-common
/// -Xcompiler=-fno-gnu-unique -MD -MF <deps> (and the assembler's --MD <as deps>, through
/// -Xcompiler -Xassembler) -c <source> -o <object>.
/// With `call_sites`, `-include obj/cugrade_call_sites.cuh` (call_site_header.hpp) before -c.
std::vector<std::string> nvcc_compile_command(const BuildRequest& request, std::size_t index,
                                              const std::string& source, bool call_sites = false);

/// nvcc -arch=<arch> -o runner obj/submission.o <runner_library> -Xlinker <wrap flag>, then
/// -l<name> for each library the assignment allows.
std::vector<std::string> nvcc_link_command(const BuildRequest& request);

/// nm -g <object>: what an object defines and uses, not demangled (nm_output.hpp).
std::vector<std::string> symbols_command(const std::string& object);

/// ld -r -o <output> <objects...>: several objects joined into one, so that the seal can keep
/// their references to each other while making the names private.
std::vector<std::string> join_command(const std::vector<std::string>& objects, const std::string& output);

/// objcopy -R .group --keep-global-symbols=obj/entry_points.txt <input> obj/submission.o: every
/// definition but the entry points made local, and COMDAT groups dissolved (a group of the
/// student's would otherwise displace the runner's copy of the same inline function, and the
/// runner would call into a local, discarded copy).
std::vector<std::string> seal_command(const std::string& input);

/// The command as one line a person can paste into a shell (arguments quoted where needed).
std::string display_command(const std::vector<std::string>& argv);

}  // namespace cugrade
