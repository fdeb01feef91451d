// build_submission_cuda(): the order of the build and what each failure means for the student.
#include "build/build_submission_cuda.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <fstream>
#include <optional>
#include <sstream>

#include "build/compiler_diagnostics.hpp"
#include "build/link_errors.hpp"
#include "build/nvcc_command.hpp"
#include "build/symbol_policy.hpp"

namespace cugrade {

namespace {

namespace fs = std::filesystem;

/// The whole text of a file, or nullopt when it cannot be read.
std::optional<std::string> read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// One build in progress: the request, the runner, and the record being filled in.
class CudaBuild {
 public:
  CudaBuild(ProcessRunner& runner, const BuildRequest& request)
      : runner_(runner), request_(request), started_(std::chrono::steady_clock::now()) {
    output_.result.arch = request.arch;
  }

  BuildOutput run();

 private:
  /// Records the outcome and the build's duration; returns the finished output.
  BuildOutput finish(Outcome outcome, std::string message);
  /// Runs one command, recording it (and, for nvcc, its output in the log).
  ProcessResult execute(const std::vector<std::string>& argv, bool is_nvcc);
  /// The failure for an nvcc run that did not end normally, or nullopt.
  std::optional<BuildOutput> nvcc_failure(const ProcessResult& result);
  /// Sources that are missing or empty, found before nvcc runs.
  std::optional<BuildOutput> check_sources();
  std::optional<BuildOutput> compile(const fs::path& source, const fs::path& object);
  std::optional<BuildOutput> check_symbols(const fs::path& source, const fs::path& object);
  BuildOutput link(const std::vector<fs::path>& objects);

