// build_submission_cpu(): pre-pass, host compiler, symbol policy, link against the CPU runner
// library. The order and the outcomes are those of the CUDA backend (build_submission_cuda.cpp),
// whose diagnostic and link-error readers it shares.
#include "cpu_build.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>

#include "build/build_submission_cuda.hpp"
#include "build/compiler_diagnostics.hpp"
#include "build/link_errors.hpp"
#include "build/nvcc_command.hpp"
#include "build/symbol_policy.hpp"
#include "prepass.hpp"

namespace cugrade {
namespace {

namespace fs = std::filesystem;

std::optional<std::string> read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The shim headers (harness/cpu/include); CUGRADE_CPU_INCLUDE overrides the built-in path.
fs::path shim_include_dir() {
  if (const char* env = std::getenv("CUGRADE_CPU_INCLUDE")) return env;
  return CUGRADE_CPU_INCLUDE_DIR;
}

/// One CPU build in progress.
class CpuBuild {
 public:
  CpuBuild(ProcessRunner& runner, const BuildRequest& request)
      : runner_(runner), request_(request), started_(std::chrono::steady_clock::now()) {
    output_.result.arch = "cpu";
    compiler_ = request.compiler.empty() ? std::string("g++") : request.compiler.string();
  }

  BuildOutput run();

 private:
  BuildOutput finish(Outcome outcome, std::string message);
  ProcessResult execute(const std::vector<std::string>& argv, bool log_output);
  std::optional<BuildOutput> compiler_failure(const ProcessResult& result);
  std::optional<BuildOutput> prepass(const fs::path& source, const fs::path& cpp);
  std::optional<BuildOutput> compile(const fs::path& source, const fs::path& cpp, const fs::path& object);
  std::optional<BuildOutput> check_symbols(const fs::path& source, const fs::path& object);
  BuildOutput link(const std::vector<fs::path>& objects);

