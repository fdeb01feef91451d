#pragma once
// When a student handed in, for the late flag: by the best evidence the submission holds, since
// file modification times are the copy's (a `cp` or a `git clone` makes everyone late).
#include <cstdint>
#include <filesystem>
#include <string>

#include "process/process_runner.hpp"

namespace cugrade {

/// A hand-in time and where it came from.
struct SubmissionTime {
  std::int64_t unix_seconds = 0;  ///< seconds since the epoch
  /// "git" (the last commit's committer date), "gradescope" (submission_metadata.json's
  /// created_at), "archive" (the newest time stored in the archive's entries), "archive file"
  /// (the archive's own modification time, when its entries hold none), "files" (the newest
  /// modification time of the folder's files).
  std::string source;
};

/// The time of a submission unpacked or found at `root`, its .cu files in `files_dir` (root or a
/// folder inside it): from a git repository (a `.git` folder, not a link, in `files_dir` or a
/// folder between it and `root`), read with `git log -1 --format=%cI` as a plain child process
/// (no shell, no pager, signatures and fsmonitor off, a bare environment, 10 s at most);
/// else from Gradescope's `submission_metadata.json` (its `created_at`) in the same folders;
/// else `fallback` (archive entry times or file modification times). A repository or metadata
/// file that cannot be read falls through to the next source.
SubmissionTime submission_time(ProcessRunner& processes, const std::filesystem::path& root,
                               const std::filesystem::path& files_dir, const SubmissionTime& fallback);

}  // namespace cugrade
