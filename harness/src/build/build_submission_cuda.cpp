// build_submission_cuda(): the order of the build and what each failure means for the student.
#include "build/build_submission_cuda.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "build/build_session.hpp"
#include "build/compiler_diagnostics.hpp"
#include "build/nvcc_command.hpp"

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
  /// Sources that are missing or empty, found before nvcc runs.
  std::optional<BuildOutput> check_sources();
  std::optional<BuildOutput> compile(const fs::path& source, const fs::path& object);
  BuildOutput link(const std::vector<fs::path>& objects);

  BuildSession session_;
  const BuildRequest& request_;
};

std::optional<BuildOutput> CudaBuild::nvcc_failure(const ProcessResult& result) {
  if (!result.started) {
    return session_.finish(
        Outcome::harness_error,
        "nvcc was not found (looked for " + request_.compiler.string() +
            "): install the CUDA toolkit, set CUGRADE_NVCC, or grade with --backend cpu");
  }
  if (result.timed_out) {
    return session_.finish(Outcome::timeout,
                           fmt::format("nvcc did not finish within {:g} s", request_.timeout_s));
  }
  return std::nullopt;
}

std::optional<BuildOutput> CudaBuild::check_sources() {
  for (const auto& source : request_.sources) {
    if (auto text = session_.read_source(source); !text) return std::move(text.error());
  }
  return std::nullopt;
}

std::optional<BuildOutput> CudaBuild::compile(const fs::path& source, const fs::path& object) {
  const ProcessResult result =
      session_.execute(nvcc_compile_command(request_, source, object), true);
  if (auto failure = nvcc_failure(result)) return failure;
  const std::string output = result.stderr_text + result.stdout_text;
  const std::optional<std::string> error_text = session_.keep_diagnostics(
      parse_compiler_diagnostics(output, session_.diagnostic_paths(), 1000));
  if (result.exit_code == 0 && !result.signal) {
    if (!fs::exists(object)) {
      return session_.finish(Outcome::harness_error,
                             "nvcc reported success but wrote no " + object.filename().string());
    }
    return std::nullopt;
  }
  if (error_text) {
    return session_.finish(Outcome::compile_error, "your file does not compile: " + *error_text);
  }
  // No diagnostic of the student's file: nvcc itself refused (an unknown -arch, a missing
  // tool of the toolkit). That is the installation's fault, not the student's.
  const std::string summary = failure_summary(output, result, "nvcc");
  if (summary.starts_with("nvcc fatal")) {
    return session_.finish(Outcome::harness_error,
                           "nvcc could not build " + source.filename().string() + ": " + summary);
  }
  return session_.finish(Outcome::compile_error, "your file does not compile: " + summary);
}

BuildOutput CudaBuild::link(const std::vector<fs::path>& objects) {
  const fs::path runner = request_.work_dir / "runner";
  const ProcessResult result = session_.execute(nvcc_link_command(request_, objects), true);
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
  if (request_.sources.empty()) {
    return session_.finish(Outcome::harness_error, "no source files to build");
  }
  if (request_.arch.empty()) {
    return session_.finish(Outcome::harness_error,
                           "no GPU architecture to build for (such as sm_90)");
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
    if (auto failure = session_.check_symbols(source, object)) return *failure;
    objects.push_back(object);
  }
  return link(objects);
}

BuildOutput CudaBuild::compile_only() {
  if (request_.sources.empty()) return session_.finish(Outcome::harness_error, "no source files to build");
  if (auto failure = check_sources()) return *failure;
  for (const auto& source : request_.sources)
    if (auto failure = compile(source, request_.work_dir / (source.stem().string() + ".nvcc-check.o")))
      return *failure;
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
