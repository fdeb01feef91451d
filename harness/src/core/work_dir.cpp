#include "core/work_dir.hpp"

#include <stdexcept>
#include <stdlib.h>
#include <string>

namespace cugrade {

std::filesystem::path make_work_dir(const std::filesystem::path& requested, std::string_view prefix) {
  if (!requested.empty()) {
    std::filesystem::create_directories(requested);
    return requested;
  }
  std::string pattern = (std::filesystem::temp_directory_path() / (std::string(prefix) + "XXXXXX")).string();
  if (!mkdtemp(pattern.data())) throw std::runtime_error("cannot create a temporary folder");
  return pattern;
}

}  // namespace cugrade
