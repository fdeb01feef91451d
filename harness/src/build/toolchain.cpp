// Asking the installed compilers where their headers and libraries are, once per process.
#include "build/toolchain.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <sstream>

#include "core/program_path.hpp"
#include "process/process_runner.hpp"

namespace cugrade {

namespace fs = std::filesystem;

namespace {

/// Runs a trusted tool (not sandboxed: it reads nothing of the student's) and returns stdout and
/// stderr; empty when it could not run.
std::string tool_output(const std::vector<std::string>& argv,
                        const std::map<std::string, std::string>& environment) {
  const std::unique_ptr<ProcessRunner> processes = make_process_runner();
  ProcessRequest request;
  request.argv = argv;
  request.environment = environment.empty() ? scrubbed_environment() : environment;
  request.timeout_s = 30.0;
  const ProcessResult result = processes->run(request);
  if (!result.started || result.timed_out || result.exit_code != 0) return {};
  return result.stdout_text + result.stderr_text;
}

std::string path_of(const std::map<std::string, std::string>& environment) {
  const auto it = environment.find("PATH");
  return it == environment.end() ? std::string() : it->second;
}

/// `compiler -print-file-name=<name>`, or an empty path when it does not know the file (it then
/// prints the bare name back).
fs::path find_library_uncached(const std::string& compiler, const std::string& name,
                      const std::map<std::string, std::string>& environment) {
  std::string out = tool_output({compiler, "-print-file-name=" + name}, environment);
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  if (out.empty() || out == name) return {};
  std::error_code ec;
  const fs::path found = fs::path(out).lexically_normal();
  return fs::exists(found, ec) ? found : fs::path();
}

}  // namespace

std::vector<fs::path> compiler_include_dirs(const std::string& compiler,
                                           const std::map<std::string, std::string>& environment) {
  static std::mutex mutex;
  static std::map<std::string, std::vector<fs::path>> cache;
  const std::string key = compiler + "\n" + path_of(environment);
  std::lock_guard lock(mutex);
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  // "#include <...> search starts here:" then one folder per line, indented, until "End of".
  const std::string out = tool_output({compiler, "-E", "-v", "-x", "c++", "/dev/null"}, environment);
  std::vector<fs::path> folders;
  std::istringstream lines(out);
  std::string line;
  bool in_list = false;
  while (std::getline(lines, line)) {
    if (line.starts_with("#include <...> search starts here:") ||
        line.starts_with("#include \"...\" search starts here:")) {
      in_list = true;
    } else if (line.starts_with("End of search list.")) {
      in_list = false;
    } else if (in_list && line.starts_with(" ")) {
      std::string folder = line.substr(line.find_first_not_of(' '));
      // macOS adds " (framework directory)"; harmless to keep the path part only.
      if (const auto note = folder.find(" ("); note != std::string::npos) folder.resize(note);
      if (!folder.empty() && folder.front() == '/') folders.push_back(fs::path(folder).lexically_normal());
    }
  }
  if (!folders.empty()) cache[key] = folders;
  return folders;
}

fs::path find_library_file(const std::string& compiler, const std::string& name,
                           const std::map<std::string, std::string>& environment) {
  static std::mutex mutex;
  static std::map<std::string, fs::path> cache;
  const std::string key = compiler + "\n" + name + "\n" + path_of(environment);
  std::lock_guard lock(mutex);
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  return cache[key] = find_library_uncached(compiler, name, environment);
}

fs::path compiler_root(const std::string& compiler, const std::map<std::string, std::string>& environment) {
  const std::string path = path_of(environment.empty() ? scrubbed_environment() : environment);
  const fs::path named = compiler.find('/') != std::string::npos ? fs::path(compiler) : find_program(compiler, path);
  std::error_code ec;
  const fs::path real = named.empty() ? fs::path() : fs::canonical(named, ec);
  if (ec || real.empty()) return {};
  const fs::path root = real.parent_path().parent_path();
  return root.has_relative_path() ? root : fs::path();
}

fs::path cuda_toolkit_root(const fs::path& nvcc) {
  return nvcc.lexically_normal().parent_path().parent_path();
}

std::vector<fs::path> cuda_include_dirs(const fs::path& nvcc) {
  static std::mutex mutex;
  static std::map<fs::path, std::vector<fs::path>> cache;
  std::lock_guard lock(mutex);
  if (auto it = cache.find(nvcc); it != cache.end()) return it->second;
  const fs::path root = cuda_toolkit_root(nvcc);
  std::vector<fs::path> folders;
  if (!root.empty()) folders.push_back(root / "include");
  std::error_code ec;
  if (!root.empty())
    for (const auto& target : fs::directory_iterator(root / "targets", ec)) folders.push_back(target.path() / "include");
  // And what nvcc itself says it passes (its nvcc.profile's INCLUDES and SYSTEM_INCLUDES): right
  // whatever the layout, or however nvcc was named.
  const std::string dryrun = tool_output({nvcc.string(), "--dryrun", "-c", "-x", "cu", "/dev/null", "-o", "/dev/null"}, {});
  for (const fs::path& folder : nvcc_profile_includes(dryrun))
    if (std::find(folders.begin(), folders.end(), folder) == folders.end()) folders.push_back(folder);
  cache[nvcc] = folders;
  return folders;
}

std::vector<fs::path> nvcc_profile_includes(std::string_view dryrun) {
  std::vector<fs::path> folders;
  std::istringstream lines{std::string(dryrun)};
  std::string line;
  while (std::getline(lines, line)) {
    if (!line.starts_with("#$ INCLUDES=") && !line.starts_with("#$ SYSTEM_INCLUDES=")) continue;
    // -I"dir", "-Idir", or "-isystem" "dir": every quoted word, with a leading -I dropped.
    bool after_isystem = false;
    for (std::size_t open = line.find('"'); open != std::string::npos; open = line.find('"', open)) {
      const std::size_t close = line.find('"', open + 1);
      if (close == std::string::npos) break;
      std::string word = line.substr(open + 1, close - open - 1);
      open = close + 1;
      if (word == "-isystem") {
        after_isystem = true;
        continue;
      }
      if (word.starts_with("-I")) word.erase(0, 2);
      else if (!after_isystem) continue;
      after_isystem = false;
      if (!word.empty() && word.front() == '/') folders.push_back(fs::path(word).lexically_normal());
    }
  }
  return folders;
}

std::vector<LinkLibrary> system_link_libraries(const std::string& compiler,
                                               const std::map<std::string, std::string>& environment) {
  // Why these: g++ links every program against them (libc and its loader, libc_nonshared's
  // atexit and stat wrappers, libm, libstdc++, GCC's runtime); a name they define is one the
  // runner may call or that the program's startup uses. GCC's static libgcc.a and libgcc_eh.a
  // are left out: every name they define but four (isinfd32, ...) starts with __ or _Unwind,
  // which the symbol policy refuses anyway, and listing them costs more than all the rest.
  static const std::pair<const char*, const char*> names[] = {
      {"libc.so.6", "the C library"},
      {"libc_nonshared.a", "the C library"},
      {"ld-linux-x86-64.so.2", "the C library's loader"},
      {"libm.so.6", "the C math library"},
      {"libstdc++.so.6", "the C++ standard library"},
      {"libgcc_s.so.1", "GCC's runtime library"},
  };
  static std::mutex mutex;
  static std::map<std::string, std::vector<LinkLibrary>> cache;
  const std::string key = compiler + "\n" + path_of(environment);
  std::lock_guard lock(mutex);
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  std::vector<LinkLibrary> libraries;
  for (const auto& [name, shown] : names) {
    if (fs::path file = find_library_uncached(compiler, name, environment); !file.empty())
      libraries.push_back({file, shown, false});
  }
  cache[key] = libraries;
  return libraries;
}

std::vector<LinkLibrary> cuda_link_libraries(const fs::path& nvcc, const std::vector<std::string>& extra) {
  const fs::path root = cuda_toolkit_root(nvcc);
  std::vector<fs::path> folders = {root / "lib64", root / "lib"};
  std::error_code ec;
  for (const auto& target : fs::directory_iterator(root / "targets", ec)) folders.push_back(target.path() / "lib");
  const auto find = [&](const std::string& name) -> fs::path {
    for (const auto& folder : folders)
      if (std::error_code e; fs::exists(folder / name, e)) return folder / name;
    return {};
  };
  std::vector<LinkLibrary> libraries;
  for (const char* name : {"libcudart_static.a", "libcudadevrt.a"})
    if (fs::path file = find(name); !file.empty()) libraries.push_back({file, "the CUDA runtime", false});
  for (const auto& library : extra)
    if (fs::path file = find("lib" + library + ".so"); !file.empty())
      libraries.push_back({file, "lib" + library, false});
  return libraries;
}

}  // namespace cugrade
