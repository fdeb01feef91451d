#pragma once
// What identifies a submission's content, so that a batch grades again only what changed, and the
// time its files give for when it was handed in.
#include <cstdint>
#include <string>

#include "batch/submission_source.hpp"
#include "core/result.hpp"

namespace cugrade {

/// What identifies the content of a submission and when it was handed in.
struct SubmissionFingerprint {
  std::string sha256;           ///< of the archive's bytes, or of every file of the folder (paths and contents)
  std::int64_t submitted_unix = 0;  ///< newest modification time of its files (of the archive itself), seconds
  std::uint64_t bytes = 0;      ///< total size hashed
  /// Why the entry itself is not a submission (a symbolic link, an archive name on a pipe):
  /// graded as not_run with this reason; fingerprinted by what it is, so an unchanged one is
  /// not graded again. Empty for a folder or an archive.
  std::string refused;

  /// Whether nothing to read was handed in (an entry refused as what it is, or no bytes at all):
  /// then its own time says when it was made or copied, not when anything was handed in.
  bool holds_nothing() const { return !refused.empty() || bytes == 0; }
};

/// Hashes a submission: an archive's bytes, or a folder's files in path order (each file's
/// relative path and content; symbolic links by their target, pipes and devices by their kind,
/// none of them opened). An entry that is itself a link, or an archive name on something not a
/// regular file, is fingerprinted by what it is and `refused` says why. Fails on an unreadable
/// file or past `max_bytes` in all.
Result<SubmissionFingerprint> fingerprint_submission(const SubmissionSource& source,
                                                     std::uint64_t max_bytes = std::uint64_t{256} << 20);

}  // namespace cugrade
