#include "batch/submission_time.hpp"

#include <sys/stat.h>

#include <map>
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

/// What git prints for `args` in the repository whose git folder is `git_dir` (at most
/// `limit` bytes), or nullopt when it fails.
std::optional<std::string> ask_git(ProcessRunner& processes, const fs::path& git_dir, std::vector<std::string> args,
                                   std::size_t limit = 4096) {
  ProcessRequest request;
  // The repository is the student's: nothing in it may choose a program to run (no pager, no
  // signature check through gpg.program, no fsmonitor hook; the commands asked run no filter),
  // and no system or user config applies.
  request.argv = {"git",
                  "--no-pager",
                  "-c", "safe.directory=*",
                  "-c", "log.showSignature=false",
                  "-c", "core.fsmonitor=false",
                  "-c", "core.hooksPath=/dev/null",
                  "--git-dir=" + git_dir.string()};
  request.argv.insert(request.argv.end(), args.begin(), args.end());
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
  request.output_limit_bytes = limit;
  const ProcessResult result = processes.run(request);
  if (!result.started || result.exit_code != 0 || result.signal || result.timed_out || result.output_limit_exceeded)
    return std::nullopt;
  return result.stdout_text;
}

/// The last commit's committer date of the repository whose git folder is `git_dir`.
std::optional<std::int64_t> commit_time(ProcessRunner& processes, const fs::path& git_dir) {
  const auto printed = ask_git(processes, git_dir, {"log", "-1", "--format=%cI"});
  if (!printed) return std::nullopt;
  auto when = parse_timestamp(*printed);
  if (!when) return std::nullopt;
  return *when;
}

/// Whether each of `files` is, byte for byte, the blob at its path in the last commit of the
/// repository at `work_tree` (git folder `git_dir`): `git ls-tree` and
/// `git hash-object --no-filters` run no filter, hook or attribute of the student's. A file
/// edited after the commit, or never committed, makes the commit's date no evidence of when it
/// was handed in.
bool files_as_committed(ProcessRunner& processes, const fs::path& git_dir, const fs::path& work_tree,
                        const std::vector<fs::path>& files) {
  if (files.empty()) return false;
  const auto tree = ask_git(processes, git_dir, {"ls-tree", "-r", "-z", "--full-tree", "HEAD"}, std::size_t{4} << 20);
  if (!tree) return false;
  std::map<std::string, std::string> committed;  // path → object id
  for (std::size_t start = 0; start < tree->size();) {
    std::size_t end = tree->find('\0', start);
    if (end == std::string::npos) end = tree->size();
    const std::string entry = tree->substr(start, end - start);  // "<mode> blob <id>\t<path>"
    start = end + 1;
    const auto tab = entry.find('\t');
    const auto id = entry.rfind(' ', tab);
    if (tab == std::string::npos || id == std::string::npos) continue;
    committed[entry.substr(tab + 1)] = entry.substr(id + 1, tab - id - 1);
  }
  std::vector<std::string> args = {"hash-object", "--no-filters", "--"};
  std::vector<std::string> paths;
  for (const auto& file : files) {
    const fs::path relative = file.lexically_normal().lexically_relative(work_tree.lexically_normal());
    if (relative.empty() || *relative.begin() == "..") return false;  // outside the repository
    paths.push_back(relative.generic_string());
    args.push_back(file.string());
  }
  const auto hashed = ask_git(processes, git_dir, args, 128 * (files.size() + 1));
  if (!hashed) return false;
  std::size_t start = 0;
  for (const auto& path : paths) {
    std::size_t end = hashed->find('\n', start);
    if (end == std::string::npos) return false;
    const auto it = committed.find(path);
    if (it == committed.end() || it->second != hashed->substr(start, end - start)) return false;
    start = end + 1;
  }
  return true;
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

SubmissionTime submission_time(ProcessRunner& processes, const fs::path& root, const std::vector<fs::path>& files,
                               const SubmissionTime& fallback, bool archive) {
  const fs::path files_dir = files.empty() ? root : files.front().parent_path();
  const std::vector<fs::path> folders = folders_up_to_root(root, files_dir);
  for (const auto& dir : folders)
    if (is_real_folder(dir / ".git")) {
      if (auto when = commit_time(processes, dir / ".git"))
        if (files_as_committed(processes, dir / ".git", dir, files)) return {*when, "git"};
      break;  // the nearest repository speaks for the files, or nothing does
    }
  // Gradescope writes its metadata beside the submission's folder (/autograder/submission_metadata.json
  // beside /autograder/submission/); the student's upload is what that folder holds.
  if (!archive)
    for (const auto& dir : folders) {
      if (dir.filename() != "submission" || dir == root.lexically_normal()) continue;
      const fs::path metadata = dir.parent_path() / "submission_metadata.json";
      std::error_code ec;
      if (fs::exists(fs::symlink_status(metadata, ec)))
        if (auto when = gradescope_time(metadata)) return {*when, "gradescope"};
    }
  return fallback;
}

}  // namespace cugrade
