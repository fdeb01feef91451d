#include "batch/submission_fingerprint.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "core/printable.hpp"
#include "core/regular_file.hpp"
#include "core/sha256.hpp"

namespace cugrade {
namespace fs = std::filesystem;

namespace {

/// Seconds since the epoch of the last modification, without following a symbolic link.
std::int64_t modified_unix(const fs::path& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0 ? static_cast<std::int64_t>(st.st_mtim.tv_sec) : 0;
}

}  // namespace

namespace {

/// fingerprint_submission of a student's loose files (Canvas's, Blackboard's): a manifest of each
/// file's own name and content, as a folder's, Canvas's late mark and Blackboard's attempt time; a
/// link or anything but a regular file among them is refused.
Result<SubmissionFingerprint> fingerprint_loose_files(const SubmissionSource& source, std::uint64_t max_bytes) {
  SubmissionFingerprint print;
  std::string manifest;
  for (const LooseFile& file : source.files) {
    const std::string shown = printable(file.path.filename().string());
    const std::int64_t modified = modified_unix(file.path);
    print.submitted_unix = std::max(print.submitted_unix, modified);
    std::error_code ec;
    const fs::file_status status = fs::symlink_status(file.path, ec);
    if (fs::is_regular_file(status) && print.bytes + fs::file_size(file.path, ec) > max_bytes && !ec) {
      print.refused = fmt::format("the submission is larger than {} MiB; is it the right folder?", max_bytes >> 20);
      print.sha256 = sha256_hex(file.path.filename().string() + '\0' + print.refused);
      return print;
    }
    auto bytes = read_regular_file(file.path, shown, max_bytes - print.bytes);
    if (!bytes) {
      print.refused = bytes.error().message;  // it says what the entry is instead, or that it is too large
      print.sha256 = sha256_hex(file.path.filename().string() + '\0' + print.refused);
      return print;
    }
    print.bytes += bytes->size();
    manifest += file.name + '\0' + sha256_hex(*bytes) + '\n';
  }
  // Canvas's mark is part of what was handed in: a download after an extension is graded again,
  // so that the kept result's late column follows the new mark.
  if (source.late) manifest += "late\n";
  // Blackboard's attempt time says when it was handed in: a new attempt is graded again.
  if (!source.attempt.empty()) manifest += "attempt " + source.attempt + "\n";
  print.sha256 = sha256_hex(manifest);
  return print;
}

}  // namespace

Result<SubmissionFingerprint> fingerprint_submission(const SubmissionSource& source, std::uint64_t max_bytes) {
  SubmissionFingerprint print;
  const std::string shown = printable(source.path.filename().string());
  const auto too_large = [&] {
    return fail(fmt::format("the submission is larger than {} MiB; is it the right folder?", max_bytes >> 20));
  };
  struct stat top {};
  if (::lstat(source.path.c_str(), &top) != 0) return fail("cannot read " + shown + ": " + std::strerror(errno));
  if (source.kind == SourceKind::canvas || source.kind == SourceKind::blackboard)
    return fingerprint_loose_files(source, max_bytes);
  // An entry that is not data is fingerprinted by what it is, so that a later run knows it is
  // unchanged (and does not retry it), and refused as the student's result.
  const bool archive = source.kind != SourceKind::folder;
  if (S_ISLNK(top.st_mode) || (archive ? !S_ISREG(top.st_mode) : !S_ISDIR(top.st_mode))) {
    std::error_code ec;
    const std::string what = S_ISLNK(top.st_mode) ? "symlink:" + fs::read_symlink(source.path, ec).string()
                                                  : fmt::format("special:{:o}", top.st_mode & S_IFMT);
    print.sha256 = sha256_hex(what);
    print.submitted_unix = modified_unix(source.path);
    if (S_ISLNK(top.st_mode))
      print.refused = shown + " is a symbolic link: a submission is regular files and folders only (copy it in with cp -rL)";
    else if (!archive)
      print.refused = shown + " is not a folder";
    else if (auto opened = read_regular_file(source.path, shown, 0); !opened)
      print.refused = opened.error().message;  // it says what the entry is instead
    else
      print.refused = shown + " is not a regular file";
    return print;
  }
  if (archive) {
    auto bytes = read_regular_file(source.path, shown, max_bytes);
    if (!bytes) return std::unexpected(bytes.error());
    print.sha256 = sha256_hex(*bytes);
    print.bytes = bytes->size();
    print.submitted_unix = modified_unix(source.path);
    return print;
  }
  // Why a manifest of (path, hash of content) lines and not the contents alone: renaming or
  // moving a file changes what is graded, so it must change the fingerprint too. Nothing is
  // followed or opened but regular files: a link is hashed by its target, a pipe or device by
  // its kind (grading refuses them; the fingerprint only has to change when they do).
  std::vector<std::pair<std::string, fs::path>> files;
  std::error_code ec;
  fs::recursive_directory_iterator it(source.path, fs::directory_options::none, ec);
  for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const fs::file_status status = it->symlink_status(ec);
    if (ec) break;
    if (!fs::is_directory(status))
      files.emplace_back(fs::relative(it->path(), source.path, ec).generic_string(), it->path());
  }
  if (ec) return fail("cannot read the folder " + shown + ": " + ec.message());
  std::sort(files.begin(), files.end());
  std::string manifest;
  print.submitted_unix = modified_unix(source.path);
  bool any_file = false;
  for (const auto& [relative, path] : files) {
    std::string content;
    const fs::file_status status = fs::symlink_status(path, ec);
    if (fs::is_symlink(status)) {
      content = "symlink:" + fs::read_symlink(path, ec).string();
    } else if (!fs::is_regular_file(status)) {
      content = fmt::format("special:{}", static_cast<int>(status.type()));
    } else {
      // Sized before it is read: a file of many GiB is refused without being read at all.
      const std::uintmax_t size = fs::file_size(path, ec);
      if (!ec && print.bytes + size > max_bytes) return too_large();
      auto bytes = read_regular_file(path, shown + "/" + printable(relative), max_bytes - print.bytes);
      if (!bytes) return std::unexpected(bytes.error());
      content = std::move(*bytes);
      print.bytes += content.size();
    }
    const std::int64_t modified = modified_unix(path);
    print.submitted_unix = any_file ? std::max(print.submitted_unix, modified) : modified;
    any_file = true;
    manifest += relative + '\0' + sha256_hex(content) + '\n';
  }
  print.sha256 = sha256_hex(manifest);
  return print;
}

}  // namespace cugrade
