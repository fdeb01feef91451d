#include "batch/archive.hpp"

#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/printable.hpp"
#include "core/regular_file.hpp"

namespace cugrade {
namespace fs = std::filesystem;

namespace {

using ArchivePtr = std::unique_ptr<struct archive, decltype(&archive_read_free)>;

/// The path of an entry as relative components; an error for an absolute path or "..".
Result<std::vector<std::string>> safe_components(const std::string& name, const UnpackLimits& limits) {
  if (name.empty()) return fail("an entry has no name");
  if (name.front() == '/' || name.front() == '\\' || (name.size() > 1 && name[1] == ':'))
    return fail(fmt::format("the entry \"{}\" has an absolute path", printable(name)));
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (start <= name.size()) {
    std::size_t end = name.find_first_of("/\\", start);
    if (end == std::string::npos) end = name.size();
    const std::string part = name.substr(start, end - start);
    if (part == "..") return fail(fmt::format("the entry \"{}\" points outside the archive (\"..\")", printable(name)));
    if (!part.empty() && part != ".") parts.push_back(part);
    start = end + 1;
  }
  if (static_cast<int>(parts.size()) > limits.max_depth)
    return fail(fmt::format("the entry \"{}\" is nested more than {} folders deep", printable(name), limits.max_depth));
  return parts;
}

/// Whether a link stored at `entry` (components) with `target` stays inside the archive.
bool link_stays_inside(const std::vector<std::string>& entry, const std::string& target) {
  if (target.empty() || target.front() == '/') return false;
  // Resolved from the link's own folder, lexically: every ".." must stay at or below the top.
  long depth = static_cast<long>(entry.size()) - 1;
  std::size_t start = 0;
  while (start <= target.size()) {
    std::size_t end = target.find('/', start);
    if (end == std::string::npos) end = target.size();
    const std::string part = target.substr(start, end - start);
    if (part == "..") {
      if (--depth < 0) return false;
    } else if (!part.empty() && part != ".") {
      ++depth;
    }
    start = end + 1;
  }
  return true;
}

fs::path join(const fs::path& dest, const std::vector<std::string>& parts) {
  fs::path path = dest;
  for (const auto& p : parts) path /= p;
  return path;
}

/// Copies the current entry's data into a new file, counting against the limits as it goes
/// (the sizes in an archive's headers are the archive's word, not a fact).
Result<std::uint64_t> write_entry(struct archive* in, const fs::path& path, const std::string& name,
                                  const UnpackLimits& limits, std::uint64_t total_so_far) {
  // O_EXCL | O_NOFOLLOW: a second entry of the same name, or anything already there, is refused
  // rather than written through.
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) {
    const int error = errno;  // before anything else can change it
    return fail(fmt::format("cannot unpack \"{}\": {}", printable(name), std::strerror(error)));
  }
  std::uint64_t written = 0;
  char buffer[64 * 1024];
  for (;;) {
    const la_ssize_t got = archive_read_data(in, buffer, sizeof buffer);
    if (got == 0) break;
    if (got < 0) {
      const std::string why = archive_error_string(in) ? archive_error_string(in) : "unreadable data";
      ::close(fd);
      return fail(fmt::format("cannot unpack \"{}\": {}", printable(name), why));
    }
    written += static_cast<std::uint64_t>(got);
    if (written > limits.max_file_bytes) {
      ::close(fd);
      return fail(fmt::format("the entry \"{}\" unpacks to more than {} MiB", printable(name), limits.max_file_bytes >> 20));
    }
    if (total_so_far + written > limits.max_total_bytes) {
      ::close(fd);
      return fail(fmt::format("the archive unpacks to more than {} MiB", limits.max_total_bytes >> 20));
    }
    for (la_ssize_t done = 0; done < got;) {
      const ssize_t w = ::write(fd, buffer + done, static_cast<std::size_t>(got - done));
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) {
        const int error = errno;
        ::close(fd);
        return fail(fmt::format("cannot unpack \"{}\": {}", printable(name), std::strerror(error)));
      }
      done += w;
    }
  }
  ::close(fd);
  return written;
}

}  // namespace

