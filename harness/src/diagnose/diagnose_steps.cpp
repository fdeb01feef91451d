#include "diagnose/diagnose_steps.hpp"

#include <algorithm>
#include <chrono>
#include <system_error>

#include <fmt/format.h>

#include "diagnose/causes.hpp"
#include "diagnose/profile_call.hpp"
#include "timing/timing_stats.hpp"

namespace cugrade {
namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

/// The one call a profile makes: the timing task's step, size and inputs as a check task whose
/// outputs go to `dir`.
CheckTask profile_task(const TimeTask& timing, bool reference, const fs::path& dir) {
  CheckTask task;
  task.id = "profile";
  task.step = reference ? timing.reference_step : timing.step;
  task.reference = reference;
  task.params = timing.params;
  task.inputs_file = timing.inputs_file;
  task.outputs = timing.outputs;
  task.output_file = (dir / "outputs.out").string();
  task.readback_file = (dir / "inputs.back").string();
  return task;
}

/// "ref|<runner>|<gpu>|<step>|M=2048,N=2048": what the reference's counters depend on.
std::string cache_key(const DiagnosisRequest& request, const TimeTask& task) {
  std::string key = "ref|" + request.reference_runner.string() + "|" + request.gpu + "|" + task.reference_step + "|";
  for (const auto& [name, value] : task.params) key += name + "=" + std::to_string(value) + ",";
  return key;
}

}  // namespace

PerformanceDiagnosis unavailable_diagnosis(const std::string& why) {
  PerformanceDiagnosis d;
  d.cause = "unavailable";
  d.message = "counters unavailable: " + why;
  return d;
}

bool below_full_credit(const TimingOutcome& timed, const PerformanceTarget& target) {
  if (timed.status.outcome != Outcome::passed || !timed.verified || timed.student_ms.empty() ||
      timed.reference_ms.empty())
    return false;
  const double student = timing_stats(timed.student_ms, timed.student_wall_ms).median_ms;
  double reference = timing_stats(timed.reference_ms, {}).median_ms;
  if (!timed.reference_alone_ms.empty())
    reference = std::min(reference, timing_stats(timed.reference_alone_ms, {}).median_ms);
  return student > 0.0 && reference / student < target.full_credit_at;
}

std::vector<std::optional<PerformanceDiagnosis>> diagnose_slow_steps(ProcessRunner& processes,
                                                                     const DiagnosisRequest& request,
                                                                     const std::vector<TimeTask>& tasks,
                                                                     const std::vector<TimingOutcome>& timed,
                                                                     const std::vector<PerformanceTarget>& targets,
                                                                     CounterCache* cache) {
  std::vector<std::optional<PerformanceDiagnosis>> out(tasks.size());
  const auto started = Clock::now();
  const auto left_s = [&] {
    return request.budget_s - std::chrono::duration<double>(Clock::now() - started).count();
  };
  // Once the reference cannot be profiled (no ncu, no permission), no later step can be either.
  std::string refused;
  for (std::size_t i = 0; i < tasks.size() && i < timed.size() && i < targets.size(); ++i) {
    if (!below_full_credit(timed[i], targets[i])) continue;
    const TimeTask& task = tasks[i];
    if (!refused.empty()) {
      out[i] = unavailable_diagnosis(refused);
      continue;
    }
    if (request.ncu.empty()) {
      refused = "Nsight Compute (ncu) is not installed here (it comes with the CUDA toolkit; CUGRADE_NCU names it)";
      out[i] = unavailable_diagnosis(refused);
      continue;
    }
    if (left_s() < 1.0) {
      out[i] = unavailable_diagnosis(fmt::format("not profiled: the {:g} s the check gives diagnosis were spent "
                                                 "on the steps before",
                                                 request.budget_s));
      continue;
    }
    if (request.progress) request.progress("diagnosing " + task.step + " with Nsight Compute ...");
    const auto profile = [&](bool reference) -> Result<CallCounters> {
      const fs::path dir = request.work_dir / fmt::format("{}-{}", i, reference ? "reference" : "student");
      ProfileRequest p;
      p.ncu = request.ncu;
      p.run = request.student;
      p.run.work_dir = dir;
      if (reference) p.run.runner = request.reference_runner;
      p.task = profile_task(task, reference, dir);
      p.timeout_s = std::max(1.0, std::min(request.profile_timeout_s, left_s()));
      Result<CallCounters> counters = profile_call(processes, p);
      std::error_code ignored;
      fs::remove_all(dir, ignored);  // its outputs can be as large as the timed size's
      return counters;
    };
    const std::string key = cache_key(request, task);
    std::optional<CallCounters> reference = cache ? cache->find(key) : std::nullopt;
    if (!reference) {
      Result<CallCounters> theirs = profile(true);
      if (!theirs) {
        refused = theirs.error().message + " (profiling the reference)";
        out[i] = unavailable_diagnosis(refused);
        continue;
      }
      reference = *theirs;
      if (cache) cache->store(key, *reference);
    }
    Result<CallCounters> mine = profile(false);
    out[i] = mine ? diagnose_counters(*mine, *reference) : unavailable_diagnosis(mine.error().message);
  }
  return out;
}

}  // namespace cugrade