  ProcessRunner& runner_;
  const BuildRequest& request_;
  std::chrono::steady_clock::time_point started_;
  std::string compiler_;
  BuildOutput output_;
};

BuildOutput CpuBuild::finish(Outcome outcome, std::string message) {
  output_.result.outcome = outcome;
  output_.result.message = std::move(message);
  output_.result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  if (outcome != Outcome::passed) output_.runner.clear();
  return output_;
}

ProcessResult CpuBuild::execute(const std::vector<std::string>& argv, bool log_output) {
  output_.result.commands.push_back(display_command(argv));
  ProcessRequest process;
  process.argv = argv;
  process.working_dir = request_.work_dir;
  process.environment = request_.environment;
  process.timeout_s = request_.timeout_s;
  ProcessResult result = runner_.run(process);
  std::string& log = output_.result.log;
  if (log_output && log.size() < build_log_limit_bytes) {
    log += result.stderr_text + result.stdout_text;
    if (log.size() > build_log_limit_bytes) {
      log.resize(build_log_limit_bytes);
      log += "\n[compiler output truncated at 16 KiB]\n";
    }
  }
  return result;
}

std::optional<BuildOutput> CpuBuild::compiler_failure(const ProcessResult& result) {
  if (!result.started)
    return finish(Outcome::harness_error, "the C++ compiler " + compiler_ +
                                              " was not found: install g++ (the CPU backend compiles "
                                              "CUDA files as C++) or name another with --compiler");
  if (result.timed_out)
    return finish(Outcome::timeout, fmt::format("{} did not finish within {:g} s", compiler_, request_.timeout_s));
  return std::nullopt;
}

// The pre-pass runs in this process: it is the harness's code, and its errors (a launch it
// cannot parse) are the student's file's, reported like a compile error.
std::optional<BuildOutput> CpuBuild::prepass(const fs::path& source, const fs::path& cpp) {
  const std::string name = source.filename().string();
  const std::optional<std::string> text = read_file(source);
  if (!text) return finish(Outcome::compile_error, "submission file " + name + " was not found");
  if (std::all_of(text->begin(), text->end(), [](unsigned char c) { return std::isspace(c); }))
    return finish(Outcome::compile_error, "submission file " + name + " is empty");
  // #line names the file by its full path so compiler messages map back to it (and are then
  // shown by file name, compiler_diagnostics.cpp).
  Result<std::string> converted = cpu::cuda_to_cpp(*text, source.string());
  if (!converted) {
    std::string message = converted.error().message;
    if (message.starts_with(source.string())) message = name + message.substr(source.string().size());
    auto diagnostics = parse_compiler_diagnostics(message + "\n", {request_.sources, request_.assignment_dir});
    if (diagnostics.empty()) output_.result.diagnostics.push_back(Diagnostic{name, 0, 0, "error", message});
    for (auto& d : diagnostics) output_.result.diagnostics.push_back(d);
    return finish(Outcome::compile_error, "your file cannot be prepared for the CPU backend: " + message);
  }
  std::ofstream out(cpp, std::ios::binary);
  out << *converted;
  if (!out) return finish(Outcome::harness_error, "cannot write " + cpp.filename().string() + " in the build folder");
  return std::nullopt;
}

std::optional<BuildOutput> CpuBuild::compile(const fs::path& source, const fs::path& cpp, const fs::path& object) {
  std::vector<std::string> argv = {compiler_, "-std=c++20", "-O2", "-fno-strict-aliasing", "-pthread",
                                   "-fno-diagnostics-color", "-include", "cuda_runtime.h",
                                   "-I" + shim_include_dir().string()};
  if (!request_.assignment_dir.empty()) argv.push_back("-I" + request_.assignment_dir.string());
  // The pre-passed copy lives in work_dir: the student's own `#include "x.cuh"` still resolves.
  argv.push_back("-I" + fs::absolute(source).parent_path().string());
  for (const std::string& tail : {std::string("-c"), cpp.string(), std::string("-o"), object.string()})
    argv.push_back(tail);
  const ProcessResult result = execute(argv, true);
  if (auto failure = compiler_failure(result)) return failure;
  const std::string output = result.stderr_text + result.stdout_text;
  std::vector<Diagnostic> diagnostics =
      parse_compiler_diagnostics(output, {request_.sources, request_.assignment_dir}, 1000);
  // Errors inside the shim headers are reported by g++ at the header line, followed by the
  // student's line in "required from here"; the student's own file comes first.
  std::stable_partition(diagnostics.begin(), diagnostics.end(),
                        [&](const Diagnostic& d) { return d.file == source.filename().string(); });
  const auto first_error = std::find_if(diagnostics.begin(), diagnostics.end(),
                                        [](const Diagnostic& d) { return d.severity == "error"; });
  std::optional<std::string> error_text;
  if (first_error != diagnostics.end()) error_text = describe(*first_error);
  if (diagnostics.size() > 10) diagnostics.resize(10);
  auto& kept = output_.result.diagnostics;
  kept.insert(kept.end(), diagnostics.begin(), diagnostics.end());
  if (kept.size() > 10) kept.resize(10);
  if (result.exit_code == 0 && !result.signal) {
    if (!fs::exists(object))
      return finish(Outcome::harness_error, compiler_ + " reported success but wrote no " + object.filename().string());
    return std::nullopt;
  }
  if (error_text) return finish(Outcome::compile_error, "your file does not compile: " + *error_text);
  std::string first_line = output.substr(0, output.find('\n'));
  if (first_line.empty())
    first_line = result.signal ? fmt::format("{} was killed by signal {}", compiler_, *result.signal)
                               : fmt::format("{} failed with exit code {}", compiler_, result.exit_code);
  return finish(Outcome::compile_error, "your file does not compile: " + first_line);
}

std::optional<BuildOutput> CpuBuild::check_symbols(const fs::path& source, const fs::path& object) {
  const ProcessResult result = execute(defined_symbols_command(object), false);
  if (!result.started)
    return finish(Outcome::harness_error, "nm was not found on PATH: install binutils (cugrade uses nm "
                                          "to check which names your file defines)");
  if (result.timed_out || result.exit_code != 0)
    return finish(Outcome::harness_error, "nm could not list the symbols of " + object.filename().string());
  const auto symbols = parse_defined_symbols(result.stdout_text);
  auto violations = find_forbidden_symbols(symbols);
  // The executor lives in namespace cugrade_cpu; a strong definition there would replace it.
  // (Weak ones are the shim's inline and template functions, instantiated in every object.)
  for (const DefinedSymbol& s : symbols) {
    const bool strong = s.type == 'T' || s.type == 'D' || s.type == 'B' || s.type == 'R';
    if (strong && s.name.find("cugrade_cpu::") != std::string::npos && s.name.find("(anonymous") == std::string::npos)
      violations.push_back(SymbolViolation{s.name, "namespace cugrade_cpu belongs to the CPU backend"});
  }
  if (violations.empty()) return std::nullopt;
  for (const auto& v : violations)
    output_.result.diagnostics.push_back(
        Diagnostic{source.filename().string(), 0, 0, "error", "defines " + v.symbol + ": " + v.reason});
  const SymbolViolation& first = violations.front();
  return finish(Outcome::forbidden_symbol, "your file defines " + first.symbol + ", which it may not: " + first.reason);
}

BuildOutput CpuBuild::link(const std::vector<fs::path>& objects) {
  const fs::path runner = request_.work_dir / "runner";
  std::vector<std::string> argv = {compiler_, "-o", runner.string()};
  for (const auto& object : objects) argv.push_back(object.string());
  argv.push_back(request_.runner_library.string());
  argv.push_back("-lboost_context");
  argv.push_back("-pthread");
  const ProcessResult result = execute(argv, true);
  if (auto failure = compiler_failure(result)) return *failure;
  if (result.exit_code == 0 && !result.signal) {
    if (!fs::exists(runner)) return finish(Outcome::harness_error, compiler_ + " reported success but wrote no runner");
    output_.runner = runner;
    return finish(Outcome::passed, "");
  }
  const LinkErrors errors = parse_link_errors(result.stderr_text + result.stdout_text);
  if (!errors.missing_files.empty())
    return finish(Outcome::harness_error, "the linker cannot find " + errors.missing_files.front() +
                                              ": the assignment's CPU runner library is not built or not installed");
  if (errors.undefined.empty() && errors.multiple.empty())
    return finish(Outcome::link_error, "your file does not link: " +
                                           (errors.first_error.empty() ? fmt::format("exit code {}", result.exit_code)
                                                                       : errors.first_error));
  const std::string file = request_.sources.front().filename().string();
  for (const auto& name : errors.undefined)
    output_.result.diagnostics.push_back(Diagnostic{file, 0, 0, "error", "no definition of " + name});
  for (const auto& name : errors.multiple)
    output_.result.diagnostics.push_back(Diagnostic{file, 0, 0, "error", "more than one definition of " + name});
  const std::string declared = read_file(request_.assignment_dir / "interface.cuh").value_or(std::string());
  return finish(Outcome::link_error, describe_link_errors(errors, declared));
}

BuildOutput CpuBuild::run() {
  if (request_.sources.empty()) return finish(Outcome::harness_error, "no source files to build");
  if (request_.runner_library.empty())
    return finish(Outcome::harness_error, "no CPU runner library for assignment " + request_.assignment);
  std::vector<fs::path> objects;
  for (const auto& source : request_.sources) {
    const std::string stem = source.stem().string() + (objects.empty() ? "" : "_" + std::to_string(objects.size()));
    const fs::path cpp = request_.work_dir / (stem + ".cpu.cpp");
    const fs::path object = request_.work_dir / (stem + ".o");
    if (auto failure = prepass(source, cpp)) return *failure;
    if (auto failure = compile(source, cpp, object)) return *failure;
    if (auto failure = check_symbols(source, object)) return *failure;
    objects.push_back(object);
  }
  return link(objects);
}

}  // namespace

BuildOutput build_submission_cpu(ProcessRunner& runner, const BuildRequest& request) {
  return CpuBuild(runner, request).run();
}

}  // namespace cugrade
