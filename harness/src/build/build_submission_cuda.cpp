// build_submission_cuda(): the order of the build and what each failure means for the student.
#include "build/build_submission_cuda.hpp"

#include <fmt/format.h>

#include <fstream>
#include <optional>

#include "build/build_session.hpp"
#include "build/call_site_header.hpp"
#include "build/compiler_diagnostics.hpp"
#include "build/nvcc_command.hpp"
#include "build/toolchain.hpp"

namespace cugrade {

namespace {

namespace fs = std::filesystem;

/// One nvcc build in progress: its own steps, on the shared session (build_session.hpp).
class CudaBuild {
 public:
  CudaBuild(ProcessRunner& runner, const BuildRequest& request)
      : session_(runner, request, request.arch), request_(request) {}

  BuildOutput run();
  /// Compiles every source and stops there: no symbol check, no link.
  BuildOutput compile_only();

 private:
  /// The failure for an nvcc run that did not end normally, or nullopt.
  std::optional<BuildOutput> nvcc_failure(const ProcessResult& result);
  /// Checks common to both: sources given, staged.
  std::optional<BuildOutput> prepare();
  std::optional<BuildOutput> compile(std::size_t index);
  BuildOutput link();
  /// The toolkit's folder, read-only in each nvcc step (it may lie outside the system's).
  std::vector<fs::path> toolkit() const { return {cuda_toolkit_root(request_.compiler)}; }

  BuildSession session_;
  const BuildRequest& request_;
  ReadableFolders folders_;
  bool call_sites_ = false;  ///< the call-site header was written (call_site_header.hpp)
};

std::optional<BuildOutput> CudaBuild::nvcc_failure(const ProcessResult& result) {
  if (!result.started) {
    return session_.finish(
        Outcome::harness_error,
        "nvcc could not be started (" + result.launch_error + "; looked for " + request_.compiler.string() +
            "): install the CUDA toolkit, set CUGRADE_NVCC, or grade with --backend cpu");
  }
  if (result.timed_out) {
    return session_.finish(Outcome::timeout,
                           fmt::format("nvcc did not finish within {:g} s", request_.timeout_s));
  }
  return std::nullopt;
}

std::optional<BuildOutput> CudaBuild::prepare() {
  if (request_.sources.empty()) return session_.finish(Outcome::harness_error, "no source files to build");
  if (auto failure = session_.stage()) return failure;
  // What the compile may read: its own folder, the host compiler's and the toolkit's headers.
  std::vector<fs::path> system = compiler_include_dirs("g++", request_.environment);
  for (auto& folder : cuda_include_dirs(request_.compiler)) system.push_back(std::move(folder));
  folders_ = session_.readable_folders(std::move(system));
  std::ofstream header(request_.work_dir / call_site_header_path, std::ios::binary | std::ios::trunc);
  header << call_site_header_text();
  call_sites_ = static_cast<bool>(header.flush());
  return std::nullopt;
}

std::optional<BuildOutput> CudaBuild::compile(std::size_t index) {
  const StagedFile& source = session_.staging().sources.at(index);
  ProcessResult result = session_.execute(nvcc_compile_command(request_, index, source.staged, call_sites_),
                                          false, session_.sandbox(toolkit()));
  // The call-site header must never cost a compile (a student's `::cudaMalloc(...)` or a method
  // named cudaFree reads differently through its macros): a file that fails with it is compiled
  // again without it, and that compile's result is the one told.
  if (call_sites_ && result.started && !result.timed_out && (result.exit_code != 0 || result.signal))
    result = session_.execute(nvcc_compile_command(request_, index, source.staged, false), false,
                              session_.sandbox(toolkit()));
  if (auto failure = nvcc_failure(result)) return failure;
  auto output = session_.checked_compile_output(result, index, folders_, true);
  if (!output) return output.error();
  const std::optional<std::string> error_text = session_.keep_diagnostics(
      parse_compiler_diagnostics(*output, session_.diagnostic_paths(), 1000));
  if (result.exit_code == 0 && !result.signal) {
    if (!fs::exists(request_.work_dir / object_path(index))) {
      return session_.finish(Outcome::harness_error,
                             "nvcc reported success but wrote no " + object_path(index));
    }
    return std::nullopt;
  }
  if (error_text) {
    return session_.finish(Outcome::compile_error, "your file does not compile: " + *error_text);
  }
  // No diagnostic of the student's file: nvcc itself refused (an unknown -arch, a missing
  // tool of the toolkit). That is the installation's fault, not the student's.
  const std::string summary = failure_summary(*output, result, "nvcc");
  if (summary.starts_with("nvcc fatal")) {
    return session_.finish(Outcome::harness_error,
                           "nvcc could not build " + source.shown + ": " + summary);
  }
  return session_.finish(Outcome::compile_error, "your file does not compile: " + summary);
}

BuildOutput CudaBuild::link() {
  const fs::path runner = request_.work_dir / "runner";
  std::vector<fs::path> read_only = toolkit();
  read_only.push_back(request_.runner_library);
  const ProcessResult result =
      session_.execute(nvcc_link_command(request_), true, session_.sandbox(read_only));
  if (auto failure = nvcc_failure(result)) return *failure;
  if (result.exit_code == 0 && !result.signal) {
    if (!fs::exists(runner)) {
      return session_.finish(Outcome::harness_error,
                             "nvcc reported success but wrote no runner binary");
    }
    return session_.passed(runner);
  }
  return session_.link_failure(result, "runner library",
                               fmt::format("nvcc failed with exit code {}", result.exit_code));
}

BuildOutput CudaBuild::run() {
  if (request_.arch.empty()) {
    return session_.finish(Outcome::harness_error,
                           "no GPU architecture to build for (such as sm_90)");
  }
  if (auto failure = prepare()) return *failure;
  std::vector<LinkLibrary> libraries = system_link_libraries("g++", request_.environment);
  for (auto& library : cuda_link_libraries(request_.compiler, request_.allowed_libraries))
    libraries.push_back(std::move(library));
  session_.start_listing_libraries(std::move(libraries));
  std::vector<std::vector<Symbol>> objects;
  for (std::size_t i = 0; i < session_.staging().sources.size(); ++i) {
    if (auto failure = compile(i)) return *failure;
    const auto symbols = session_.library_symbols();
    if (!symbols) return symbols.error();
    // The runner's one function a submission may call: the call-site header's hook.
    const auto hook = [](const Symbol& symbol) { return symbol.name == call_site_function; };
    const SymbolContext context{symbols->get(), request_.allowed_libraries, hook};
    auto checked = session_.check_symbols(i, context);
    if (!checked) return checked.error();
    objects.push_back(std::move(*checked));
  }
  if (auto failure = session_.seal(objects)) return *failure;
  return link();
}

BuildOutput CudaBuild::compile_only() {
  if (auto failure = prepare()) return *failure;
  for (std::size_t i = 0; i < session_.staging().sources.size(); ++i)
    if (auto failure = compile(i)) return *failure;
  return session_.finish(Outcome::passed, "");
}

}  // namespace

BuildOutput build_submission_cuda(ProcessRunner& runner, const BuildRequest& request) {
  return CudaBuild(runner, request).run();
}

BuildOutput compile_with_nvcc(ProcessRunner& runner, const BuildRequest& request) {
  return CudaBuild(runner, request).compile_only();
}

}  // namespace cugrade
