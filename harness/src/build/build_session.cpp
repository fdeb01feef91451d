// BuildSession: the steps and failure readings both build backends share.
#include "build/build_session.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

#include "build/link_errors.hpp"
#include "build/nvcc_command.hpp"

namespace cugrade {

namespace fs = std::filesystem;

std::optional<std::string> read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string failure_summary(std::string_view output, const ProcessResult& result,
                            std::string_view tool) {
  std::string first_line(output.substr(0, output.find('\n')));
  if (!first_line.empty()) return first_line;
  return result.signal ? fmt::format("{} was killed by signal {}", tool, *result.signal)
                       : fmt::format("{} failed with exit code {}", tool, result.exit_code);
}

BuildSession::BuildSession(ProcessRunner& runner, const BuildRequest& request, std::string arch)
    : runner_(runner), request_(request), started_(std::chrono::steady_clock::now()) {
  output_.result.arch = std::move(arch);
}

DiagnosticPaths BuildSession::diagnostic_paths() const {
  return {request_.sources, request_.assignment_dir};
}

BuildOutput BuildSession::finish(Outcome outcome, std::string message) {
  output_.result.outcome = outcome;
  output_.result.message = std::move(message);
  output_.result.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  if (outcome != Outcome::passed) output_.runner.clear();
  return output_;
}

BuildOutput BuildSession::passed(const fs::path& runner) {
  output_.runner = runner;
  return finish(Outcome::passed, "");
}

ProcessResult BuildSession::execute(const std::vector<std::string>& argv, bool log_output) {
  output_.result.commands.push_back(display_command(argv));
  ProcessRequest process;
  process.argv = argv;
  process.working_dir = request_.work_dir;
  process.environment = request_.environment;
  process.timeout_s = request_.timeout_s;
  ProcessResult result = runner_.run(process);
  std::string& log = output_.result.log;
  // Once the log is full, later tools add nothing: the first errors are the ones that matter.
  if (log_output && log.size() < build_log_limit_bytes) {
    log += result.stderr_text;
    log += result.stdout_text;
    if (log.size() > build_log_limit_bytes) {
      log.resize(build_log_limit_bytes);
      log += "\n[compiler output truncated at 16 KiB]\n";
    }
  }
  return result;
}

std::expected<std::string, BuildOutput> BuildSession::read_source(const fs::path& source) {
  const std::string name = source.filename().string();
  std::optional<std::string> text = read_file(source);
  if (!text) {
    return std::unexpected(
        finish(Outcome::compile_error, "submission file " + name + " was not found"));
  }
  const bool blank =
      std::all_of(text->begin(), text->end(), [](unsigned char c) { return std::isspace(c); });
  if (blank) {
    return std::unexpected(finish(Outcome::compile_error, "submission file " + name + " is empty"));
  }
  return std::move(*text);
}

void BuildSession::add_diagnostic(Diagnostic diagnostic) {
  output_.result.diagnostics.push_back(std::move(diagnostic));
}

std::optional<std::string> BuildSession::keep_diagnostics(std::vector<Diagnostic> diagnostics) {
  const auto first_error = std::find_if(diagnostics.begin(), diagnostics.end(),
                                        [](const Diagnostic& d) { return d.severity == "error"; });
  std::optional<std::string> error_text;
  if (first_error != diagnostics.end()) error_text = describe(*first_error);
  if (diagnostics.size() > 10) diagnostics.resize(10);
  auto& kept = output_.result.diagnostics;
  kept.insert(kept.end(), diagnostics.begin(), diagnostics.end());
  if (kept.size() > 10) kept.resize(10);
  return error_text;
}

std::optional<BuildOutput> BuildSession::check_symbols(const fs::path& source,
                                                       const fs::path& object,
                                                       const ExtraSymbolPolicy& extra) {
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
  const std::vector<DefinedSymbol> symbols = parse_defined_symbols(result.stdout_text);
  std::vector<SymbolViolation> violations = find_forbidden_symbols(symbols);
  if (extra) {
    for (auto& violation : extra(symbols)) violations.push_back(std::move(violation));
  }
  if (violations.empty()) return std::nullopt;
  for (const auto& violation : violations) {
    add_diagnostic(Diagnostic{source.filename().string(), 0, 0, "error",
                              "defines " + violation.symbol + ": " + violation.reason});
  }
  const SymbolViolation& first = violations.front();
  return finish(Outcome::forbidden_symbol,
                "your file defines " + first.symbol + ", which it may not: " + first.reason);
}

BuildOutput BuildSession::link_failure(const ProcessResult& result, std::string_view library,
                                       std::string_view no_reason) {
  const LinkErrors errors = parse_link_errors(result.stderr_text + result.stdout_text);
  if (!errors.missing_files.empty()) {
    return finish(Outcome::harness_error,
                  fmt::format("the linker cannot find {}: the assignment's {} is not built or not "
                              "installed",
                              errors.missing_files.front(), library));
  }
  if (errors.undefined.empty() && errors.multiple.empty()) {
    const std::string why =
        errors.first_error.empty() ? std::string(no_reason) : errors.first_error;
    return finish(Outcome::link_error, "your file does not link: " + why);
  }
  const std::string student_file =
      request_.sources.empty() ? std::string() : request_.sources.front().filename().string();
  for (const auto& name : errors.undefined) {
    add_diagnostic(Diagnostic{student_file, 0, 0, "error", "no definition of " + name});
  }
  for (const auto& name : errors.multiple) {
    add_diagnostic(Diagnostic{student_file, 0, 0, "error", "more than one definition of " + name});
  }
  // A missing name that interface.cuh declares is a missing entry point (link_errors.hpp).
  const std::string declared =
      read_file(request_.assignment_dir / "interface.cuh").value_or(std::string());
  return finish(Outcome::link_error, describe_link_errors(errors, declared));
}

}  // namespace cugrade
