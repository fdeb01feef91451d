#include "pipeline/submission_files.hpp"

#include <algorithm>

namespace cugrade {
namespace fs = std::filesystem;

Result<std::vector<fs::path>> submission_files(const std::vector<std::string>& given) {
  std::vector<fs::path> files;
  for (const auto& item : given) {
    const fs::path path(item);
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
      std::vector<fs::path> found;
      for (const auto& entry : fs::directory_iterator(path, ec))
        if (entry.path().extension() == ".cu") found.push_back(fs::absolute(entry.path()));
      if (ec) return fail("cannot read the folder " + item + ": " + ec.message());
      if (found.empty()) return fail("the folder " + item + " holds no .cu file");
      std::sort(found.begin(), found.end());
      files.insert(files.end(), found.begin(), found.end());
    } else if (!fs::exists(path, ec)) {
      return fail("submission file " + item + " does not exist");
    } else {
      files.push_back(fs::absolute(path));
    }
  }
  return files;
}

}  // namespace cugrade
