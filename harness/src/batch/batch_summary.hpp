#pragma once
// The summary a batch prints when it ends: how many, which outcomes, the mean score, where the
// time went (so a TA can tell whether builds or the GPU limit the rate) and where the files are.
#include <string>

#include "batch/grade_batch.hpp"

namespace cugrade {

/// The summary as lines of text for the terminal (no colour), `assignment` naming the batch.
std::string render_batch_summary(const BatchSummary& summary, const std::string& assignment,
                                 const std::filesystem::path& out);

}  // namespace cugrade
