#pragma once
// A sharded class's regrade (`--shard I/N`, Slurm's array tasks): each part knows only its own
// students' earlier results, so it keeps what it found under OUT/.regrade-parts/, and `--collect`
// makes the class's regrade.csv of all the parts at once.
#include <filesystem>
#include <string>

#include "batch/regrade_diff.hpp"
#include "core/result.hpp"

namespace cugrade {

/// OUT/.regrade-parts/: one file per part of the class that graded students again.
std::filesystem::path regrade_parts_dir(const std::filesystem::path& out);

/// Keeps `findings` of part `part` ("1-of-4") in OUT/.regrade-parts/<part>.json, merged with what
/// an earlier run of the same part left there (a requeued task: its first run's students are
/// graded by then, and only the rest are graded again); nothing when no one was graded again.
Result<bool> save_regrade_part(const std::filesystem::path& out, const std::string& part,
                               const RegradeFindings& findings);

/// `--collect`: write_regrade_file() of every part's findings together, then the parts' files
/// removed (a second collect finds none and leaves regrade.csv as the first wrote it); "" when
/// there are none.
Result<std::string> collect_regrade_parts(const std::filesystem::path& out);

}  // namespace cugrade
