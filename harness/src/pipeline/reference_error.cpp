#include "pipeline/reference_error.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include <fmt/format.h>

#include "check/compare.hpp"
#include "core/utc_time.hpp"

namespace cugrade {
namespace fs = std::filesystem;

namespace {

/// The course secret the measurement draws the hidden groups with: a fixed one, so that a
/// measurement is repeated exactly (no course's: the hidden sizes are measured on seeds of their
/// own). Seeds change the error at a size by up to about 1.5 times (N-body's trajectories at
/// N = 2500); the margin covers that.
/// How long one case may take while measuring: the timed sizes on the CPU backend take minutes
/// (N-body's 20480 bodies), where a student's case has seconds. A timed size that takes longer
/// still (a 2048³ matrix product, a fiber per CUDA thread) is left to the GPU's measurement.
constexpr double kMeasuredCaseSeconds = 180.0;

/// Whether `c` is one of the cases added for a performance target's size.
bool timed_size(const Spec& spec, const Case& c) {
  for (const auto& target : spec.performance)
    if (target.step == c.step && target.params == c.params) return true;
  return false;
}

CourseSecret measurement_secret() { return CourseSecret("cugrade: the reference's own error"); }

/// "2026-12-02, the CPU backend" or "2026-12-02, NVIDIA H200 (sm_90)".
std::string measured_where(const GradeReport& report) {
  const std::string today = utc_now_iso8601().substr(0, 10);
  if (report.environment.backend == "cpu") return today + ", the CPU backend";
  return fmt::format("{}, {} (compute capability {}, nvcc {})", today, report.environment.gpu,
                     report.environment.compute_capability, report.environment.nvcc);
}

}  // namespace

ToleranceUse tolerance_use(const Array& actual, const Array& expected, const Tolerance& tolerance, const Array* slack) {
  ToleranceUse use;
  constexpr double infinite = std::numeric_limits<double>::infinity();
  const std::int64_t n = std::min(actual.size(), expected.size());
  for (std::int64_t i = 0; i < n; ++i) {
    const double x = actual.value(i), y = expected.value(i);
    if (!std::isfinite(x)) {
      use.share = infinite;
      continue;
    }
    // An element the grader gives slack (a pair within rounding of a cutoff, decided either way)
    // errs by the grader's word, not by FP32's rounding: it says nothing of the tolerance.
    if (slack && slack->value(i) > 0.0) continue;
    const double error = std::fabs(x - y);
    use.max_abs_error = std::max(use.max_abs_error, error);
    const double allowed = tolerance.atol + tolerance.rtol * std::fabs(y);
    if (allowed > 0.0) use.share = std::max(use.share, error / allowed);
    else if (error > 0.0) use.share = infinite;
  }
  return use;
}

Result<MeasuredBackend> measure_reference_error(const CheckContext& context, const Spec& spec, const Grader& grader,
                                                CheckOptions options) {
  const fs::path reference_dir = context.locations.references() / spec.id;
  options.submission.clear();
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(reference_dir, ec))
    if (entry.path().extension() == ".cu") options.submission.push_back(entry.path());
  std::ranges::sort(options.submission);
  if (options.submission.empty()) return fail(fmt::format("{} holds no .cu file", reference_dir.string()));
  options.reference_only_steps = true;
  options.course_secret = measurement_secret();
  options.performance = options.sanitizer = options.diagnosis = false;
  const bool keep = options.keep_work_dir;
  options.keep_work_dir = true;  // the outputs are read after the run; removed below unless asked to keep

  // The timed sizes too: the verification after timing compares two FP32 results at that size
  // with the same tolerance, and the error grows with the size (matmul's K = 2048 against the
  // cases' 640). Each as a case of its own, with time for the CPU backend to run it.
  Spec measured_spec = spec;
  for (const auto& target : spec.performance) {
    CaseGroup timed;
    timed.steps = {target.step};
    timed.sizes = {target.params};
    timed.points = 0.0;
    timed.sanitize = false;
    measured_spec.cases.push_back(std::move(timed));
  }
  measured_spec.limits.run_timeout_s = std::max(spec.limits.run_timeout_s, kMeasuredCaseSeconds);
  BuiltSubmission built = build_for_check(context, measured_spec, grader, options);
  if (built.report.build.outcome != Outcome::passed || !built.plan)
    return fail(fmt::format("the reference of {} did not build: {} {}", spec.id, to_string(built.report.build.outcome),
                            built.report.build.message));
  RanSubmission ran = run_submission(context, measured_spec, grader, options, std::move(built));
  const fs::path work_dir = ran.built.work_dir;
  const auto cleanup = [&] {
    if (!keep) fs::remove_all(work_dir, ec);
  };
  std::map<std::string, const CaseResult*> results;
  for (const auto& c : ran.report.cases) results[c.id] = &c;

  MeasuredBackend measured;
  measured.backend = ran.built.use_cuda ? "cuda" : "cpu";
  measured.where = measured_where(ran.report);
  std::map<std::string, std::vector<MeasuredSize>> by_step;  // step → its sizes in the cases' order
  const CasePlan& plan = *ran.built.plan;
  for (std::size_t i = 0; i < plan.cases.size() && i < plan.job.checks.size(); ++i) {
    const Case& c = plan.cases[i].spec_case;
    const auto result = results.find(c.id);
    if (result != results.end() && result->second->outcome == Outcome::timeout && timed_size(spec, c)) {
      measured.not_measured.push_back(fmt::format("{} {}", c.step, params_to_string(c.params)));
      continue;  // too slow here: lint says that its timed size is not measured on this backend
    }
    if (result == results.end() || result->second->outcome != Outcome::passed) {
      cleanup();
      return fail(fmt::format("the reference did not pass case {} ({} {}): {}; a tolerance is measured on a reference "
                              "that meets it",
                              c.id, c.step, params_to_string(c.params),
                              result == results.end() ? "not run" : result->second->message));
    }
    std::string error;
    const auto outputs = read_array_file(plan.job.checks[i].output_file, &error);
    if (!outputs) {
      cleanup();
      return fail(fmt::format("case {}: the reference's outputs cannot be read: {}", c.id, error));
    }
    const Tolerance& tolerance = spec.find_step(c.step)->tolerance;
    auto& sizes = by_step[c.step];
    const std::string params = params_to_string(c.params);
    auto same = std::ranges::find(sizes, params, &MeasuredSize::params);
    MeasuredSize& size = same != sizes.end() ? *same : sizes.emplace_back(MeasuredSize{params});
    for (const auto& [name, gold] : plan.cases[i].gold()) {
      if (is_slack_name(name) || !outputs->contains(name)) continue;
      const auto slack = plan.cases[i].gold().find(slack_name(name));
      const ToleranceUse use = tolerance_use(outputs->at(name), gold, tolerance,
                                             slack == plan.cases[i].gold().end() ? nullptr : &slack->second);
      size.share = std::max(size.share, use.share);
      size.max_abs_error = std::max(size.max_abs_error, use.max_abs_error);
    }
  }
  cleanup();
  for (const auto& step : spec.steps) {
    const auto found = by_step.find(step.name);
    if (found == by_step.end()) continue;
    measured.steps.push_back({step.name, step.tolerance.atol, step.tolerance.rtol, found->second});
  }
  return measured;
}

}  // namespace cugrade
