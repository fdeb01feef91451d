#include "pipeline/build_for_check.hpp"

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <future>
#include <optional>
#include <sstream>

#include <fmt/format.h>

#include "build/build_submission_cuda.hpp"
#include "core/config.hpp"
#include "core/sha256.hpp"
#include "core/utc_time.hpp"
#include "core/work_dir.hpp"
#include "cpu_build.hpp"
#include "pipeline/case_plan.hpp"
#include "pipeline/environment.hpp"
#include "pipeline/run_requests.hpp"
#include "pipeline/stage_progress.hpp"
#include "process/cpu_affinity.hpp"
#include "process/sandbox.hpp"
#include "run/lockstep_timing.hpp"

namespace cugrade {
namespace fs = std::filesystem;

namespace {
/// Names and content hash of the submission (missing files hash as empty: the build says why).
void describe_submission(GradeReport& report, const std::vector<fs::path>& files) {
  std::string all;
  for (const auto& file : files) {
    report.submission.push_back(file.filename().string());
    std::ifstream in(file, std::ios::binary);
    std::ostringstream content;
    content << in.rdbuf();
    all += content.str();
  }
  report.submission_sha256 = sha256_hex(all);
}

/// Where nvcc is installed, the CPU backend first has it compile the files, so the verdict on
/// what compiles is nvcc's; nvcc missing or broken only adds a note.
BuildOutput checked_by_nvcc(const CheckContext& context, BuildRequest request, const std::string& arch,
                            GradeReport& report) {
  BuildOutput passed;
  passed.result.outcome = Outcome::passed;
  if (nvcc_version(context.processes, context.locations).empty()) {
    report.notes.push_back("nvcc is not installed: the file was compiled for the CPU backend only");
    return passed;
  }
  // The architecture asked for, else the graded GPU's (an H100): an sm_80+ intrinsic the CPU
  // backend runs (__reduce_add_sync) is no compile error there.
  request.arch = arch.empty() ? "sm_90" : arch;
  request.compiler = context.locations.nvcc;
  BuildOutput checked = compile_with_nvcc(context.processes, request);
  if (checked.result.outcome == Outcome::harness_error) {
    report.notes.push_back("nvcc could not check the file: " + checked.result.message);
    return passed;
  }
  return checked;
}

/// The reference's baselines of `plan`'s timed targets, taken now into `baselines`
/// (take_baselines_ahead), on the GPU `options` names, on its timing CPUs: the seconds it took.
double take_planned_baselines(const CheckContext& context, const Spec& spec, const CasePlan& plan, bool use_cuda,
                              const CheckOptions& options, BaselineCache& baselines) {
  const PinnedThread pinned(check_timing_cpus(options));
  return take_baselines_ahead(context.processes,
                              timing_run_request(student_run_request(spec, plan, {}, use_cuda, options), plan),
                              plan.job.timings, context.locations.reference_runner(spec.id, use_cuda),
                              plan.layout.reference_timing, baselines);
}

}  // namespace

BuildRequest cpu_build_request(const CheckContext& context, const Spec& spec, const CheckOptions& options,
                               const fs::path& work_dir) {
  BuildRequest request;
  request.sources = options.submission;
  request.assignment = spec.id;
  request.assignment_dir = spec.dir;
  request.work_dir = work_dir;
  request.timeout_s = spec.limits.build_timeout_s;
  request.environment = scrubbed_environment();
  request.allowed_libraries = spec.allowed_libraries;
  request.arch = "cpu";
  const char* cxx = std::getenv("CXX");
  request.compiler = cxx && *cxx ? cxx : "g++";
  request.runner_library = context.locations.cpu_runner_library(spec.id);
  return request;
}

namespace {

/// build_for_check; `lone`: build_for_lone_check.
BuiltSubmission build_submission(const CheckContext& context, const Spec& spec, const Grader& grader,
                                 const CheckOptions& options, bool lone) {
  const auto started = std::chrono::steady_clock::now();
  BuiltSubmission out;
  GradeReport& report = out.report;
  report.cugrade_version = config::version;
  report.assignment = spec.id;
  report.title = spec.title;
  report.started_at = utc_now_iso8601();
  describe_submission(report, options.submission);
  // Students are never graded on reference-only steps; the self-test's reference entry is.
  out.cases = graded_cases(spec, expand_cases(spec, options.course_secret), options.reference_only_steps);
  report.seed = out.cases.empty() ? 0 : out.cases.front().seed;

  // Where to run: the GPU when asked for or available; otherwise the CPU backend.
  out.device = options.backend == Backend::cpu ? DeviceInfo{}
               : context.device                ? *context.device
                                               : find_device(context.processes, context.locations);
  const DeviceInfo& device = out.device;
  out.use_cuda = options.backend == Backend::cuda || (options.backend == Backend::automatic && device.present());
  const bool use_cuda = out.use_cuda;
  const std::string nvcc = use_cuda ? nvcc_version(context.processes, context.locations) : "";
  report.environment = describe_environment(use_cuda ? "cuda" : "cpu", device, nvcc);
  if (!use_cuda && options.backend == Backend::automatic)
    report.notes.push_back("no usable NVIDIA GPU here (" +
                           (device.error.empty() ? std::string("no device") : device.error) +
                           "): graded on the CPU backend, correctness only");
  // Without a working sandbox the check still runs, but its report says so (design.md §4).
  if (!sandbox_status().works) report.notes.push_back(unsealed_note(sandbox_status()));

  out.work_dir = make_work_dir(options.work_dir, "cugrade-");
  // The CPU backend's request; nvcc's check and the CUDA build set their own compiler, arch and library.
  BuildRequest request = cpu_build_request(context, spec, options, out.work_dir);
  const bool will_run = !use_cuda || device.present();
  const bool timed = use_cuda && options.performance;
  const auto make_plan = [&] {
    return plan_cases(spec, grader, out.cases, timed ? spec.performance : std::vector<PerformanceTarget>{},
                      out.work_dir, context.materials.get());
  };
  std::future<std::pair<CasePlan, double>> beside;  // the plan, and the baselines' seconds
  std::atomic<bool> build_failed = false;  // then the baselines are of no use: not waited for
  if (lone && will_run && timing_ahead())
    beside = std::async(std::launch::async, [&] {
      const auto planning = std::chrono::steady_clock::now();
      CasePlan plan = make_plan();
      out.seconds.inputs = seconds_since(planning);
      double baselines = 0.0;
      if (timed && context.baselines && !plan.job.timings.empty()) {
        // The GPU alone, unless the build fails while another cugrade holds it.
        const auto claimed = context.claim_turn ? context.claim_turn([&] { return build_failed.load(); }) : std::nullopt;
        if (!build_failed) baselines = take_planned_baselines(context, spec, plan, use_cuda, options, *context.baselines);
      }
      return std::pair{std::move(plan), baselines};
    });
  say(options, "building " + report.submission.front() + " ...");
  // The baselines beside the build keep to their two CPUs; the compilers keep off them.
  std::optional<PinnedThread> off_timing;
  if (beside.valid()) off_timing.emplace(builder_cpus(allowed_cpus(), options.lanes));
  BuildOutput built;
  if (use_cuda) {
    request.arch = !options.arch.empty() ? options.arch : device.present() ? device.arch() : "sm_75";
    request.compiler = context.locations.nvcc;
    request.runner_library = context.locations.cuda_runner_library(spec.id);
    built = build_submission_cuda(context.processes, request);
  } else {
    built = checked_by_nvcc(context, request, options.arch, report);
    if (built.result.outcome == Outcome::passed) {
      const auto nvcc_commands = built.result.commands;  // kept, so the report shows the check ran
      built = build_submission_cpu(context.processes, request);
      built.result.commands.insert(built.result.commands.begin(), nvcc_commands.begin(), nvcc_commands.end());
    }
  }
  off_timing.reset();
  build_failed = built.result.outcome != Outcome::passed;
  report.build = built.result;
  out.runner = built.runner;
  out.unset_reads = built.unset_reads;
  out.seconds.build = seconds_since(started);
  const bool passed = report.build.outcome == Outcome::passed;
  if (beside.valid()) {
    try {
      auto [plan, baselines] = beside.get();
      if (passed) out.plan = std::move(plan);
      if (passed && baselines > 0.0)
        say(options, fmt::format("took the reference's baselines in {:.1f} s while the file built", baselines));
    } catch (...) {
      if (passed) throw;  // the plan's fault is the harness's, as it would be after the build
    }
  } else if (passed && will_run) {
    // The inputs and the gold are made here rather than in run_submission: it is CPU work, and a
    // batch runs run_submission on a GPU lane, whose time should go to the GPU.
    const auto planning = std::chrono::steady_clock::now();
    out.plan = make_plan();
    out.seconds.inputs = seconds_since(planning);
  }
  return out;
}
}  // namespace

BuiltSubmission build_for_check(const CheckContext& context, const Spec& spec, const Grader& grader,
                                const CheckOptions& options) {
  return build_submission(context, spec, grader, options, false);
}

BuiltSubmission build_for_lone_check(const CheckContext& context, const Spec& spec, const Grader& grader,
                                     const CheckOptions& options) {
  return build_submission(context, spec, grader, options, true);
}

double take_baselines_now(const CheckContext& context, const Spec& spec, const Grader& grader,
                          const CheckOptions& options, const fs::path& work_dir) {
  if (!context.baselines || !context.device || !context.device->present() || !options.performance ||
      options.backend == Backend::cpu || spec.performance.empty())
    return 0.0;
  const CasePlan plan = plan_cases(spec, grader, {}, spec.performance, work_dir, context.materials.get());
  if (plan.job.timings.empty()) return 0.0;
  return take_planned_baselines(context, spec, plan, true, options, *context.baselines);
}

}  // namespace cugrade
