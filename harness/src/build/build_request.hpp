#pragma once
// What a backend needs to turn a student's files into a runner binary, and what it returns.
// Implemented by the CUDA backend (build/, nvcc) and the CPU backend (harness/cpu/).
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "report/grade_report.hpp"

namespace cugrade {

/// One submission to build.
struct BuildRequest {
  std::vector<std::filesystem::path> sources;  ///< the student's .cu files
  std::string assignment;                      ///< spec id ("matmul")
  std::filesystem::path assignment_dir;        ///< holds interface.cuh (staged with the sources)
  std::filesystem::path work_dir;              ///< the build folder: src/, obj/, tmp/, the runner
  std::string arch;                            ///< "sm_90" for CUDA; ignored by the CPU backend
  std::filesystem::path compiler;              ///< nvcc (CUDA) or the host C++ compiler (CPU)
  std::filesystem::path runner_library;        ///< the assignment's prebuilt runner library
  double timeout_s = 60.0;                     ///< per compiler invocation
  std::map<std::string, std::string> environment;  ///< for the compiler processes
  /// Libraries the assignment lets submissions use (assignment.yaml's allowed_libraries,
  /// spec/libraries.hpp): linked, and their API not refused. Empty: none.
  std::vector<std::string> allowed_libraries;
  /// Run the compile and link steps in the sandbox (process/sandbox.hpp); unset: when the
  /// sandbox works here (sandbox_status()).
  std::optional<bool> sealed;
};

/// The build's record for the report, and the runner binary when it succeeded.
struct BuildOutput {
  BuildResult result;            ///< outcome passed when `runner` exists and may be run
  std::filesystem::path runner;  ///< the linked runner binary
  /// The CPU backend's compiler warnings that a variable is read before it is set, not shown as
  /// build warnings (build/unset_read_warnings.hpp); the CUDA backend gives none.
  std::vector<Diagnostic> unset_reads;
};

}  // namespace cugrade
