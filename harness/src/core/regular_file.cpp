#include "core/regular_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

namespace cugrade {

FileDescriptor& FileDescriptor::operator=(FileDescriptor&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.release();
  }
  return *this;
}

FileDescriptor::~FileDescriptor() {
  if (fd_ >= 0) ::close(fd_);
}

namespace {

/// What a file of `mode` is, when it is not a regular file; empty for a regular file.
std::string_view not_a_file(mode_t mode) {
  if (S_ISREG(mode)) return {};
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISFIFO(mode)) return "a named pipe (FIFO)";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISDIR(mode)) return "a folder";
  return "not a regular file";
}

Result<FileDescriptor> refused(std::string_view shown, std::string_view what) {
  return fail(fmt::format("{} is {}, not a file: a submission is regular files only", shown, what));
}

}  // namespace

std::string size_in_words(std::uint64_t bytes) {
  if (bytes >= (1u << 20) && bytes % (1u << 20) == 0) return fmt::format("{} MiB", bytes >> 20);
  if (bytes >= 1024 && bytes % 1024 == 0) return fmt::format("{} KiB", bytes >> 10);
  return fmt::format("{} bytes", bytes);
}

Result<FileDescriptor> open_regular_file(const std::filesystem::path& path, std::string_view shown) {
  struct stat named {};
  if (::lstat(path.c_str(), &named) != 0) {
    if (errno == ENOENT) return fail(fmt::format("{} does not exist", shown));
    return fail(fmt::format("cannot read {}: {}", shown, std::strerror(errno)));
  }
  // Refused before opening: opening some devices does something (a tape rewinds, a terminal
  // becomes ours), and opening a pipe for reading is what must not wait.
  if (const auto what = not_a_file(named.st_mode); !what.empty()) return refused(shown, what);
  FileDescriptor fd(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
  if (fd.get() < 0) {
    if (errno == ELOOP) return refused(shown, "a symbolic link");
    return fail(fmt::format("cannot read {}: {}", shown, std::strerror(errno)));
  }
  struct stat opened {};
  if (::fstat(fd.get(), &opened) != 0) return fail(fmt::format("cannot read {}: {}", shown, std::strerror(errno)));
  if (const auto what = not_a_file(opened.st_mode); !what.empty()) return refused(shown, what);
  return fd;
}

Result<std::string> read_regular_file(const std::filesystem::path& path, std::string_view shown,
                                      std::uint64_t max_bytes) {
  auto fd = open_regular_file(path, shown);
  if (!fd) return std::unexpected(fd.error());
  const auto too_large = [&] { return fail(fmt::format("{} is larger than {}", shown, size_in_words(max_bytes))); };
  struct stat info {};
  if (::fstat(fd->get(), &info) == 0 && static_cast<std::uint64_t>(info.st_size) > max_bytes) return too_large();
  // The size can change while it is read (a file still being written): the limit is kept on
  // what is read, not on what fstat said.
  std::string content;
  char buffer[64 * 1024];
  for (;;) {
    const ssize_t got = ::read(fd->get(), buffer, sizeof buffer);
    if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (got < 0) return fail(fmt::format("cannot read {}: {}", shown, std::strerror(errno)));
    if (got == 0) break;
    if (content.size() + static_cast<std::uint64_t>(got) > max_bytes) return too_large();
    content.append(buffer, static_cast<std::size_t>(got));
  }
  return content;
}

}  // namespace cugrade
