// Command lines of the build.
#include "build/nvcc_command.hpp"

#include "build/call_site_header.hpp"
#include "spec/libraries.hpp"

namespace cugrade {

std::string object_path(std::size_t index) {
  return "obj/submission_" + std::to_string(index) + ".o";
}

std::string dependency_path(std::size_t index) {
  return "obj/submission_" + std::to_string(index) + ".d";
}

std::string assembler_dependency_path(std::size_t index) {
  return "obj/submission_" + std::to_string(index) + ".as.d";
}

std::vector<std::string> nvcc_compile_command(const BuildRequest& request, std::size_t index,
                                              const std::string& source, bool call_sites) {
  std::vector<std::string> argv = {request.compiler.string(), "-std=c++17", "-O3",
          "-lineinfo",  // kernel line numbers in profiler and sanitizer output
          "-arch=" + request.arch, "-Isrc",
          // -fno-common: a global the student defines twice (or that clashes with the runner's)
          // is a link error with a name, not two variables silently merged into one.
          "-Xcompiler=-fno-common",
          // Inline functions' static variables as weak symbols, not GNU unique ones, which no
          // tool can make private (the seal, seal_command).
          "-Xcompiler=-fno-gnu-unique",
          // The files the preprocessor and the assembler read (dependency_check.hpp).
          "-MD", "-MF", dependency_path(index), "-Xcompiler", "-Xassembler", "-Xcompiler", "--MD",
          "-Xcompiler", "-Xassembler", "-Xcompiler", assembler_dependency_path(index)};
  // The student's runtime calls name their line in the runner's report (call_site_header.hpp).
  if (call_sites) argv.insert(argv.end(), {"-include", std::string(call_site_header_path)});
  argv.insert(argv.end(), {"-c", source, "-o", object_path(index)});
  return argv;
}

std::vector<std::string> nvcc_link_command(const BuildRequest& request) {
  std::vector<std::string> argv = {request.compiler.string(), "-arch=" + request.arch, "-o",
                                   "runner", std::string(sealed_object),
                                   request.runner_library.string(), "-Xlinker",
                                   std::string(runner_wraps_flag)};
  for (const auto& name : request.allowed_libraries) {
    if (const OptionalLibrary* library = find_optional_library(name))
      for (std::string_view link : library->link) argv.push_back("-l" + std::string(link));
  }
  return argv;
}

std::vector<std::string> symbols_command(const std::string& object) { return {"nm", "-g", object}; }

std::vector<std::string> join_command(const std::vector<std::string>& objects, const std::string& output) {
  std::vector<std::string> argv = {"ld", "-r", "-o", output};
  argv.insert(argv.end(), objects.begin(), objects.end());
  return argv;
}

std::vector<std::string> seal_command(const std::string& input) {
  return {"objcopy", "-R", ".group", "--keep-global-symbols=" + std::string(entry_points_file), input,
          std::string(sealed_object)};
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
