#include "diagnose/diagnose_steps.hpp"

#include "build/staging.hpp"

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

/// The one call a profile makes: the timing task's step, size and inputs as a check task that
/// writes nothing (no output or read-back file: only its kernels count).
CheckTask profile_task(const TimeTask& timing, bool reference) {
  CheckTask task;
  task.id = "profile";
  task.step = reference ? timing.reference_step : timing.step;
  task.reference = reference;
  task.params = timing.params;
  task.inputs_file = timing.inputs_file;
  task.outputs = timing.outputs;
  return task;
}

/// Causes that live on a line of the kernel (not in its launch, as occupancy does).
bool has_a_line(const std::string& cause) {
  return cause == "uncoalesced_stores" || cause == "uncoalesced_loads" || cause == "bank_conflicts" ||
         cause == "no_reuse" || cause == "divergence" || cause == "instructions";
}

/// `text` trimmed of surrounding blanks and cut to `width` characters.
std::string excerpt(const std::string& text, std::size_t width) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  std::string out = text.substr(first, text.find_last_not_of(" \t") + 1 - first);
  if (out.size() > width) out = out.substr(0, width) + "…";
  return out;
}

/// Names the line in the diagnosis: its location, and the line itself after the kernel's name.
void add_line(PerformanceDiagnosis& d, const SourceLine& line, const std::vector<std::string>& names) {
  d.location = source_location(line.file, line.line, names);
  const std::string where = fmt::format(" ({}: `{}`)", d.location, excerpt(line.text, 60));
  const std::string kernel = " in " + d.kernel;
  const auto at = d.kernel.empty() ? std::string::npos : d.message.find(kernel);
  if (at != std::string::npos) d.message.insert(at + kernel.size(), where);
  else d.details.insert(d.details.begin(), "where: " + where.substr(2, where.size() - 3));
}

/// "ref|<runner>@<identity>|<ncu>@<identity>|<gpu>|<step>|M=2048,N=2048": what the reference's
/// counters depend on (the runner and the profiler as built and installed: file_identity).
std::string cache_key(const DiagnosisRequest& request, const TimeTask& task) {
  std::string key = "ref|" + request.reference_runner.string() + "@" + file_identity(request.reference_runner) + "|" +
                    request.ncu.string() + "@" + file_identity(request.ncu) + "|" + request.gpu + "|" +
                    task.reference_step + "|";
  for (const auto& [name, value] : task.params) key += name + "=" + std::to_string(value) + ",";
  return key;
}

}  // namespace

std::string source_location(const std::string& file, int line, const std::vector<std::string>& names) {
  return shown_source_name(file, names) + ":" + std::to_string(line);
}

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
  // The ratio the verdict will give (judge_timing): the same student and reference times.
  const double student = timing_stats(timed.student_ms, timed.student_wall_ms).median_ms;
  const double reference = counted_reference(timed.reference_ms, timed.reference_alone_ms).counted().median_ms;
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
    const TimeTask& task = tasks[i];
    if (!below_full_credit(timed[i], targets[i])) continue;
    if (!request.steps.empty() && !request.steps.contains(task.step)) continue;
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
      p.task = profile_task(task, reference);
      p.timeout_s = std::max(1.0, std::min(request.profile_timeout_s, left_s()));
      Result<CallCounters> counters = profile_call(processes, p);
      // Its folder holds the job, the events and ncu's log; a failed one stays for `--keep-work`.
      std::error_code ignored;
      if (counters) fs::remove_all(dir, ignored);
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
    if (!mine) {
      out[i] = unavailable_diagnosis(mine.error().message);
      continue;
    }
    out[i] = diagnose_counters(*mine, *reference);
    // The line it comes from: ncu's source page of the student's longest kernel (one more profile).
    if (!request.sources.empty() && has_a_line(out[i]->cause) && !mine->main_kernel.empty() && left_s() > 5.0) {
      const fs::path dir = request.work_dir / fmt::format("{}-lines", i);
      ProfileRequest p;
      p.ncu = request.ncu;
      p.run = request.student;
      p.run.work_dir = dir;
      p.task = profile_task(task, false);
      p.timeout_s = std::max(1.0, std::min(request.profile_timeout_s, left_s()));
      p.sources = request.sources;
      const auto lines = profile_source_lines(processes, p, mine->main_kernel);
      std::error_code ignored;
      fs::remove_all(dir, ignored);
      if (const SourceLine* line = lines ? line_for_cause(*lines, out[i]->cause) : nullptr)
        add_line(*out[i], *line, request.source_names);
    }
  }
  return out;
}

}  // namespace cugrade