  ProcessRunner& runner_;
  const BuildRequest& request_;
  std::chrono::steady_clock::time_point started_;
  BuildOutput output_;
};

BuildOutput CudaBuild::finish(Outcome outcome, std::string message) {
  output_.result.outcome = outcome;
  output_.result.message = std::move(message);
  output_.result.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  if (outcome != Outcome::passed) output_.runner.clear();
  return output_;
}

ProcessResult CudaBuild::execute(const std::vector<std::string>& argv, bool is_nvcc) {
  output_.result.commands.push_back(display_command(argv));
  ProcessRequest process;
  process.argv = argv;
  process.working_dir = request_.work_dir;
  process.environment = request_.environment;
  process.timeout_s = request_.timeout_s;
  ProcessResult result = runner_.run(process);
  if (is_nvcc) {
    std::string& log = output_.result.log;
    if (log.size() < build_log_limit_bytes) {
      log += result.stderr_text;
      log += result.stdout_text;
      if (log.size() > build_log_limit_bytes) {
        log.resize(build_log_limit_bytes);
        log += "\n[compiler output truncated at 16 KiB]\n";
      }
    }
  }
  return result;
}

std::optional<BuildOutput> CudaBuild::nvcc_failure(const ProcessResult& result) {
  if (!result.started) {
    return finish(Outcome::harness_error,
                  "nvcc was not found (looked for " + request_.compiler.string() +
                      "): install the CUDA toolkit, set CUGRADE_NVCC, or grade with --backend cpu");
  }
  if (result.timed_out) {
    return finish(Outcome::timeout,
                  fmt::format("nvcc did not finish within {:g} s", request_.timeout_s));
  }
  return std::nullopt;
}

std::optional<BuildOutput> CudaBuild::check_sources() {
  for (const auto& source : request_.sources) {
    const std::string name = source.filename().string();
    const std::optional<std::string> text = read_file(source);
    if (!text) return finish(Outcome::compile_error, "submission file " + name + " was not found");
    const bool blank =
        std::all_of(text->begin(), text->end(), [](unsigned char c) { return std::isspace(c); });
    if (blank) return finish(Outcome::compile_error, "submission file " + name + " is empty");
  }
  return std::nullopt;
}

std::optional<BuildOutput> CudaBuild::compile(const fs::path& source, const fs::path& object) {
  const ProcessResult result = execute(nvcc_compile_command(request_, source, object), true);
  if (auto failure = nvcc_failure(result)) return failure;
  const std::string output = result.stderr_text + result.stdout_text;
  std::vector<Diagnostic> diagnostics =
      parse_compiler_diagnostics(output, {request_.sources, request_.assignment_dir}, 1000);
  const auto first_error = std::find_if(diagnostics.begin(), diagnostics.end(),
                                        [](const Diagnostic& d) { return d.severity == "error"; });
  std::optional<std::string> error_text;
  if (first_error != diagnostics.end()) error_text = describe(*first_error);
  if (diagnostics.size() > 10) diagnostics.resize(10);
  auto& kept = output_.result.diagnostics;
  kept.insert(kept.end(), diagnostics.begin(), diagnostics.end());
  if (kept.size() > 10) kept.resize(10);
  if (result.exit_code == 0 && !result.signal) {
    if (!fs::exists(object)) {
      return finish(Outcome::harness_error,
                    "nvcc reported success but wrote no " + object.filename().string());
    }
    return std::nullopt;
  }
  if (error_text) {
    return finish(Outcome::compile_error, "your file does not compile: " + *error_text);
  }
  // No diagnostic of the student's file: nvcc itself refused (an unknown -arch, a missing
  // tool of the toolkit). That is the installation's fault, not the student's.
  std::string first_line = output.substr(0, output.find('\n'));
  if (first_line.starts_with("nvcc fatal")) {
    return finish(Outcome::harness_error,
                  "nvcc could not build " + source.filename().string() + ": " + first_line);
  }
  if (first_line.empty()) {
    first_line = result.signal ? fmt::format("nvcc was killed by signal {}", *result.signal)
                               : fmt::format("nvcc failed with exit code {}", result.exit_code);
  }
  return finish(Outcome::compile_error, "your file does not compile: " + first_line);
}

std::optional<BuildOutput> CudaBuild::check_symbols(const fs::path& source,
                                                    const fs::path& object) {
  const ProcessResult result = execute(defined_symbols_command(object), false);
  if (!result.started) {
    return finish(Outcome::harness_error,
                  "nm was not found on PATH: install binutils (cugrade uses nm to check which "
                  "names your file defines)");
  }
  if (result.timed_out || result.exit_code != 0) {
    const std::string why = result.stderr_text.substr(0, result.stderr_text.find('\n'));
    return finish(Outcome::harness_error, "nm could not list the symbols of " +
                                              object.filename().string() +
                                              (why.empty() ? std::string() : ": " + why));
  }
  const auto violations = find_forbidden_symbols(parse_defined_symbols(result.stdout_text));
  if (violations.empty()) return std::nullopt;
  for (const auto& violation : violations) {
    output_.result.diagnostics.push_back(
        Diagnostic{source.filename().string(), 0, 0, "error",
                   "defines " + violation.symbol + ": " + violation.reason});
  }
  const SymbolViolation& first = violations.front();
  return finish(Outcome::forbidden_symbol,
                "your file defines " + first.symbol + ", which it may not: " + first.reason);
}

BuildOutput CudaBuild::link(const std::vector<fs::path>& objects) {
  const fs::path runner = request_.work_dir / "runner";
  const ProcessResult result = execute(nvcc_link_command(request_, objects), true);
  if (auto failure = nvcc_failure(result)) return *failure;
  if (result.exit_code == 0 && !result.signal) {
    if (!fs::exists(runner)) {
      return finish(Outcome::harness_error, "nvcc reported success but wrote no runner binary");
    }
    output_.runner = runner;
    return finish(Outcome::passed, "");
  }
  const LinkErrors errors = parse_link_errors(result.stderr_text + result.stdout_text);
  if (!errors.missing_files.empty()) {
    return finish(Outcome::harness_error,
                  "the linker cannot find " + errors.missing_files.front() +
                      ": the assignment's runner library is not built or not installed");
  }
  if (errors.undefined.empty() && errors.multiple.empty()) {
    const std::string why = errors.first_error.empty()
                                ? fmt::format("nvcc failed with exit code {}", result.exit_code)
                                : errors.first_error;
    return finish(Outcome::link_error, "your file does not link: " + why);
  }
  const std::string student_file =
      request_.sources.empty() ? std::string() : request_.sources.front().filename().string();
  for (const auto& name : errors.undefined) {
    output_.result.diagnostics.push_back(
        Diagnostic{student_file, 0, 0, "error", "no definition of " + name});
  }
  for (const auto& name : errors.multiple) {
    output_.result.diagnostics.push_back(
        Diagnostic{student_file, 0, 0, "error", "more than one definition of " + name});
  }
  const std::string declared =
      read_file(request_.assignment_dir / "interface.cuh").value_or(std::string());
  return finish(Outcome::link_error, describe_link_errors(errors, declared));
}

BuildOutput CudaBuild::run() {
  if (request_.sources.empty()) return finish(Outcome::harness_error, "no source files to build");
  if (request_.arch.empty()) {
    return finish(Outcome::harness_error, "no GPU architecture to build for (such as sm_90)");
  }
  if (auto failure = check_sources()) return *failure;
  std::vector<fs::path> objects;
  for (const auto& source : request_.sources) {
    fs::path object = object_path(request_, source);
    // Two files of the same name in different folders must not overwrite each other's object.
    if (std::find(objects.begin(), objects.end(), object) != objects.end()) {
      object = request_.work_dir /
               (source.stem().string() + "_" + std::to_string(objects.size()) + ".o");
    }
    if (auto failure = compile(source, object)) return *failure;
    if (auto failure = check_symbols(source, object)) return *failure;
    objects.push_back(object);
  }
  return link(objects);
}

}  // namespace

BuildOutput build_submission_cuda(ProcessRunner& runner, const BuildRequest& request) {
  return CudaBuild(runner, request).run();
}

}  // namespace cugrade
