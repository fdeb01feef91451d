#include "core/program_path.hpp"

#include <unistd.h>

#include <string>
#include <system_error>
#include <vector>

namespace cugrade {

std::filesystem::path find_program(std::string_view name, std::string_view path_list) {
  std::vector<std::string> dirs;
  while (!path_list.empty()) {
    const auto colon = path_list.find(':');
    dirs.emplace_back(path_list.substr(0, colon));
    if (colon == std::string_view::npos) break;
    path_list.remove_prefix(colon + 1);
  }
  dirs.insert(dirs.end(), {"/usr/bin", "/bin"});
  for (const auto& dir : dirs) {
    if (dir.empty() || dir.front() != '/') continue;  // a relative PATH entry names nothing fixed
    const std::filesystem::path candidate = std::filesystem::path(dir) / name;
    std::error_code ec;
    if (std::filesystem::is_regular_file(candidate, ec) && ::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return {};
}

}  // namespace cugrade
