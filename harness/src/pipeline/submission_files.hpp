#pragma once
// Which files a submission is: the one rule `cugrade check` and `cugrade grade` share. A
// submission is data: regular files within the spec's size limits, whatever bytes their names
// hold. A symbolic link, a named pipe, a device or a socket is refused with a message naming
// it, without following, opening for long or reading it.
#include <filesystem>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "spec/spec.hpp"

namespace cugrade {

/// One file of a submission, and how messages name it.
struct SubmissionFile {
  std::filesystem::path path;  ///< absolute
  std::string shown;           ///< as given, or relative to a folder; printable (core/printable.hpp)
};

/// The .cu files named by `given`: files as given, a folder's .cu entries in name order (its
/// sub-folders are not looked into, even when named .cu; a folder given may be reached through a
/// link). With `shown_from`, names are shown relative to it. An error for a name that does not
/// exist or a folder without a .cu file; nothing is opened yet.
Result<std::vector<SubmissionFile>> list_submission_files(const std::vector<std::string>& given,
                                                          const std::filesystem::path& shown_from = {});

/// Whether `files` are data: each a regular file (not a link, pipe, device or socket) of at most
/// `limits.submission_file_bytes`, all together at most `limits.submission_bytes`. Each is opened
/// and read once (core/regular_file.hpp); the error names the first that is not.
Result<bool> check_submission_files(const std::vector<SubmissionFile>& files, const Limits& limits);

/// Both of the above: the paths of the .cu files when they are data, else the first error.
Result<std::vector<std::filesystem::path>> submission_files(const std::vector<std::string>& given,
                                                            const Limits& limits = {},
                                                            const std::filesystem::path& shown_from = {});

}  // namespace cugrade
