#include "pipeline/alone_rerun.hpp"

#include <algorithm>
#include <chrono>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "pipeline/sanitizer_pass.hpp"
#include "pipeline/schedule_race.hpp"
#include "pipeline/verdicts.hpp"
#include "process/step_folder.hpp"
#include "run/reference_runs.hpp"

namespace cugrade {
namespace fs = std::filesystem;

void name_cases_in_messages(RunOutcome& ran, const CasePlan& plan) {
  for (auto& [id, status] : ran.tasks)
    for (std::size_t i = 0; i < plan.cases.size() && i < plan.job.checks.size(); ++i) {
      const std::string neutral = "(" + plan.job.checks[i].id + ")";
      if (const auto at = status.message.find(neutral); at != std::string::npos)
        status.message.replace(at, neutral.size(), "(" + plan.cases[i].spec_case.id + ")");
    }
}

std::vector<std::size_t> cases_not_passed(const std::vector<CaseResult>& cases,
                                          const std::vector<std::string>& unchecked) {
  std::vector<std::size_t> failed;
  for (std::size_t i = 0; i < cases.size(); ++i)
    if (cases[i].outcome != Outcome::passed ||
        std::find(unchecked.begin(), unchecked.end(), cases[i].id) != unchecked.end())
      failed.push_back(i);
  return failed;
}

CasePlan plan_of_cases(const CasePlan& plan, const std::vector<std::size_t>& indices, const fs::path& dir,
                       const fs::path& reference_dir) {
  CasePlan cut;
  cut.layout = plan.layout;
  cut.layout.run = dir;
  cut.layout.reference = reference_dir;
  for (const std::size_t i : indices) {
    if (i >= plan.cases.size() || i >= plan.job.checks.size()) continue;
    CheckTask task = plan.job.checks[i];
    const fs::path into = task.reference ? reference_dir : dir;
    task.output_file = (into / fs::path(task.output_file).filename()).string();
    task.readback_file = (into / fs::path(task.readback_file).filename()).string();
    cut.job.checks.push_back(std::move(task));
    cut.cases.push_back(plan.cases[i]);
  }
  return cut;
}

AloneRerun run_again_alone(ProcessRunner& processes, const Spec& spec, const CasePlan& plan, const RunRequest& run,
                           const fs::path& reference_runner, const CaseStages& stages,
                           std::vector<CaseResult>& cases, const std::vector<std::string>& unchecked) {
  AloneRerun out;
  const std::vector<std::size_t> failed = cases_not_passed(cases, unchecked);
  if (failed.empty()) return out;
  const auto started = std::chrono::steady_clock::now();
  // Every runner of the first run has ended: the new folders are made in folders they could
  // write, never through a link one of them left there.
  remove_planted_links(run.work_dir);
  remove_planted_links(plan.layout.reference);
  const fs::path dir = run.work_dir / "alone", reference_dir = plan.layout.reference / "alone";
  std::error_code ec;
  fs::create_directories(dir, ec);  // one that cannot be made fails the runs: their cases keep no pass
  fs::create_directories(reference_dir, ec);
  CasePlan cut = plan_of_cases(plan, failed, dir, reference_dir);
  RunRequest alone = run;
  alone.work_dir = dir;
  alone.job.checks = cut.job.checks;
  alone.job.timings.clear();
  alone.start_gate.clear();
  RunRequest first = alone;
  if (stages.zero_poison)
    for (CheckTask& repeat : zero_poison_repeats(alone.job, dir / "poison-00")) first.job.checks.push_back(std::move(repeat));
  RunOutcome ran = run_job_with_reference(processes, first, reference_runner, reference_dir);
  RunOutcome zero_poison = take_repeats(ran);
  name_cases_in_messages(ran, cut);
  std::vector<CaseResult> again = judge_cases(spec, cut, ran);
  if (stages.zero_poison) check_uninitialised_shared_on_gpu(processes, spec, cut, alone, ran, zero_poison, again);
  std::vector<std::string> sanitizer_notes;
  if (!stages.sanitizer.empty()) {
    for (PlannedCase& planned : cut.cases)  // a clean check beside others stands
      if (std::ranges::find(stages.sanitized_clean, planned.spec_case.id) != stages.sanitized_clean.end())
        planned.spec_case.sanitize = false;
    const SanitizerPass pass = run_sanitizer_pass(processes, spec, cut, alone, ran, stages.sanitizer, stages.tools,
                                                  stages.source_names, again);
    sanitizer_notes = pass.notes;
  }
  for (std::size_t k = 0; k < failed.size() && k < again.size(); ++k) {
    out.cases.push_back(failed[k]);
    const CaseResult& before = cases[failed[k]];
    out.beside_others.push_back(before.outcome == Outcome::passed ? "passed, not checked by compute-sanitizer"
                                                                   : std::string(to_string(before.outcome)));
    cases[failed[k]] = std::move(again[k]);
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (std::string note = alone_rerun_note(cases, out.cases, out.beside_others); !note.empty())
    out.notes.push_back(std::move(note));
  for (const std::string& note : sanitizer_notes) out.notes.push_back("alone: " + note);
  return out;
}

std::string alone_rerun_note(const std::vector<CaseResult>& cases, const std::vector<std::size_t>& indices,
                             const std::vector<std::string>& beside_others) {
  std::vector<std::string> visible, steps;
  std::size_t count = 0, hidden = 0;
  for (std::size_t k = 0; k < indices.size() && k < beside_others.size(); ++k) {
    if (indices[k] >= cases.size()) continue;
    const CaseResult& c = cases[indices[k]];
    ++count;
    // A hidden case is counted, never named: its id would give its size and seed away.
    if (c.visibility == Visibility::hidden) ++hidden;
    else visible.push_back(fmt::format("{} (beside others: {})", c.id, beside_others[k]));
    if (std::find(steps.begin(), steps.end(), c.step) == steps.end()) steps.push_back(c.step);
  }
  if (count == 0) return "";
  std::string which = fmt::format("{}", fmt::join(visible, ", "));
  if (hidden) which += fmt::format("{}{} hidden", which.empty() ? "" : " and ", hidden);
  return fmt::format("{} case{} (step{} {}) did not pass beside other submissions on the GPU and {} run again with the "
                     "GPU alone; the run{} alone count{}: {}",
                     count, count == 1 ? "" : "s", steps.size() == 1 ? "" : "s", fmt::join(steps, ", "),
                     count == 1 ? "was" : "were", count == 1 ? "" : "s", count == 1 ? "s" : "", which);
}

}  // namespace cugrade
