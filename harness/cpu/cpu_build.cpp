// build_submission_cpu(): staging, pre-pass, host compiler, symbol policy, seal, link against the
// CPU runner library. The order and the outcomes are those of the CUDA backend
// (build_submission_cuda.cpp), whose session (build/build_session.hpp: staging, sandboxed tools,
// log, checks of what a compile read, symbol policy, seal, link errors) it shares.
#include "cpu_build.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <fstream>
#include <mutex>
#include <optional>
#include <set>

#include "build/build_session.hpp"
#include "build/compiler_diagnostics.hpp"
#include "build/nvcc_command.hpp"
#include "build/symbol_policy.hpp"
#include "build/toolchain.hpp"
#include "build/unset_read_warnings.hpp"
#include "core/locations.hpp"
#include "prepass.hpp"

namespace cugrade {
namespace {

namespace fs = std::filesystem;

/// Whether the runner libraries hold Boost.Context's objects (harness/cpu/CMakeLists.txt), so the
/// link needs no -lboost_context.
#ifdef CUGRADE_RUNNER_HOLDS_BOOST_CONTEXT
constexpr bool runner_holds_boost_context = true;
#else
constexpr bool runner_holds_boost_context = false;
#endif

/// The shim headers: harness/cpu/include in a build tree, <prefix>/share/cugrade/cpu-include
/// installed, $CUGRADE_CPU_INCLUDE where set (core/locations.hpp).
fs::path shim_include_dir() { return default_locations().cpu_include; }

/// Every identifier in the shim headers: the names student code can reach through them.
const std::set<std::string>& shim_identifiers() {
  static std::mutex mutex;
  static std::map<std::string, std::set<std::string>> cache;
  const fs::path dir = shim_include_dir();
  std::lock_guard lock(mutex);
  auto [it, added] = cache.try_emplace(dir.string());
  if (!added) return it->second;
  std::error_code ec;
  for (const auto& entry : fs::recursive_directory_iterator(dir, ec)) {
    if (!entry.is_regular_file()) continue;
    const std::string text = read_file(entry.path()).value_or("");
    for (std::size_t i = 0; i < text.size();) {
      const auto starts = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; };
      if (!starts(text[i])) {
        ++i;
        continue;
      }
      std::size_t end = i;
      while (end < text.size() && (starts(text[end]) || std::isdigit(static_cast<unsigned char>(text[end])))) ++end;
      it->second.insert(text.substr(i, end - i));
      i = end;
    }
  }
  return it->second;
}

/// Whether a name only the CPU runner library defines is the shims' API (the CUDA runtime they
/// emulate, the executor's entry points they call): the last part of its qualified name is a
/// name the shim headers mention. The executor's internals (declared in harness/cpu/executor,
/// not on a submission's include path) are not.
bool shim_api(const Symbol& symbol) {
  std::string name = qualified_name(symbol.demangled);
  if (const auto colons = name.rfind("::"); colons != std::string::npos) name = name.substr(colons + 2);
  return !name.empty() && shim_identifiers().contains(name);
}

/// A HeaderReader over the staging folder only: the pre-pass inlines the student's own staged
/// headers and nothing else (a name leaving src/ reads nothing).
cpu::HeaderReader read_staged_headers(const fs::path& build_dir) {
  return [build_dir](const fs::path& path) -> std::optional<std::string> {
    const fs::path normal = path.lexically_normal();
    if (normal.is_absolute() || normal.empty() || *normal.begin() != staging_folder) return std::nullopt;
    for (const auto& part : normal)
      if (part == "..") return std::nullopt;
    std::error_code ec;
    if (!fs::is_regular_file(fs::symlink_status(build_dir / normal, ec))) return std::nullopt;
    return read_file(build_dir / normal);
  };
}

/// One CPU build in progress: its own steps, on the shared session (build/build_session.hpp).
class CpuBuild {
 public:
  CpuBuild(ProcessRunner& runner, const BuildRequest& request)
      : session_(runner, request, "cpu"), request_(request) {
    compiler_ = request.compiler.empty() ? std::string("g++") : request.compiler.string();
    // A compiler installed outside the system (/opt/gcc, a cluster's module) is shown read-only
    // to its own steps; the runner never sees it.
    compiler_root_ = compiler_root(compiler_, request.environment);
  }

