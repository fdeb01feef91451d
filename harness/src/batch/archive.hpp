#pragma once
// Unpacking a student's .zip or .tar.gz, which is untrusted input: nothing may land outside the
// destination (absolute paths, "..", links pointing out), and an archive that expands to far
// more than a submission needs (a zip bomb) is refused rather than allowed to fill the disk.
#include <cstdint>
#include <filesystem>

#include "core/result.hpp"

namespace cugrade {

/// The most an archive may expand to.
struct UnpackLimits {
  std::size_t max_entries = 2000;                     ///< files, folders and links together
  std::uint64_t max_total_bytes = std::uint64_t{64} << 20;  ///< of all files, as unpacked
  std::uint64_t max_file_bytes = std::uint64_t{16} << 20;   ///< of any one file
  int max_depth = 16;                                 ///< folders deep
};

/// What was unpacked.
struct UnpackStats {
  std::size_t files = 0;    ///< regular files written
  std::size_t folders = 0;  ///< folder entries
  std::size_t skipped_links = 0;  ///< links inside the archive, left out (never needed to grade)
  std::uint64_t bytes = 0;  ///< written in all
  /// Newest modification time stored with a file entry; 0: none stored (or only the DOS epoch,
  /// 1980-01-01, of a zip made without times).
  std::int64_t newest_file_unix = 0;
};

/// Unpacks `archive` (zip, or tar optionally gzip-compressed: the format is read from the
/// content) into `dest`, which must be an empty or new folder. Only regular files and folders are
/// created, with the permissions rw-r--r-- / rwxr-xr-x. Refused, with a message naming the entry:
/// an absolute path, a ".." component, a link pointing outside the archive, a device or pipe,
/// anything past `limits`, an unreadable or encrypted entry. On failure `dest` may hold part of
/// the archive; the caller discards it.
Result<UnpackStats> unpack_archive(const std::filesystem::path& archive, const std::filesystem::path& dest,
                                   const UnpackLimits& limits = {});

}  // namespace cugrade
