#include "pipeline/submission_files.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/printable.hpp"
#include "core/regular_file.hpp"

namespace cugrade {
namespace fs = std::filesystem;

namespace {

/// `file` as messages show it: as given, or relative to `from`.
std::string shown(const fs::path& file, const fs::path& from) {
  return printable(from.empty() ? file.string() : file.lexically_relative(from).string());
}

}  // namespace

Result<std::vector<SubmissionFile>> list_submission_files(const std::vector<std::string>& given,
                                                          const fs::path& shown_from) {
  std::vector<SubmissionFile> files;
  for (const auto& item : given) {
    const fs::path path(item);
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
      std::vector<fs::path> found;
      for (fs::directory_iterator it(path, ec); !ec && it != fs::directory_iterator(); it.increment(ec))
        if (it->path().extension() == ".cu" && !fs::is_directory(it->symlink_status(ec)))
          found.push_back(fs::absolute(it->path()));
      if (ec) return fail("cannot read the folder " + shown(path, shown_from) + ": " + ec.message());
      if (found.empty()) return fail("the folder " + shown(path, shown_from) + " holds no .cu file");
      std::sort(found.begin(), found.end());
      for (const auto& f : found) files.push_back({f, shown(path / f.filename(), shown_from)});
    } else if (!fs::exists(fs::symlink_status(path, ec))) {
      return fail("submission file " + shown(path, shown_from) + " does not exist");
    } else {
      files.push_back({fs::absolute(path), shown(path, shown_from)});
    }
  }
  return files;
}

Result<bool> check_submission_files(const std::vector<SubmissionFile>& files, const Limits& limits) {
  // Every file is opened and read once here, as data, within the limits: a link to a secret or
  // to /dev/zero, or a pipe that would block the build, ends here with a message instead.
  std::uint64_t total = 0;
  for (const auto& file : files) {
    auto content = read_regular_file(file.path, "submission file " + file.shown, limits.submission_file_bytes);
    if (!content) return std::unexpected(content.error());
    total += content->size();
    if (total > limits.submission_bytes)
      return fail(fmt::format("the submission's files are larger than {} together", size_in_words(limits.submission_bytes)));
  }
  return true;
}

Result<std::vector<fs::path>> submission_files(const std::vector<std::string>& given, const Limits& limits,
                                              const fs::path& shown_from) {
  auto files = list_submission_files(given, shown_from);
  if (!files) return std::unexpected(files.error());
  if (auto data = check_submission_files(*files, limits); !data) return std::unexpected(data.error());
  std::vector<fs::path> paths;
  for (const auto& f : *files) paths.push_back(f.path);
  return paths;
}

}  // namespace cugrade
