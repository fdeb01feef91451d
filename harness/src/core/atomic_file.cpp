#include "core/atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

namespace cugrade {
namespace fs = std::filesystem;

Result<bool> write_file_atomically(const fs::path& path, std::string_view text, std::string_view what) {
  std::error_code ec;
  const std::string name = std::string(what) + path.string();
  // A link is not silently replaced by a file (nor followed to wherever it points).
  if (std::error_code missing; fs::is_symlink(fs::symlink_status(path, missing)))
    return fail(fmt::format("cannot write {}: it is a symbolic link, which cugrade does not replace (give the "
                            "path of a file)", name));
  if (path.has_parent_path()) fs::create_directories(path.parent_path(), ec);
  if (ec) return fail(fmt::format("cannot create the folder of {}: {}", name, ec.message()));
  // Unique per process and per call, so parallel workers never share a temporary file.
  static std::atomic<unsigned> counter{0};
  fs::path temporary = path;
  temporary += fmt::format(".tmp-{}-{}", ::getpid(), counter++);
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return fail(fmt::format("cannot write {}: {}", name, std::strerror(errno)));
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t wrote = ::write(fd, text.data() + done, text.size() - done);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0) {
      const std::string why = wrote < 0 ? std::strerror(errno) : "the disk took no more bytes";
      ::close(fd);
      fs::remove(temporary, ec);
      return fail(fmt::format("cannot write {}: {}", name, why));
    }
    done += static_cast<std::size_t>(wrote);
  }
  // Why fsync before the rename: after a power cut the rename could otherwise survive while the
  // data did not, leaving an empty "finished" result behind.
  ::fsync(fd);
  ::close(fd);
  fs::rename(temporary, path, ec);
  if (ec) {
    const std::string why = ec.message();  // before remove() reuses ec
    fs::remove(temporary, ec);
    return fail(fmt::format("cannot write {}: {}", name, why));
  }
  return true;
}

Result<std::string> read_whole_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail("cannot read " + path.string() + ": " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return fail("cannot read " + path.string());
  return text.str();
}

}  // namespace cugrade
