#pragma once
// Helpers of the batch tests: a temporary folder, files written in one call, and archives made
// with libarchive itself, so a test can hand in exactly the entries it means to (an absolute
// path, "..", a link pointing out) — what no well-behaved archiver would write.
#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <doctest/doctest.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "temp_dir.hpp"

namespace cugrade::test {

namespace fs = std::filesystem;

/// A fresh folder, removed with everything in it at the end of the test.
using TempFolder = TempDir;

/// Writes `text` to `path`, creating its folder.
inline void write_text(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

/// The content of `path` ("" when it cannot be read).
inline std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// One entry of an archive a test makes.
struct Entry {
  std::string name;
  std::string content;           ///< for a file
  enum Kind { file, folder, symlink, hardlink, fifo, device } kind = file;
  std::string target;            ///< for links
};

/// Writes `entries` as a zip (`zip` true) or a gzip-compressed tar at `path`.
inline void make_archive(const fs::path& path, const std::vector<Entry>& entries, bool zip) {
  struct archive* out = archive_write_new();
  if (zip) {
    archive_write_set_format_zip(out);
  } else {
    archive_write_set_format_pax_restricted(out);
    archive_write_add_filter_gzip(out);
  }
  REQUIRE(archive_write_open_filename(out, path.c_str()) == ARCHIVE_OK);
  for (const auto& e : entries) {
    struct archive_entry* entry = archive_entry_new();
    archive_entry_set_pathname(entry, e.name.c_str());
    archive_entry_set_perm(entry, 0644);
    switch (e.kind) {
      case Entry::file:
        archive_entry_set_filetype(entry, AE_IFREG);
        archive_entry_set_size(entry, static_cast<la_int64_t>(e.content.size()));
        break;
      case Entry::folder: archive_entry_set_filetype(entry, AE_IFDIR); break;
      case Entry::symlink:
        archive_entry_set_filetype(entry, AE_IFLNK);
        archive_entry_set_symlink(entry, e.target.c_str());
        break;
      case Entry::hardlink:
        archive_entry_set_filetype(entry, AE_IFREG);
        archive_entry_set_hardlink(entry, e.target.c_str());
        break;
      case Entry::fifo: archive_entry_set_filetype(entry, AE_IFIFO); break;
      case Entry::device:  // /dev/zero's numbers
        archive_entry_set_filetype(entry, AE_IFCHR);
        archive_entry_set_rdevmajor(entry, 1);
        archive_entry_set_rdevminor(entry, 5);
        break;
    }
    // ARCHIVE_WARN: a name libarchive cannot convert to the archive's character set (in the C
    // locale, anything not ASCII) is written as its bytes, which is what the tests mean to make.
    REQUIRE(archive_write_header(out, entry) >= ARCHIVE_WARN);
    if (e.kind == Entry::file && !e.content.empty())
      REQUIRE(archive_write_data(out, e.content.data(), e.content.size()) == static_cast<la_ssize_t>(e.content.size()));
    archive_entry_free(entry);
  }
  archive_write_close(out);
  archive_write_free(out);
}

/// Sets the modification time of `path` (seconds since the epoch).
inline void set_mtime(const fs::path& path, std::int64_t unix_seconds) {
  const timespec times[2] = {{static_cast<time_t>(unix_seconds), 0}, {static_cast<time_t>(unix_seconds), 0}};
  REQUIRE(::utimensat(AT_FDCWD, path.c_str(), times, 0) == 0);
}

}  // namespace cugrade::test