Result<UnpackStats> unpack_archive(const fs::path& archive, const fs::path& dest, const UnpackLimits& limits) {
  std::error_code ec;
  fs::create_directories(dest, ec);
  if (ec) return fail("cannot create " + dest.string() + ": " + ec.message());
  // Opened as data, like any file a student hands in: not through a link, not a pipe or device.
  auto fd = open_regular_file(archive, printable(archive.filename().string()));
  if (!fd) return std::unexpected(fd.error());
  ArchivePtr in(archive_read_new(), archive_read_free);  // freed before `fd` is closed
  archive_read_support_format_zip(in.get());
  archive_read_support_format_tar(in.get());
  archive_read_support_filter_gzip(in.get());
  if (archive_read_open_fd(in.get(), fd->get(), 64 * 1024) != ARCHIVE_OK)
    return fail(fmt::format("cannot open the archive: {}",
                            archive_error_string(in.get()) ? archive_error_string(in.get()) : "unknown format"));
  UnpackStats stats;
  std::size_t entries = 0;
  for (;;) {
    struct archive_entry* entry = nullptr;
    const int status = archive_read_next_header(in.get(), &entry);
    if (status == ARCHIVE_EOF) break;
    if (status < ARCHIVE_WARN)
      return fail(fmt::format("the archive is damaged: {}",
                              archive_error_string(in.get()) ? archive_error_string(in.get()) : "unreadable header"));
    if (++entries > limits.max_entries)
      return fail(fmt::format("the archive holds more than {} entries", limits.max_entries));
    const char* raw_name = archive_entry_pathname(entry);
    const std::string name = raw_name ? raw_name : "";
    auto parts = safe_components(name, limits);
    if (!parts) return std::unexpected(parts.error());
    if (parts->empty()) continue;  // "./" itself
    const fs::path path = join(dest, *parts);
    if (const char* target = archive_entry_hardlink(entry)) {
      auto target_parts = safe_components(target, limits);
      if (!target_parts) return fail(fmt::format("the link \"{}\" points outside the archive", printable(name)));
      ++stats.skipped_links;
      continue;
    }
    switch (archive_entry_filetype(entry)) {
      case AE_IFDIR:
        fs::create_directories(path, ec);
        if (ec) return fail(fmt::format("cannot unpack \"{}\": {}", printable(name), ec.message()));
        ++stats.folders;
        break;
      case AE_IFLNK: {
        const char* target = archive_entry_symlink(entry);
        if (!link_stays_inside(*parts, target ? target : ""))
          return fail(fmt::format("the link \"{}\" points outside the archive (to \"{}\")", printable(name),
                                  printable(target ? target : "")));
        // Links that stay inside are left out all the same: since no link is ever created, no
        // later entry can be written through one.
        ++stats.skipped_links;
        break;
      }
      case AE_IFREG: {
        fs::create_directories(path.parent_path(), ec);
        if (ec) return fail(fmt::format("cannot unpack \"{}\": {}", printable(name), ec.message()));
        auto written = write_entry(in.get(), path, name, limits, stats.bytes);
        if (!written) return std::unexpected(written.error());
        stats.bytes += *written;
        // A zip made without times holds the DOS epoch (1980-01-01): no time at all.
        if (archive_entry_mtime_is_set(entry) && archive_entry_mtime(entry) > 315619200)
          stats.newest_file_unix = std::max<std::int64_t>(stats.newest_file_unix, archive_entry_mtime(entry));
        ++stats.files;
        break;
      }
      default:
        return fail(fmt::format("the entry \"{}\" is a device, pipe or socket, not a file", printable(name)));
    }
  }
  return stats;
}

}  // namespace cugrade
