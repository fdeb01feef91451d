#include "process/step_folder.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <system_error>
#include <vector>

namespace cugrade {
namespace fs = std::filesystem;

void remove_planted_links(const fs::path& folder) {
  std::error_code ec;
  if (!fs::is_directory(fs::symlink_status(folder, ec))) return;
  std::vector<fs::path> planted;
  for (auto it = fs::recursive_directory_iterator(folder, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    const fs::file_status status = it->symlink_status(ec);  // never followed: a link is not entered
    if (!fs::is_regular_file(status) && !fs::is_directory(status)) planted.push_back(it->path());
  }
  for (const auto& path : planted) fs::remove(path, ec);
}

bool create_empty_file(const fs::path& file) {
  for (int attempt = 0; attempt < 2; ++attempt) {
    const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd >= 0) {
      ::close(fd);
      return true;
    }
    if (errno != EEXIST) return false;
    struct stat st {};
    if (::lstat(file.c_str(), &st) == 0 && S_ISREG(st.st_mode)) return true;
    ::unlink(file.c_str());  // the link itself, never what it points to
  }
  return false;
}

}  // namespace cugrade
