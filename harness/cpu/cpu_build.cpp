// build_submission_cpu(): pre-pass, host compiler, symbol policy, link against the CPU runner
// library. The order and the outcomes are those of the CUDA backend (build_submission_cuda.cpp),
// whose session (build/build_session.hpp: tools, log, symbol policy, link errors) it shares.
#include "cpu_build.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <optional>

#include "build/build_session.hpp"
#include "build/compiler_diagnostics.hpp"
#include "build/symbol_policy.hpp"
#include "prepass.hpp"

namespace cugrade {
namespace {

namespace fs = std::filesystem;

/// The shim headers (harness/cpu/include); CUGRADE_CPU_INCLUDE overrides the built-in path.
fs::path shim_include_dir() {
  if (const char* env = std::getenv("CUGRADE_CPU_INCLUDE")) return env;
  return CUGRADE_CPU_INCLUDE_DIR;
}

/// The executor lives in namespace cugrade_cpu; a strong definition there would replace it.
/// (Weak ones are the shim's inline and template functions, instantiated in every object.)
std::vector<SymbolViolation> executor_violations(const std::vector<DefinedSymbol>& symbols) {
  std::vector<SymbolViolation> violations;
  for (const DefinedSymbol& s : symbols) {
    const bool strong = s.type == 'T' || s.type == 'D' || s.type == 'B' || s.type == 'R';
    if (strong && s.name.find("cugrade_cpu::") != std::string::npos && s.name.find("(anonymous") == std::string::npos)
      violations.push_back(SymbolViolation{s.name, "namespace cugrade_cpu belongs to the CPU backend"});
  }
  return violations;
}

/// One CPU build in progress: its own steps, on the shared session (build/build_session.hpp).
class CpuBuild {
 public:
  CpuBuild(ProcessRunner& runner, const BuildRequest& request)
      : session_(runner, request, "cpu"), request_(request) {
    compiler_ = request.compiler.empty() ? std::string("g++") : request.compiler.string();
  }

  BuildOutput run();

 private:
  std::optional<BuildOutput> compiler_failure(const ProcessResult& result);
  std::optional<BuildOutput> prepass(const fs::path& source, const fs::path& cpp);
  std::optional<BuildOutput> compile(const fs::path& source, const fs::path& cpp, const fs::path& object);
  BuildOutput link(const std::vector<fs::path>& objects);

  BuildSession session_;
  const BuildRequest& request_;
  std::string compiler_;
};

std::optional<BuildOutput> CpuBuild::compiler_failure(const ProcessResult& result) {
  if (!result.started)
    return session_.finish(Outcome::harness_error, "the C++ compiler " + compiler_ +
                                                       " was not found: install g++ (the CPU backend compiles "
                                                       "CUDA files as C++) or name another with --compiler");
  if (result.timed_out)
    return session_.finish(Outcome::timeout,
                           fmt::format("{} did not finish within {:g} s", compiler_, request_.timeout_s));
  return std::nullopt;
}

// The pre-pass runs in this process: it is the harness's code, and its errors (a launch it
// cannot parse) are the student's file's, reported like a compile error.
std::optional<BuildOutput> CpuBuild::prepass(const fs::path& source, const fs::path& cpp) {
  const std::string name = source.filename().string();
  const std::expected<std::string, BuildOutput> text = session_.read_source(source);
  if (!text) return text.error();
  // #line names the file by its full path so compiler messages map back to it (and are then
  // shown by file name, compiler_diagnostics.cpp).
  // Local headers are inlined, pre-passed: a launch in a header is rewritten too.
  Result<std::string> converted = cpu::cuda_to_cpp(*text, source.string(), cpu::read_headers_from_disk());
  if (!converted) {
    std::string message = converted.error().message;
    if (message.starts_with(source.string())) message = name + message.substr(source.string().size());
    auto diagnostics = parse_compiler_diagnostics(message + "\n", session_.diagnostic_paths());
    if (diagnostics.empty()) session_.add_diagnostic(Diagnostic{name, 0, 0, "error", message});
    for (auto& d : diagnostics) session_.add_diagnostic(d);
    return session_.finish(Outcome::compile_error, "your file cannot be prepared for the CPU backend: " + message);
  }
  std::ofstream out(cpp, std::ios::binary);
  out << *converted;
  if (!out) return session_.finish(Outcome::harness_error, "cannot write " + cpp.filename().string() + " in the build folder");
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
  const ProcessResult result = session_.execute(argv, true);
  if (auto failure = compiler_failure(result)) return failure;
  const std::string output = result.stderr_text + result.stdout_text;
  std::vector<Diagnostic> diagnostics = parse_compiler_diagnostics(output, session_.diagnostic_paths(), 1000);
  // Errors inside the shim headers are reported by g++ at the header line, followed by the
  // student's line in "required from here"; the student's own file comes first.
  std::stable_partition(diagnostics.begin(), diagnostics.end(),
                        [&](const Diagnostic& d) { return d.file == source.filename().string(); });
  const std::optional<std::string> error_text = session_.keep_diagnostics(std::move(diagnostics));
  if (result.exit_code == 0 && !result.signal) {
    if (!fs::exists(object))
      return session_.finish(Outcome::harness_error,
                             compiler_ + " reported success but wrote no " + object.filename().string());
    return std::nullopt;
  }
  if (error_text) return session_.finish(Outcome::compile_error, "your file does not compile: " + *error_text);
  return session_.finish(Outcome::compile_error, "your file does not compile: " + failure_summary(output, result, compiler_));
}

BuildOutput CpuBuild::link(const std::vector<fs::path>& objects) {
  const fs::path runner = request_.work_dir / "runner";
  std::vector<std::string> argv = {compiler_, "-o", runner.string()};
  for (const auto& object : objects) argv.push_back(object.string());
  argv.push_back(request_.runner_library.string());
  argv.push_back("-lboost_context");
  argv.push_back("-pthread");
  const ProcessResult result = session_.execute(argv, true);
  if (auto failure = compiler_failure(result)) return *failure;
  if (result.exit_code == 0 && !result.signal) {
    if (!fs::exists(runner)) return session_.finish(Outcome::harness_error, compiler_ + " reported success but wrote no runner");
    return session_.passed(runner);
  }
  return session_.link_failure(result, "CPU runner library", fmt::format("exit code {}", result.exit_code));
}

BuildOutput CpuBuild::run() {
  if (request_.sources.empty()) return session_.finish(Outcome::harness_error, "no source files to build");
  if (request_.runner_library.empty())
    return session_.finish(Outcome::harness_error, "no CPU runner library for assignment " + request_.assignment);
  std::vector<fs::path> objects;
  for (const auto& source : request_.sources) {
    const std::string stem = source.stem().string() + (objects.empty() ? "" : "_" + std::to_string(objects.size()));
    const fs::path cpp = request_.work_dir / (stem + ".cpu.cpp");
    const fs::path object = request_.work_dir / (stem + ".o");
    if (auto failure = prepass(source, cpp)) return *failure;
    if (auto failure = compile(source, cpp, object)) return *failure;
    if (auto failure = session_.check_symbols(source, object, executor_violations)) return *failure;
    objects.push_back(object);
  }
  return link(objects);
}

}  // namespace

BuildOutput build_submission_cpu(ProcessRunner& runner, const BuildRequest& request) {
  return CpuBuild(runner, request).run();
}

}  // namespace cugrade
