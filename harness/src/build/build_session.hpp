#pragma once
// The mechanism both build backends share (the CUDA one, build_submission_cuda.cpp, and the CPU
// one, harness/cpu/cpu_build.cpp): running tools with the build's environment and timeout, the
// capped log, the source checks, the symbol policy and what a failed link means for the student.
// Each backend keeps its own steps (which compiler, which flags, how its compiler fails).
#include <chrono>
#include <cstddef>
#include <expected>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "build/build_request.hpp"
#include "build/compiler_diagnostics.hpp"
#include "build/symbol_policy.hpp"
#include "process/process_runner.hpp"

namespace cugrade {

/// Most compiler output kept in BuildResult::log.
inline constexpr std::size_t build_log_limit_bytes = 16 * 1024;

/// The whole text of a file, or nullopt when it cannot be read.
std::optional<std::string> read_file(const std::filesystem::path& path);

/// The first line of a failed tool's output, or "<tool> failed with exit code N" / "<tool> was
/// killed by signal N" when it printed nothing.
std::string failure_summary(std::string_view output, const ProcessResult& result,
                            std::string_view tool);

/// Violations a backend adds to the common symbol policy, given every symbol an object defines.
using ExtraSymbolPolicy =
    std::function<std::vector<SymbolViolation>(const std::vector<DefinedSymbol>&)>;

/// One build in progress: the request, the runner that runs its tools, and the record being
/// filled in. Every step that fails returns finish()'s output, which ends the build.
class BuildSession {
 public:
  /// Starts the clock; `arch` is what the record reports ("sm_90", "cpu").
  BuildSession(ProcessRunner& runner, const BuildRequest& request, std::string arch);

  /// The request being built.
  const BuildRequest& request() const { return request_; }

  /// The paths compiler messages are shortened against: the student's files, the assignment.
  DiagnosticPaths diagnostic_paths() const;

  /// Records the outcome, the message and the build's duration; returns the finished output
  /// (without a runner unless the outcome is passed).
  BuildOutput finish(Outcome outcome, std::string message);

  /// Records `runner` as the build's product and finishes with Outcome::passed.
  BuildOutput passed(const std::filesystem::path& runner);

  /// Runs one command in the work folder with the request's environment and timeout, recording
  /// its command line and, when `log_output`, its output in the log (capped).
  ProcessResult execute(const std::vector<std::string>& argv, bool log_output);

  /// The text of one submission file, or the compile_error build when it is missing or blank.
  std::expected<std::string, BuildOutput> read_source(const std::filesystem::path& source);

  /// Adds one diagnostic to the record, uncapped (symbol and link findings).
  void add_diagnostic(Diagnostic diagnostic);

  /// Keeps compiler diagnostics (ten in the record at most); returns the description of the
  /// first error among all of them, or nullopt when there is none.
  std::optional<std::string> keep_diagnostics(std::vector<Diagnostic> diagnostics);

  /// Lists what `object` (compiled from `source`) defines with nm and applies the symbol policy
  /// plus `extra`: nullopt when acceptable, else the forbidden_symbol (or harness_error) build.
  std::optional<BuildOutput> check_symbols(const std::filesystem::path& source,
                                           const std::filesystem::path& object,
                                           const ExtraSymbolPolicy& extra = {});

  /// The build for a link that failed: a missing input is the installation's `library`
  /// (harness_error); missing or doubled names are the student's (link_error, with
  /// diagnostics); anything else is a link_error quoting the linker, or `no_reason`.
  BuildOutput link_failure(const ProcessResult& result, std::string_view library,
                           std::string_view no_reason);

 private:
  ProcessRunner& runner_;
  const BuildRequest& request_;
  std::chrono::steady_clock::time_point started_;
  BuildOutput output_;
};

}  // namespace cugrade
