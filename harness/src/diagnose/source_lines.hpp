#pragma once
// Nsight Compute's source page (`--section SourceCounters --page source --print-source cuda,sass
// --csv`): its counters per line of CUDA source, so that a cause can name the line it comes from
// ("submission_0.cu:18"). The student's file must be built with -lineinfo (the build does).
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace cugrade {

/// One line of CUDA source and what ncu counted on it.
struct SourceLine {
  std::string file;                      ///< its name without folders ("submission_0.cu")
  int line = 0;
  std::string text;                      ///< the source line as ncu printed it
  double excess_global_sectors = 0.0;    ///< "L2 Theoretical Sectors Global Excessive": uncoalesced accesses
  double excess_shared_wavefronts = 0.0; ///< "L1 Wavefronts Shared Excessive": bank conflicts
  double global_requests = 0.0;          ///< "L1 Tag Requests Global"
  double stall_samples = 0.0;            ///< "Warp Stall Sampling (All Samples)": where the warps spend their time
};

/// Every source line of ncu's source page, in order; fails when the text holds no such table.
Result<std::vector<SourceLine>> parse_source_page(std::string_view text);

/// The line `cause` (causes.hpp) points to: the most excessive sectors (uncoalesced_loads and
/// _stores), shared wavefronts (bank_conflicts), global requests (no_reuse), else the most stall
/// samples; nullptr when no line has any.
const SourceLine* line_for_cause(const std::vector<SourceLine>& lines, const std::string& cause);

}  // namespace cugrade
