// Command lines of the CUDA build.
#include "build/nvcc_command.hpp"

namespace cugrade {

std::filesystem::path object_path(const BuildRequest& request,
                                  const std::filesystem::path& source) {
  return request.work_dir / (source.stem().string() + ".o");
}

std::vector<std::string> nvcc_compile_command(const BuildRequest& request,
                                              const std::filesystem::path& source,
                                              const std::filesystem::path& object) {
  return {request.compiler.string(), "-std=c++17", "-O3",
          "-lineinfo",  // kernel line numbers in profiler and sanitizer output
          "-arch=" + request.arch, "-I" + request.assignment_dir.string(),
          // -fno-common: a global the student defines twice (or that clashes with the runner's)
          // is a link error with a name, not two variables silently merged into one.
          "-Xcompiler=-fno-common", "-c", source.string(), "-o", object.string()};
}

std::vector<std::string> nvcc_link_command(const BuildRequest& request,
                                           const std::vector<std::filesystem::path>& objects) {
  std::vector<std::string> argv = {request.compiler.string(), "-arch=" + request.arch, "-o",
                                   (request.work_dir / "runner").string()};
  for (const auto& object : objects) argv.push_back(object.string());
  argv.push_back(request.runner_library.string());
  argv.push_back("-Xlinker");
  argv.emplace_back(wrap_launch_flag);
  return argv;
}

std::vector<std::string> defined_symbols_command(const std::filesystem::path& object) {
  return {"nm", "--defined-only", "-C", object.string()};
}

std::string display_command(const std::vector<std::string>& argv) {
  std::string line;
  for (const auto& arg : argv) {
    if (!line.empty()) line += ' ';
    const bool plain = !arg.empty() && arg.find_first_not_of(
                                           "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                           "0123456789-_=+./:,@%") == std::string::npos;
    if (plain) {
      line += arg;
      continue;
    }
    line += '\'';
    for (char c : arg) {
      if (c == '\'')
        line += "'\\''";
      else
        line += c;
    }
    line += '\'';
  }
  return line;
}

}  // namespace cugrade
