#pragma once
// When a student handed in, for the late flag: by the best evidence the submission holds, since
// file modification times are the copy's (a `cp` or a `git clone` makes everyone late).
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

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

/// The time of a submission unpacked or found at `root` (`archive`: unpacked from an archive),
/// graded from `files` (inside root; the first one's folder is `files_dir`): from a git
/// repository (a `.git` folder, not a link, in `files_dir` or a folder between it and `root`),
/// read with `git log -1 --format=%cI` as a plain child process (no shell, no pager, signatures
/// and fsmonitor off, no filter, a bare environment, 10 s at most), where every file graded is
/// as that commit holds it (one edited or added since says nothing of the commit's date); else
/// from Gradescope's
/// `submission_metadata.json` (its `created_at`) where Gradescope writes it, beside a folder
/// `submission/` that holds the files, in a folder given as such (never in an archive: there,
/// as beside the .cu files, it is one of the student's own files and could say any time); else
/// `fallback` (archive entry times or file modification times). A repository or metadata file
/// that cannot be read falls through to the next source.
SubmissionTime submission_time(ProcessRunner& processes, const std::filesystem::path& root,
                               const std::vector<std::filesystem::path>& files, const SubmissionTime& fallback,
                               bool archive = false);

}  // namespace cugrade
