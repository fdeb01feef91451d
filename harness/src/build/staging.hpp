#pragma once
// The folder a student's compile sees (design.md §4, trust): only the submission's own files,
// under names the harness chose, and the assignment's interface.cuh. Nothing the student named
// reaches a command line (nvcc runs its sub-commands through a shell), and the include path is
// this folder alone, so a quoted include cannot find the course's files next to the submission.
#include <expected>
#include <filesystem>
#include <string>
#include <vector>

#include "report/grade_report.hpp"

namespace cugrade {

/// Where staged sources go, relative to the build folder.
inline constexpr std::string_view staging_folder = "src";

/// Largest submission file or header staged (the pipeline's limits are usually smaller).
inline constexpr std::uint64_t staged_file_limit_bytes = std::uint64_t{4} << 20;

/// One file of the staged submission.
struct StagedFile {
  std::filesystem::path original;  ///< where it came from
  std::string staged;              ///< relative to the build folder: "src/submission_0.cu"
  std::string shown;               ///< how messages name it: "vecadd.cu", "helpers.cuh"
};

/// The submission as the compiler sees it.
struct Staging {
  std::vector<StagedFile> sources;  ///< "src/submission_<i>.cu", in the request's order
  /// The student's headers, staged by the (plain) names their files include them by, and the
  /// assignment's interface.cuh as "src/interface.cuh".
  std::vector<StagedFile> headers;
};

/// Why a submission cannot be staged: a file that is missing, empty, not a regular file or too
/// large, or a construct scan_source refuses (source_scan.hpp). Always the student's
/// compile_error.
struct StagingFailure {
  std::string message;                  ///< one sentence naming the file, the line and what to do
  std::vector<Diagnostic> diagnostics;  ///< each refused construct, on the student's line
};

/// The staged name of the submission's `index`-th source file, without the folder: "submission_<i>.cu".
std::string staged_source_name(std::size_t index);

/// How reports name a file a tool printed (a sanitizer's or profiler's "src/submission_1.cu"):
/// the student's name of that source from `names` (the submission's files, in order), else the
/// printed name without its folders.
std::string shown_source_name(std::string_view printed, const std::vector<std::string>& names);

/// Copies `sources` into <build_dir>/src as submission_<i>.cu, each checked by scan_source.
/// A quoted include of a plain name that exists next to the including file (the student's own
/// header) is staged under that name, checked the same way, and its own includes followed;
/// includes of interface.cuh get the assignment's copy. Replaces what an earlier staging left.
std::expected<Staging, StagingFailure> stage_submission(
    const std::vector<std::filesystem::path>& sources, const std::filesystem::path& assignment_dir,
    const std::filesystem::path& build_dir);

}  // namespace cugrade
