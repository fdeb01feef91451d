#include "diagnose/diagnose_steps.hpp"

#include "build/staging.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <system_error>

#include <fmt/format.h>

#include "diagnose/causes.hpp"
#include "diagnose/profile_call.hpp"
#include "report/report_format.hpp"
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

/// Names the line in the diagnosis: its location, and the line itself after the kernel's name.
void add_line(PerformanceDiagnosis& d, const SourceLine& line, const std::vector<std::string>& names) {
  d.location = source_location(line.file, line.line, names);
  const std::string where = fmt::format(" ({}: {})", d.location, quoted_source_line(line.text));
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
  const std::string spent = fmt::format("not profiled: the {:g} s the check gives diagnosis were spent on the steps before",
                                        request.budget_s);
  std::vector<std::size_t> slow;  // the steps diagnosed, in the job's order
  for (std::size_t i = 0; i < tasks.size() && i < timed.size() && i < targets.size(); ++i)
    if (below_full_credit(timed[i], targets[i]) && (request.steps.empty() || request.steps.contains(tasks[i].step)))
      slow.push_back(i);
  const auto all_unavailable = [&](const std::vector<std::size_t>& steps, const std::string& why) {
    for (std::size_t i : steps) out[i] = unavailable_diagnosis(why);
  };
  if (slow.empty()) return out;
  if (request.ncu.empty()) {
    all_unavailable(slow, "Nsight Compute (ncu) is not installed here (it comes with the CUDA toolkit; CUGRADE_NCU names it)");
    return out;
  }
  // ncu's sections read from folders of our own (none, or the source page's alone): not its
  // whole folder at every start. Beside the profiles' folders, out of every sandbox's reach.
  const NcuSectionFolders sections = ncu_section_folders(request.ncu, request.work_dir / "ncu-sections");
  if (left_s() < 1.0) {
    all_unavailable(slow, spent);
    return out;
  }
  if (request.progress) {
    std::string names;
    for (std::size_t i : slow) names += (names.empty() ? "" : ", ") + tasks[i].step;
    request.progress("diagnosing " + names + " with Nsight Compute ...");
  }
  // One side's calls of `steps`: all in one run of its runner (one start of ncu and of the
  // runner, not one per step); a call that run could not give counters for, again by itself.
  // `ahead`: steps profiled only to be kept (reference_steps_ahead), never again by themselves.
  const auto profile_side = [&](bool reference, const std::vector<std::size_t>& steps,
                                const std::vector<std::size_t>& ahead = {})
      -> Result<std::map<std::size_t, Result<CallCounters>>> {
    const auto profile = [&](const std::string& folder, const std::vector<CheckTask>& calls) {
      const fs::path dir = request.work_dir / folder;
      ProfileRequest p;
      p.ncu = request.ncu;
      p.run = request.student;
      p.run.work_dir = dir;
      p.sections = sections;
      if (reference) p.run.runner = request.reference_runner;
      p.timeout_s = std::max(1.0, std::min(request.profile_timeout_s * static_cast<double>(calls.size()), left_s()));
      auto counters = profile_calls(processes, p, calls);
      // Its folder holds the job, the events and ncu's log; a failed one stays for `--keep-work`.
      const bool all_read = counters && std::all_of(counters->begin(), counters->end(), [](const auto& c) { return c.has_value(); });
      std::error_code ignored;
      if (all_read) fs::remove_all(dir, ignored);
      return counters;
    };
    const std::string side = reference ? "reference" : "student";
    std::vector<std::size_t> all = steps;
    all.insert(all.end(), ahead.begin(), ahead.end());
    std::vector<CheckTask> calls;
    for (std::size_t i : all) {
      calls.push_back(profile_task(tasks[i], reference));
      calls.back().id = fmt::format("profile-{}", i);
    }
    auto together = profile(side, calls);
    if (!together) return fail(together.error().message);
    std::map<std::size_t, Result<CallCounters>> by_step;
    for (std::size_t k = 0; k < all.size(); ++k) {
      Result<CallCounters> counters = std::move((*together)[k]);
      if (!counters && all.size() > 1 && k < steps.size()) {
        if (left_s() < 1.0) {
          counters = fail(spent);
        } else {
          auto alone = profile(fmt::format("{}-{}", steps[k], side), {calls[k]});
          counters = alone ? std::move(alone->front()) : fail(alone.error().message);
        }
      }
      by_step.emplace(all[k], std::move(counters));
    }
    return by_step;
  };
  // The reference's counters: kept from an earlier check, or profiled now.
  std::map<std::size_t, CallCounters> theirs;
  std::vector<std::size_t> unprofiled;
  for (std::size_t i : slow) {
    if (auto kept = cache ? cache->find(cache_key(request, tasks[i])) : std::nullopt) theirs.emplace(i, *kept);
    else unprofiled.push_back(i);
  }
  if (!unprofiled.empty()) {
    // Steps later checks will diagnose, in the same run: one start of ncu and of the runner.
    std::vector<std::size_t> ahead;
    for (std::size_t i = 0; cache && i < tasks.size(); ++i)
      if (request.reference_steps_ahead.contains(tasks[i].step) &&
          std::find(slow.begin(), slow.end(), i) == slow.end() && !cache->find(cache_key(request, tasks[i])))
        ahead.push_back(i);
    auto profiled = profile_side(true, unprofiled, ahead);
    if (!profiled) {  // no ncu here, no permission: no step can be profiled
      all_unavailable(slow, profiled.error().message + " (profiling the reference)");
      return out;
    }
    for (auto& [i, counters] : *profiled) {
      if (std::find(ahead.begin(), ahead.end(), i) != ahead.end()) {  // only kept, for a later check
        if (counters) cache->store(cache_key(request, tasks[i]), *counters);
        continue;
      }
      if (!counters) {
        out[i] = unavailable_diagnosis(counters.error().message + " (profiling the reference)");
        continue;
      }
      if (cache) cache->store(cache_key(request, tasks[i]), *counters);
      theirs.emplace(i, std::move(*counters));
    }
  }
  std::vector<std::size_t> mine_to_profile;
  for (std::size_t i : slow)
    if (theirs.contains(i)) mine_to_profile.push_back(i);
  if (mine_to_profile.empty()) return out;
  if (left_s() < 1.0) {
    all_unavailable(mine_to_profile, spent);
    return out;
  }
  auto mine = profile_side(false, mine_to_profile);
  if (!mine) {
    all_unavailable(mine_to_profile, mine.error().message);
    return out;
  }
  for (auto& [i, counters] : *mine) {
    if (!counters) {
      out[i] = unavailable_diagnosis(counters.error().message);
      continue;
    }
    out[i] = diagnose_counters(*counters, theirs.at(i));
    // The line it comes from: ncu's source page of the student's longest kernel (one more profile).
    if (!request.sources.empty() && has_a_line(out[i]->cause) && !counters->main_kernel.empty() && left_s() > 5.0) {
      const fs::path dir = request.work_dir / fmt::format("{}-lines", i);
      ProfileRequest p;
      p.ncu = request.ncu;
      p.run = request.student;
      p.run.work_dir = dir;
      p.task = profile_task(tasks[i], false);
      p.timeout_s = std::max(1.0, std::min(request.profile_timeout_s, left_s()));
      p.sources = request.sources;
      p.sections = sections;
      const auto lines = profile_source_lines(processes, p, counters->main_kernel);
      std::error_code ignored;
      fs::remove_all(dir, ignored);
      if (const SourceLine* line = lines ? line_for_cause(*lines, out[i]->cause) : nullptr)
        add_line(*out[i], *line, request.source_names);
    }
  }
  return out;
}

}  // namespace cugrade
