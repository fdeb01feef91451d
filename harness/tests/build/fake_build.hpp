#pragma once
// Scripted build steps for the tests of the stages above the build (pipeline, batch, bench): what
// a successful nvcc, g++, ld -r or objcopy writes, where the build looks for it. The build's
// commands name files relative to the build folder they run in (build/nvcc_command.hpp), so a
// fake writes them there, not where the test runs.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "process/fake_process_runner.hpp"

namespace cugrade::test {

/// How the build names the student's first file and its object, relative to the build folder.
inline constexpr const char* staged_source = "src/submission_0.cu";
inline constexpr const char* staged_object = "obj/submission_0.o";

/// The argument after `flag` in argv, or "".
inline std::string build_argument_after(const std::vector<std::string>& argv, const std::string& flag) {
  const auto it = std::find(argv.begin(), argv.end(), flag);
  return it == argv.end() || it + 1 == argv.end() ? std::string() : *(it + 1);
}

/// True for the build's own tools after the compiler: nm, ld -r and objcopy.
inline bool is_build_tool(const ProcessRequest& request) {
  const std::string& tool = request.argv.front();
  return tool == "nm" || tool == "ld" || tool == "objcopy";
}

/// What a successful build step writes, relative to its working folder: the compiler's or
/// linker's -o file and, for a compile, its dependency lists (-MF, and the assembler's --MD);
/// objcopy's output (its last argument). Returns a clean exit.
inline ProcessResult fake_build_step(const ProcessRequest& request) {
  const std::filesystem::path in = request.working_dir;
  const auto& argv = request.argv;
  const auto write = [&](const std::string& name, const std::string& text) {
    if (name.empty()) return;
    const std::filesystem::path path = in / name;
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << text;
  };
  if (argv.front() == "objcopy") {
    write(argv.back(), "sealed object");
    return fake_exit(0);
  }
  write(build_argument_after(argv, "-o"), "fake output");
  if (const std::string deps = build_argument_after(argv, "-MF"); !deps.empty())
    write(deps, "obj/x.o: " + std::string(staged_source) + "\n");
  // nvcc passes the assembler's list as -Xcompiler -Xassembler -Xcompiler --MD ... <file>;
  // g++ as -Xassembler --MD -Xassembler <file>: the file is the last of the next four.
  if (auto md = std::find(argv.begin(), argv.end(), "--MD"); md != argv.end()) {
    const auto file = argv.end() - md > 4 && *(md + 1) == "-Xcompiler" ? md + 4 : md + 2;
    if (file < argv.end()) write(*file, "obj/x.o: tmp/cc1.s\n");
  }
  return fake_exit(0);
}

}  // namespace cugrade::test
