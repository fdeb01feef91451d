#pragma once
// The mechanism both build backends share (the CUDA one, build_submission_cuda.cpp, and the CPU
// one, harness/cpu/cpu_build.cpp): the staged submission, running tools sandboxed in the build
// folder with the build's environment and timeout, the capped and filtered log, the checks of
// what a compile read, the symbol policy, the seal, and what a failed link means for the
// student. Each backend keeps its own steps (which compiler, which flags, how its compiler
// fails). Layout of the build folder (request.work_dir): src/ (staging.hpp), obj/ (objects,
// dependency lists, the sealed object), tmp/ (the compilers' temporary files), runner.
#include <chrono>
#include <cstddef>
#include <expected>
#include <filesystem>
#include <future>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "build/build_request.hpp"
#include "build/compiler_diagnostics.hpp"
#include "build/dependency_check.hpp"
#include "build/nm_output.hpp"
#include "build/staging.hpp"
#include "build/symbol_policy.hpp"
#include "process/process_runner.hpp"

namespace cugrade {

/// Most compiler output kept in BuildResult::log.
inline constexpr std::size_t build_log_limit_bytes = 16 * 1024;

/// The whole text of a file, or nullopt when it cannot be read.
std::optional<std::string> read_file(const std::filesystem::path& path);

/// The first line of a failed tool's output that names an error (else its first line), or
/// "<tool> failed with exit code N" / "<tool> was killed by signal N" when it printed nothing.
std::string failure_summary(std::string_view output, const ProcessResult& result,
                            std::string_view tool);

/// One build in progress: the request, the runner that runs its tools, the staged submission
/// and the record being filled in. Every step that fails returns finish()'s output, which ends
/// the build.
class BuildSession {
 public:
  /// Starts the clock; `arch` is what the record reports ("sm_90", "cpu").
  BuildSession(ProcessRunner& runner, const BuildRequest& request, std::string arch);

  /// The request being built.
  const BuildRequest& request() const { return request_; }

  /// The staged submission (empty before stage()).
  const Staging& staging() const { return staging_; }

  /// Makes src/, obj/ and tmp/ in the build folder and stages the submission there
  /// (staging.hpp): nullopt when done, else the compile_error build naming the file and line.
  std::optional<BuildOutput> stage();

  /// How compiler messages name files for the student: staged copies by their original names.
  DiagnosticPaths diagnostic_paths() const;

  /// Records the outcome, the message and the build's duration; returns the finished output
  /// (without a runner unless the outcome is passed).
  BuildOutput finish(Outcome outcome, std::string message);

  /// Records `runner` as the build's product and finishes with Outcome::passed.
  BuildOutput passed(const std::filesystem::path& runner);

  /// The sandbox of one step: the build folder writable, each of `read_only` (files or
  /// folders, at their own paths) readable, at most 4 GiB of address space a process, files up
  /// to 512 MiB, CPU time bounded by the request's timeout.
  SandboxSpec sandbox(const std::vector<std::filesystem::path>& read_only = {}) const;

  /// Whether the steps run sandboxed (request.sealed, else whether the sandbox works here).
  bool sealed() const { return sealed_; }

  /// What a compile may read: the build folder, `system` (header folders) and, sealed, the
  /// step's private /tmp (where the compilers' temporary files then go).
  ReadableFolders readable_folders(std::vector<std::filesystem::path> system) const;

  /// Runs one command in the build folder, inside `sandbox` when sealed, with the request's
  /// environment (TMPDIR=tmp) and timeout, recording its command line and, when `log_output`,
  /// its output in the log (capped, staged names shown as the student's).
  ProcessResult execute(const std::vector<std::string>& argv, bool log_output,
                        const SandboxSpec& sandbox);

  /// After compiling source `index`: the output that may be shown (filter_compiler_output) with
  /// the student's file names, added to the log; or, when the compiler or the assembler read a
  /// file outside `folders` (their dependency lists, or messages about such a file), the
  /// compile_error build naming it, with no compiler output in the log. `require_lists`: a
  /// compile that succeeded must have written both lists (else harness_error).
  std::expected<std::string, BuildOutput> checked_compile_output(const ProcessResult& result,
                                                                 std::size_t index,
                                                                 const ReadableFolders& folders,
                                                                 bool require_lists);

  /// Adds one diagnostic to the record, uncapped (symbol and link findings).
  void add_diagnostic(Diagnostic diagnostic);

  /// Keeps the compiler's warnings of reads before a variable is set (BuildOutput::unset_reads).
  void keep_unset_reads(const std::vector<Diagnostic>& reads);

  /// Keeps compiler diagnostics (ten in the record at most); returns the description of the
  /// first error among all of them, or nullopt when there is none.
  std::optional<std::string> keep_diagnostics(std::vector<Diagnostic> diagnostics);

  /// Lists object `index`'s symbols with nm (sandboxed: the object is shaped by the student's
  /// code) and applies the symbol policy with `context`: the symbols when acceptable, else the
  /// forbidden_symbol (or harness_error) build.
  std::expected<std::vector<Symbol>, BuildOutput> check_symbols(std::size_t index,
                                                                const SymbolContext& context);

  /// Starts listing the link's libraries (library_symbols.hpp: `libraries` plus the request's
  /// runner library) in the background, so that nm runs while the compiler does.
  void start_listing_libraries(std::vector<LinkLibrary> libraries);

  /// The listing started above, once it is done; the harness_error build when a library could
  /// not be listed.
  std::expected<std::shared_ptr<const LibrarySymbols>, BuildOutput> library_symbols();

  /// The names interface.cuh declares: the entry points, which stay global.
  std::vector<std::string> entry_names() const;

  /// Joins the objects (ld -r) when there are several and seals them (seal_command): every
  /// definition but the entry points among `symbols` (each object's, from check_symbols) made
  /// private. nullopt when obj/submission.o is ready, else the harness_error build.
  std::optional<BuildOutput> seal(const std::vector<std::vector<Symbol>>& symbols);

  /// The build for a link that failed: a missing input is the installation's `library`
  /// (harness_error); missing or doubled names are the student's (link_error, with
  /// diagnostics); anything else is a link_error quoting the linker, or `no_reason`.
  BuildOutput link_failure(const ProcessResult& result, std::string_view library,
                           std::string_view no_reason);

 private:
  /// `text` with each staged file's name replaced by the student's.
  std::string with_student_names(std::string text) const;
  void append_log(const std::string& text);

  ProcessRunner& runner_;
  const BuildRequest& request_;
  std::chrono::steady_clock::time_point started_;
  bool sealed_ = false;
  std::future<std::shared_ptr<const LibrarySymbols>> libraries_;
  std::shared_ptr<const LibrarySymbols> listed_;  ///< libraries_'s result, once taken
  Staging staging_;
  BuildOutput output_;
};

}  // namespace cugrade
