#pragma once
// Nsight Compute's command line (ncu, in the CUDA toolkit): where it is, how diagnosis runs it on
// a runner, and what its failures mean in words.
#include <filesystem>
#include <string>
#include <vector>

#include "core/locations.hpp"

namespace cugrade {

/// ncu: $CUGRADE_NCU when set, else beside nvcc (the toolkit's bin/), else on PATH, resolved to
/// its installation (ncu_installation); empty when there is none.
std::filesystem::path find_ncu(const Locations& where);

/// The ncu of Nsight Compute's own folder for `ncu`. The toolkit's bin/ncu is a wrapper script
/// that looks for that folder beside the toolkit (nsight-compute-<version>/) or under
/// `install_roots` (/opt/nvidia/nsight-compute/<version>/) and runs the ncu there: a sandbox that
/// shows only the toolkit and not /opt gets "Nsight Compute is not installed on your system".
/// Calling that ncu directly, with its folder shown read-only, works anywhere. `ncu` itself when it
/// is no script, or when no such folder is found (the newest version's when there are several).
std::filesystem::path ncu_installation(const std::filesystem::path& ncu,
                                       const std::vector<std::filesystem::path>& install_roots = {"/opt/nvidia"});

/// The section folders diagnosis gives ncu instead of its own (which holds some thirty section
/// files and their rules, all read at every start: about 0.3 s of each run on an H200).
struct NcuSectionFolders {
  std::filesystem::path none;    ///< empty: the counters' run names its metrics, no section
  std::filesystem::path source;  ///< ncu's SourceCounters.section alone: the source page's run
};

/// Makes (once) the section folders under `dir` from the installation of `ncu` (ncu_installation:
/// its sections/ folder); a folder it cannot make is an empty path, for which ncu reads its own.
NcuSectionFolders ncu_section_folders(const std::filesystem::path& ncu, const std::filesystem::path& dir);

/// The command that runs `runner job_file` under ncu and writes the metrics (counters.hpp) of
/// the first `max_kernels` kernels launched inside the runner's entry range (runtime/
/// entry_range.hpp) to `log_file` as CSV. Clocks are left as they are (--clock-control none):
/// the counters do not need them locked, and diagnosis changes no setting of the GPU. ncu reads
/// its sections from `sections` where that is not empty.
std::vector<std::string> ncu_command(const std::filesystem::path& ncu, const std::filesystem::path& runner,
                                     const std::filesystem::path& job_file, const std::filesystem::path& log_file,
                                     int max_kernels, const std::filesystem::path& sections = {});

/// The command that writes ncu's source page (per-line counters of the SourceCounters section, CUDA
/// lines with their SASS) of the first launch of kernel `kernel` ("transpose_naive") inside the
/// entry range to `log_file` as CSV; its sections from `sections` where that is not empty.
std::vector<std::string> ncu_source_command(const std::filesystem::path& ncu, const std::filesystem::path& runner,
                                            const std::filesystem::path& job_file,
                                            const std::filesystem::path& log_file, const std::string& kernel,
                                            const std::filesystem::path& sections = {});

/// Why ncu gave no counters, in words, from what it printed (its log and its output): the
/// permission error, no kernel profiled, else its first error line; else the exit status and the
/// last line it printed.
std::string ncu_failure(const std::string& printed, int exit_code);

}  // namespace cugrade
