#include "batch/submission_time.hpp"

#include <sys/stat.h>

#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "batch/deadline.hpp"
#include "core/regular_file.hpp"

namespace cugrade {
namespace fs = std::filesystem;

namespace {

/// `files_dir` and each folder above it up to `root`, nearest first.
std::vector<fs::path> folders_up_to_root(const fs::path& root, const fs::path& files_dir) {
  std::vector<fs::path> folders;
  const fs::path top = root.lexically_normal();
  fs::path dir = files_dir.lexically_normal();
  for (int depth = 0; depth < 8; ++depth) {
    folders.push_back(dir);
    if (dir == top || !dir.has_relative_path() || dir.parent_path() == dir) break;
    const fs::path relative = dir.lexically_relative(top);
    if (relative.empty() || *relative.begin() == "..") break;  // files_dir is not inside root
    dir = dir.parent_path();
  }
  return folders;
}

/// Whether `path` is a folder itself (lstat: a link to one does not count).
bool is_real_folder(const fs::path& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

/// The last commit's committer date of the repository whose git folder is `git_dir`.
std::optional<std::int64_t> commit_time(ProcessRunner& processes, const fs::path& git_dir) {
  ProcessRequest request;
  // The repository is the student's: nothing in it may choose a program to run (no pager, no
  // signature check through gpg.program, no fsmonitor hook), and no system or user config applies.
  request.argv = {"git",
                  "--no-pager",
                  "-c", "safe.directory=*",
                  "-c", "log.showSignature=false",
                  "-c", "core.fsmonitor=false",
                  "-c", "core.hooksPath=/dev/null",
                  "--git-dir=" + git_dir.string(),
                  "log", "-1", "--format=%cI"};
  request.working_dir = git_dir;
  const char* path = std::getenv("PATH");
  request.environment = {{"PATH", path ? path : "/usr/bin:/bin"},
                         {"HOME", "/nonexistent"},
                         {"LC_ALL", "C"},
                         {"GIT_CONFIG_NOSYSTEM", "1"},
                         {"GIT_CONFIG_GLOBAL", "/dev/null"},
                         {"GIT_TERMINAL_PROMPT", "0"},
                         {"GIT_NO_REPLACE_OBJECTS", "1"}};
  request.timeout_s = 10.0;
  request.output_limit_bytes = 4096;
  const ProcessResult result = processes.run(request);
  if (!result.started || result.exit_code != 0 || result.signal || result.timed_out) return std::nullopt;
  auto when = parse_timestamp(result.stdout_text);
  if (!when) return std::nullopt;
  return *when;
}

/// created_at of Gradescope's submission_metadata.json at `path`.
std::optional<std::int64_t> gradescope_time(const fs::path& path) {
  auto text = read_regular_file(path, "submission_metadata.json", std::uint64_t{1} << 20);
  if (!text) return std::nullopt;
  const nlohmann::json metadata = nlohmann::json::parse(*text, nullptr, false);
  if (!metadata.is_object() || !metadata.contains("created_at") || !metadata["created_at"].is_string())
    return std::nullopt;
  auto when = parse_timestamp(metadata["created_at"].get<std::string>());
  if (!when) return std::nullopt;
  return *when;
}

}  // namespace

SubmissionTime submission_time(ProcessRunner& processes, const fs::path& root, const fs::path& files_dir,
                               const SubmissionTime& fallback) {
  const std::vector<fs::path> folders = folders_up_to_root(root, files_dir);
  for (const auto& dir : folders)
    if (is_real_folder(dir / ".git"))
      if (auto when = commit_time(processes, dir / ".git")) return {*when, "git"};
  for (const auto& dir : folders) {
    std::error_code ec;
    if (fs::exists(fs::symlink_status(dir / "submission_metadata.json", ec)))
      if (auto when = gradescope_time(dir / "submission_metadata.json")) return {*when, "gradescope"};
  }
  return fallback;
}

}  // namespace cugrade
