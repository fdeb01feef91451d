#include "diagnose/ncu_command.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <string_view>
#include <system_error>

#include "core/program_path.hpp"
#include "diagnose/counters.hpp"

namespace cugrade {
namespace fs = std::filesystem;

namespace {

/// True when the file starts with "#!" (a script, not the program).
bool is_script(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  char start[2] = {0, 0};
  in.read(start, 2);
  return in.gcount() == 2 && start[0] == '#' && start[1] == '!';
}

/// The `ncu` files of the folders in `dir` whose names start with `prefix`, newest name last.
std::vector<fs::path> installed_ncus(const fs::path& dir, const std::string& prefix) {
  std::vector<fs::path> found;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(prefix, 0) != 0 || !entry.is_directory(ec)) continue;
    if (fs::is_regular_file(entry.path() / "ncu", ec)) found.push_back(entry.path() / "ncu");
    // /opt/nvidia/nsight-compute/<version>/ncu
    for (const auto& version : fs::directory_iterator(entry.path(), ec))
      if (version.is_directory(ec) && fs::is_regular_file(version.path() / "ncu", ec))
        found.push_back(version.path() / "ncu");
  }
  std::sort(found.begin(), found.end());
  return found;
}

}  // namespace

fs::path ncu_installation(const fs::path& ncu, const std::vector<fs::path>& install_roots) {
  std::error_code ec;
  const fs::path real = fs::canonical(ncu, ec);
  if (ec || !is_script(real)) return ncu;
  std::vector<fs::path> found = installed_ncus(real.parent_path().parent_path(), "nsight-compute");
  for (const auto& root : install_roots)
    if (found.empty()) found = installed_ncus(root, "nsight-compute");
  return found.empty() ? ncu : found.back();
}

fs::path find_ncu(const Locations& where) {
  if (const char* set = std::getenv("CUGRADE_NCU"); set && *set) return set;
  std::error_code ec;
  const char* path = std::getenv("PATH");
  fs::path nvcc = where.nvcc;
  if (!nvcc.is_absolute()) nvcc = find_program(nvcc.string(), path ? path : "");
  if (!nvcc.empty()) {
    const fs::path beside = fs::canonical(nvcc, ec).parent_path() / "ncu";
    if (!ec && fs::is_regular_file(beside, ec)) return ncu_installation(beside);
  }
  const fs::path on_path = find_program("ncu", path ? path : "");
  return on_path.empty() ? on_path : ncu_installation(on_path);
}

namespace {

/// ncu with `options`, on the kernels of the runner's entry range only (not its fills, flushes or
/// digests), at most `launch_count` of them, clocks left as they are, its log to `log_file`, its
/// sections from `sections` where that is not empty, then the program: `runner job_file`.
std::vector<std::string> entry_range_command(const fs::path& ncu, const std::vector<std::string>& options,
                                             int launch_count, const fs::path& log_file, const fs::path& sections,
                                             const fs::path& runner, const fs::path& job_file) {
  std::vector<std::string> argv{ncu.string()};
  argv.insert(argv.end(), options.begin(), options.end());
  argv.insert(argv.end(), {"--nvtx", "--nvtx-include", "cugrade_entry/", "--launch-count", std::to_string(launch_count),
                           "--clock-control", "none", "--log-file", log_file.string()});
  if (!sections.empty()) argv.insert(argv.end(), {"--section-folder", sections.string()});
  argv.insert(argv.end(), {runner.string(), job_file.string()});
  return argv;
}

/// Makes `folder` holding `files` of `from` (each copied under a temporary name, then renamed:
/// a check beside this one never reads half a file); false when it cannot.
bool section_folder(const fs::path& folder, const fs::path& from, const std::vector<std::string>& files) {
  std::error_code ec;
  fs::create_directories(folder, ec);
  if (ec) return false;
  for (const std::string& file : files) {
    if (fs::is_regular_file(folder / file, ec)) continue;
    const fs::path partial = folder / (file + ".part-" + std::to_string(::getpid()));
    if (!fs::copy_file(from / file, partial, fs::copy_options::overwrite_existing, ec)) return false;
    fs::rename(partial, folder / file, ec);
    if (ec) return false;
  }
  return true;
}

}  // namespace

NcuSectionFolders ncu_section_folders(const fs::path& ncu, const fs::path& dir) {
  NcuSectionFolders folders;
  std::error_code ec;
  const fs::path home = fs::canonical(ncu, ec).parent_path();
  if (ec) return folders;
  if (section_folder(dir / "none", home, {})) folders.none = dir / "none";
  if (section_folder(dir / "source", home / "sections", {"SourceCounters.section"})) folders.source = dir / "source";
  return folders;
}

std::vector<std::string> ncu_command(const fs::path& ncu, const fs::path& runner, const fs::path& job_file,
                                     const fs::path& log_file, int max_kernels, const fs::path& sections) {
  return entry_range_command(ncu,
                             {"--csv", "--page", "details", "--print-units", "base", "--metrics", diagnosis_metrics()},
                             max_kernels, log_file, sections, runner, job_file);
}

std::vector<std::string> ncu_source_command(const fs::path& ncu, const fs::path& runner, const fs::path& job_file,
                                            const fs::path& log_file, const std::string& kernel,
                                            const fs::path& sections) {
  // ncu matches the kernel's function name ("reduce7" for reduce7<128u>) against the expression.
  std::string name = kernel.substr(0, kernel.find('<'));
  std::string pattern = "^";
  for (char c : name) {
    if (std::string_view("\\^$.|?*+()[]{}").find(c) != std::string_view::npos) pattern += '\\';
    pattern += c;
  }
  return entry_range_command(ncu,
                             {"--csv", "--page", "source", "--print-source", "cuda,sass", "--section", "SourceCounters",
                              "--kernel-name", "regex:" + pattern + "$"},
                             1, log_file, sections, runner, job_file);
}

std::string ncu_failure(const std::string& printed, int exit_code) {
  const auto has = [&](const char* text) { return printed.find(text) != std::string::npos; };
  if (has("ERR_NVGPUCTRPERM"))
    return "this machine lets only administrators read the GPU's performance counters (ERR_NVGPUCTRPERM; "
           "see https://developer.nvidia.com/ERR_NVGPUCTRPERM)";
  if (has("No kernels were profiled"))
    return "ncu profiled no kernel inside the entry call (does it launch one?)";
  // ncu's own first error line, without its "==ERROR== " prefix.
  const auto at = printed.find("==ERROR==");
  if (at != std::string::npos) {
    std::string line = printed.substr(at + 9, printed.find('\n', at) - at - 9);
    while (!line.empty() && line.front() == ' ') line.erase(line.begin());
    if (line.size() > 200) line = line.substr(0, 200) + "…";
    return "ncu: " + line;
  }
  // Else the last line anything printed (the sandbox's tools, the shell), which is often the reason.
  std::string last;
  std::size_t end = printed.find_last_not_of("\n\r \t");
  if (end != std::string::npos) {
    const std::size_t start = printed.find_last_of('\n', end);
    last = printed.substr(start == std::string::npos ? 0 : start + 1, end + 1 - (start == std::string::npos ? 0 : start + 1));
    if (last.size() > 200) last = last.substr(0, 200) + "…";
  }
  return "ncu ended with status " + std::to_string(exit_code) + " and no counters" +
         (last.empty() ? std::string() : " (it said: " + last + ")");
}

}  // namespace cugrade