  BuildOutput run();

 private:
  std::optional<BuildOutput> compiler_failure(const ProcessResult& result);
  std::optional<BuildOutput> prepass(std::size_t index, const std::string& cpp);
  std::optional<BuildOutput> compile(std::size_t index, const std::string& cpp);
  BuildOutput link();

  BuildSession session_;
  const BuildRequest& request_;
  std::string compiler_;
  std::filesystem::path compiler_root_;  ///< its installation, for its sandbox (compiler_root)
  ReadableFolders folders_;
};

std::optional<BuildOutput> CpuBuild::compiler_failure(const ProcessResult& result) {
  if (!result.started)
    return session_.finish(Outcome::harness_error, "the C++ compiler " + compiler_ + " could not be started (" +
                                                       result.launch_error +
                                                       "): install g++ (the CPU backend compiles CUDA files as "
                                                       "C++) or name another with --compiler");
  if (result.timed_out)
    return session_.finish(Outcome::timeout,
                           fmt::format("{} did not finish within {:g} s", compiler_, request_.timeout_s));
  return std::nullopt;
}

// The pre-pass runs in this process: it is the harness's code, and its errors (a launch it
// cannot parse) are the student's file's, reported like a compile error. It reads only the
// staged files.
std::optional<BuildOutput> CpuBuild::prepass(std::size_t index, const std::string& cpp) {
  const StagedFile& source = session_.staging().sources.at(index);
  const std::optional<std::string> text = read_file(request_.work_dir / source.staged);
  if (!text) return session_.finish(Outcome::harness_error, "cannot read the staged " + source.staged);
  // #line names the staged file (relative to the build folder, where the compiler runs), so
  // compiler messages map back to it; local headers are inlined, pre-passed.
  Result<std::string> converted =
      cpu::cuda_to_cpp(*text, source.staged, read_staged_headers(request_.work_dir), cpu::cuda_arch_number(request_.arch));
  if (!converted) {
    std::string message = converted.error().message;
    if (message.starts_with(source.staged)) message = source.shown + message.substr(source.staged.size());
    auto diagnostics = parse_compiler_diagnostics(message + "\n", session_.diagnostic_paths());
    if (diagnostics.empty()) session_.add_diagnostic(Diagnostic{source.shown, 0, 0, "error", message});
    for (auto& d : diagnostics) session_.add_diagnostic(d);
    return session_.finish(Outcome::compile_error, "your file cannot be prepared for the CPU backend: " + message);
  }
  std::ofstream out(request_.work_dir / cpp, std::ios::binary);
  out << *converted;
  if (!out) return session_.finish(Outcome::harness_error, "cannot write " + cpp + " in the build folder");
  return std::nullopt;
}

std::optional<BuildOutput> CpuBuild::compile(std::size_t index, const std::string& cpp) {
  const StagedFile& source = session_.staging().sources.at(index);
  std::vector<std::string> argv = {
      // -g1: line tables only, so a fault names the student's line (executor/fault_site.cpp).
      compiler_, "-std=c++20", "-O2", "-g1", "-fno-strict-aliasing", "-pthread", "-fno-diagnostics-color",
      // As for nvcc (nvcc_command.cpp): no common symbols, no GNU unique ones (the seal).
      "-fno-common", "-fno-gnu-unique", "-include", "cuda_runtime.h", "-I" + shim_include_dir().string(),
      "-I" + std::string(staging_folder),
      // The files the preprocessor and the assembler read (build/dependency_check.hpp).
      "-MD", "-MF", dependency_path(index), "-Xassembler", "--MD", "-Xassembler",
      assembler_dependency_path(index), "-c", cpp, "-o", object_path(index)};
  // Reads before a variable is set: kept apart, for a case whose results change between runs.
  argv.insert(argv.begin() + 1, unset_read_flags.begin(), unset_read_flags.end());
  const ProcessResult result = session_.execute(argv, false, session_.sandbox({shim_include_dir(), compiler_root_}));
  if (auto failure = compiler_failure(result)) return failure;
  auto output = session_.checked_compile_output(result, index, folders_, true);
  if (!output) return output.error();
  std::vector<Diagnostic> diagnostics = parse_compiler_diagnostics(*output, session_.diagnostic_paths(), 1000);
  session_.keep_unset_reads(take_unset_reads(diagnostics));
  // Inline assembly is PTX, GPU code: the host's assembler cannot read it, and its own words
  // ("no such instruction: `mov.u32 ...'") would send the student looking for a typo.
  for (Diagnostic& d : diagnostics)
    if (d.message.starts_with(assembler_said))
      d.message = "inline assembly (asm) is PTX, which the CPU backend cannot run: check this file on a GPU (" +
                  d.message + ")";
  // Errors inside the shim headers are reported by g++ at the header line, followed by the
  // student's line in "required from here"; the student's own file comes first.
  std::stable_partition(diagnostics.begin(), diagnostics.end(),
                        [&](const Diagnostic& d) { return d.file == source.shown; });
  const std::optional<std::string> error_text = session_.keep_diagnostics(std::move(diagnostics));
  if (result.exit_code == 0 && !result.signal) {
    if (!fs::exists(request_.work_dir / object_path(index)))
      return session_.finish(Outcome::harness_error, compiler_ + " reported success but wrote no " + object_path(index));
    return std::nullopt;
  }
  if (error_text) return session_.finish(Outcome::compile_error, "your file does not compile: " + *error_text);
  return session_.finish(Outcome::compile_error,
                         "your file does not compile: " + failure_summary(*output, result, compiler_));
}

BuildOutput CpuBuild::link() {
  const fs::path runner = request_.work_dir / "runner";
  std::vector<std::string> argv = {compiler_, "-o", "runner", std::string(sealed_object), request_.runner_library.string()};
  if (!runner_holds_boost_context) argv.push_back("-lboost_context");
  argv.push_back("-pthread");
  const ProcessResult result = session_.execute(argv, true, session_.sandbox({request_.runner_library, compiler_root_}));
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
  if (auto failure = session_.stage()) return *failure;
  std::vector<fs::path> system = compiler_include_dirs(compiler_, request_.environment);
  system.push_back(shim_include_dir());
  folders_ = session_.readable_folders(std::move(system));
  std::vector<LinkLibrary> libraries = system_link_libraries(compiler_, request_.environment);
  // The executor's fibers: Boost.Context, in the runner library or linked with -lboost_context.
  if (fs::path boost = find_library_file(compiler_, "libboost_context.so", request_.environment); !boost.empty())
    libraries.push_back({boost, "Boost.Context", false});
  session_.start_listing_libraries(std::move(libraries));
  std::vector<std::vector<Symbol>> objects;
  for (std::size_t i = 0; i < session_.staging().sources.size(); ++i) {
    const std::string cpp = "obj/submission_" + std::to_string(i) + ".cpu.cpp";
    if (auto failure = prepass(i, cpp)) return *failure;
    if (auto failure = compile(i, cpp)) return *failure;
    const auto symbols = session_.library_symbols();
    if (!symbols) return symbols.error();
    const SymbolContext context{symbols->get(), request_.allowed_libraries, shim_api};
    auto checked = session_.check_symbols(i, context);
    if (!checked) return checked.error();
    objects.push_back(std::move(*checked));
  }
  if (auto failure = session_.seal(objects)) return *failure;
  return link();
}

}  // namespace

BuildOutput build_submission_cpu(ProcessRunner& runner, const BuildRequest& request) {
  return CpuBuild(runner, request).run();
}

}  // namespace cugrade
