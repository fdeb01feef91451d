#pragma once
// Reading files a student handed in, as data (design.md §4: submissions are regular files). A
// path may name a symbolic link (to a secret, to /dev/zero), a named pipe that blocks a reader
// forever, a device or a socket; none of them is followed, opened for long or read. The check
// is made twice: on the name (lstat) before opening, and on the opened file (fstat), so a name
// swapped in between is still caught.
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "core/result.hpp"

namespace cugrade {

/// An open file descriptor, closed when it goes.
class FileDescriptor {
 public:
  /// Owns `fd` (-1: none).
  explicit FileDescriptor(int fd = -1) : fd_(fd) {}
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  /// Takes `other`'s descriptor.
  FileDescriptor(FileDescriptor&& other) noexcept : fd_(other.release()) {}
  /// Closes its own and takes `other`'s descriptor.
  FileDescriptor& operator=(FileDescriptor&& other) noexcept;
  /// Closes the descriptor.
  ~FileDescriptor();
  /// The descriptor (-1: none).
  int get() const { return fd_; }
  /// Gives the descriptor up without closing it.
  int release() {
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }

 private:
  int fd_;
};

/// "1 MiB", "512 KiB", "100 bytes": a size limit in words.
std::string size_in_words(std::uint64_t bytes);

/// Opens `path` for reading when it is a regular file: never through a symbolic link
/// (O_NOFOLLOW), never waiting on a pipe (O_NONBLOCK), close-on-exec, and checked on the opened
/// file (fstat). Otherwise an error naming `shown` (how the message calls the file): "vecadd.cu
/// is a symbolic link", "... is a named pipe (FIFO)", "... is a device", "... is a socket", "...
/// is a folder", "... does not exist".
Result<FileDescriptor> open_regular_file(const std::filesystem::path& path, std::string_view shown);

/// The content of the regular file `path` (as open_regular_file takes it), when it holds at most
/// `max_bytes`; else an error "<shown> is larger than <limit>", read no further than the limit.
Result<std::string> read_regular_file(const std::filesystem::path& path, std::string_view shown,
                                      std::uint64_t max_bytes);

}  // namespace cugrade
