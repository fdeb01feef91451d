#pragma once
// Facts about the installed compilers that the build's checks need: where their system headers
// are (what a compile may read, dependency_check.hpp) and which library files a link uses (what
// a submission may not redefine, library_symbols.hpp). Asked of the tools themselves (trusted,
// not sandboxed) and cached for the life of the process, so a batch asks once.
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "build/library_symbols.hpp"

namespace cugrade {

/// The folders `compiler` searches for <headers> (`<compiler> -E -v -x c++ /dev/null`, found
/// on the PATH of `environment` when not a path); empty when it cannot be run.
std::vector<std::filesystem::path> compiler_include_dirs(
    const std::string& compiler, const std::map<std::string, std::string>& environment);

/// The installation a host compiler belongs to, links followed: /opt/gcc for a g++ that is (or
/// links to) /opt/gcc/bin/g++; looked up on the PATH of `environment` when not a path. Empty when
/// it cannot be found, or would be the root: what a build's sandbox shows besides the system.
std::filesystem::path compiler_root(const std::string& compiler, const std::map<std::string, std::string>& environment);

/// The CUDA toolkit an nvcc belongs to: /usr/local/cuda for /usr/local/cuda/bin/nvcc.
std::filesystem::path cuda_toolkit_root(const std::filesystem::path& nvcc);

/// The toolkit's header folders (<root>/include, <root>/targets/*/include, and those nvcc's
/// `--dryrun` names), once per nvcc.
std::vector<std::filesystem::path> cuda_include_dirs(const std::filesystem::path& nvcc);

/// The folders named by the `#$ INCLUDES=` and `#$ SYSTEM_INCLUDES=` lines of `nvcc --dryrun`
/// output, lexically normal.
std::vector<std::filesystem::path> nvcc_profile_includes(std::string_view dryrun);

/// The libraries a link with the host C++ compiler `compiler` always uses: the C library (and
/// its loader and static part), the math library, the C++ library, GCC's runtime. Each as
/// `compiler -print-file-name` finds it; one it cannot find is left out.
std::vector<LinkLibrary> system_link_libraries(const std::string& compiler,
                                               const std::map<std::string, std::string>& environment);

/// Where `compiler -print-file-name=<name>` finds a library file; empty when it does not.
std::filesystem::path find_library_file(const std::string& compiler, const std::string& name,
                                        const std::map<std::string, std::string>& environment);

/// The CUDA runtime's static libraries nvcc links (libcudart_static.a, libcudadevrt.a), and
/// `lib<name>.so` for each of `extra` (libraries an assignment allows), from the toolkit.
std::vector<LinkLibrary> cuda_link_libraries(const std::filesystem::path& nvcc,
                                             const std::vector<std::string>& extra);

}  // namespace cugrade
