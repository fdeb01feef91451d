#include "pipeline/sanitizer_pass.hpp"

#include <algorithm>
#include <chrono>
#include <future>
#include <iterator>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "pipeline/change_explanations.hpp"
#include "pipeline/sanitized_runs.hpp"
#include "pipeline/schedule_race.hpp"
#include "pipeline/sentences.hpp"
#include "process/sandbox.hpp"
#include "sanitize/sanitizer_output.hpp"
#include "task_markers.hpp"

namespace cugrade {
namespace fs = std::filesystem;

namespace {

/// The cases past a runner's print limit (sanitizer_command) run again in a fresh runner, at
/// most kRounds times in all.
constexpr int kRounds = 6;

/// Whether a case that ended so in the normal run is left out of the sanitizer's runs.
bool ends_unsanitized(const TaskStatus& status) {
  const Outcome outcome = status.outcome;
  return outcome == Outcome::timeout || outcome == Outcome::output_limit || outcome == Outcome::crashed ||
         outcome == Outcome::protocol_error || outcome == Outcome::harness_error || outcome == Outcome::not_run ||
         (outcome == Outcome::cuda_error && status.call_refused);
}

/// The bytes of a case's inputs.
std::size_t input_bytes(const PlannedCase& planned) {
  std::size_t bytes = 0;
  for (const auto& [name, array] : planned.inputs()) bytes += array.bytes.size();
  return bytes;
}

/// The case's outcome for a report of `kind`, as the CPU backend gives it: the GPU aborts a
/// kernel at an invalid access or a broken barrier (a CUDA error); a race or an uninitialised
/// read leaves wrong numbers, at most.
Outcome outcome_of(const std::string& kind) {
  return kind == "race" || kind == "uninitialised" ? Outcome::wrong_answer : Outcome::cuda_error;
}

/// One tool's run: its runner processes' outputs, read back.
struct ToolRun {
  std::string tool;
  std::map<std::string, std::size_t> after_race;  ///< racecheck: step → its cases checked after a race in it
  RunOutcome ran;
  std::vector<SanitizerOutput> outputs;  ///< per runner process
  double seconds = 0.0;
  std::map<std::string, std::string> output_files = {};  ///< task id → where its sanitized run wrote its outputs
  /// racecheck, after_race_alone: step → its cases left unchecked after a race, for the run alone
  std::map<std::string, std::vector<std::string>> left_for_alone = {};
  std::vector<std::string> meant = {};  ///< the task ids given to its runners
};

/// Adds "<tool>: <what>" to `problems` unless that tool already has one (its other runners
/// would say the same).
void note_problem(std::vector<std::string>& problems, const std::string& tool, const std::string& what) {
  for (const auto& p : problems)
    if (p.starts_with(tool + ": ")) return;
  problems.push_back(tool + ": " + what);
}

/// Adds to `found` the steps racecheck's `run` found a race on __shared__ memory in, and, as race
/// free, those it ran a case of to its end without finding a race in any of the step's cases.
void note_racecheck_steps(const ToolRun& run, const std::vector<SanitizerFinding>& findings,
                          const std::map<std::string, CaseResult*>& results, StepFindings& found) {
  for (const auto& f : findings)
    if (f.kind == "race" && results.contains(f.task)) found.shared_race.insert(results.at(f.task)->step);
  for (const auto& [task, status] : run.ran.tasks)
    if (status.outcome == Outcome::passed && results.contains(task)) found.race_free.insert(results.at(task)->step);
  for (const std::string& step : found.shared_race) found.race_free.erase(step);
}

}  // namespace

void give_sanitizer_finding(CaseResult& result, Outcome outcome, const std::string& message) {
  if (result.message.find(message) != std::string::npos) return;
  const bool caused = outcome == Outcome::cuda_error &&
                      (result.outcome == Outcome::wrong_answer || result.outcome == Outcome::crashed ||
                       result.outcome == Outcome::cuda_error);
  if (result.outcome == Outcome::passed || caused) {
    // The outputs' patterns ("never written") follow from the access, which went elsewhere; the
    // CPU backend, which stops at it, shows the access alone.
    if (caused)
      for (Comparison& comparison : result.comparisons) comparison.pattern.clear();
    result.message = result.outcome == Outcome::passed || result.message.empty()
                         ? message
                         : message + std::string(sentence_separator) + result.message;
    result.outcome = outcome;
    result.points = 0.0;
  } else {
    append_sentence(result.message, message);
  }
}

SanitizerPass run_sanitizer_pass(ProcessRunner& processes, const Spec& spec, const CasePlan& plan,
                                 const RunRequest& first, const RunOutcome& ran, const fs::path& sanitizer,
                                 const std::vector<std::string>& tools,
                                 const std::vector<std::string>& source_names,
                                 std::vector<CaseResult>& cases, const std::function<void()>& starting,
                                 bool after_race_alone) {
  const auto started = std::chrono::steady_clock::now();
  SanitizerPass pass;
  // The cases to check, by task id, with their results.
  std::map<std::string, CaseResult*> results;
  std::vector<std::string> ids;
  std::map<std::string, std::size_t> bytes_of;  // task id → its inputs' bytes
  std::map<std::string, double> work_of;        // task id → its work (FLOPs plus domain items)
  std::map<std::string, const PlannedCase*> planned_of;  // task id → its inputs and gold
  for (std::size_t i = 0; i < plan.cases.size() && i < plan.job.checks.size(); ++i) {
    const CheckTask& task = plan.job.checks[i];
    if (task.reference || !plan.cases[i].spec_case.sanitize) continue;
    const auto status = ran.tasks.find(task.id);
    // A hang or a flood would only repeat itself, slower; a case that ended its runner (a crash,
    // a broken protocol, a runner that could not run it) would end each sanitized runner too, at a
    // fresh runner's start (a second or more under the sanitizer) per case. A call the runtime
    // refused ran no kernel wrong, and its message already says why (9 refused launches took
    // initcheck 18 s on an H200); a fault in a kernel is sanitized: the sanitizer names its line.
    if (status != ran.tasks.end() && ends_unsanitized(status->second)) continue;
    const auto result = std::ranges::find(cases, plan.cases[i].spec_case.id, &CaseResult::id);
    if (result == cases.end()) continue;
    results[task.id] = &*result;
    planned_of[task.id] = &plan.cases[i];
    ids.push_back(task.id);
    bytes_of[task.id] = input_bytes(plan.cases[i]);
    if (plan.cases[i].material) work_of[task.id] = plan.cases[i].material->work;
  }
  if (ids.empty()) return pass;
  std::error_code ec;
  if (sanitizer.empty() || !fs::exists(sanitizer, ec)) {
    pass.notes.push_back(
        "compute-sanitizer is not installed here (it comes with the CUDA toolkit): the visible cases were not "
        "checked for invalid accesses, races and uninitialised reads");
    return pass;
  }
  if (starting) starting();

  // All side by side, one runner per tool for every step: each runner's start costs more than
  // most cases (racecheck 1.2 s, memcheck 0.5 s on an H100), and a runner per step and tool
  // (22 for reduction) contended for the cores: 9.8 s for reduction's pass, against 1.6 s for
  // racecheck's one runner beside memcheck's (docs/measurements.md). racecheck checks the cases
  // racecheck_cases picks in each step, and each step's others where those had a race.
  std::vector<std::pair<std::string, std::vector<std::string>>> steps;  // step, its task ids, in the job's order
  for (const CheckTask& task : first.job.checks) {
    if (std::ranges::find(ids, task.id) == ids.end()) continue;
    auto step = std::ranges::find(steps, task.step, &std::pair<std::string, std::vector<std::string>>::first);
    if (step == steps.end()) step = steps.insert(steps.end(), {task.step, {}});
    step->second.push_back(task.id);
  }
  struct Chunk {
    std::string tool;
    std::vector<std::string> ids;
    std::map<std::string, std::vector<std::string>> if_race;  ///< step → checked next, where that step had a race
  };
  std::vector<Chunk> chunks;
  for (const std::string& tool : tools) {
    if (tool != "racecheck") {
      chunks.push_back({tool, ids, {}});
      continue;
    }
    Chunk racecheck{tool, {}, {}};
    std::set<std::string> first_round;
    for (const auto& [step, step_ids] : steps) {
      RacecheckCases sized = racecheck_cases(step_ids, bytes_of, work_of);
      first_round.insert(sized.first.begin(), sized.first.end());
      if (!sized.after_race.empty()) racecheck.if_race[step] = std::move(sized.after_race);
    }
    std::ranges::copy_if(ids, std::back_inserter(racecheck.ids), [&](const std::string& id) { return first_round.contains(id); });
    chunks.push_back(std::move(racecheck));
  }
  std::map<std::string, std::string> step_of;  // task id → its step
  for (const CheckTask& task : first.job.checks) step_of[task.id] = task.step;
  std::vector<std::future<ToolRun>> running;
  for (const Chunk& chunk : chunks) {
    if (chunk.ids.empty()) continue;
    running.push_back(std::async(std::launch::async, [&, chunk] {
      const std::string& tool = chunk.tool;
      const std::string folder = "sanitize-" + tool;
      ToolRun run{tool, {}, {}, {}, {}};
      RunRequest sanitized = first;
      sanitized.task_timeout_s = spec.limits.sanitizer_timeout_s;
      sanitized.idle_grace_s = 10.0;  // freeing and allocating under the sanitizer takes longer
      sanitized.output_limit_bytes = first.output_limit_bytes + (std::size_t{4} << 20);
      sanitized.environment[task_markers_variable] = "1";
      // Only the kernels a case launches are instrumented, not every kernel of the runner.
      sanitized.environment["CUDA_MODULE_LOADING"] = "LAZY";
      // The sanitizer's own folder, when the toolkit's binding does not already show it.
      std::error_code real_ec;
      if (const fs::path home = fs::canonical(sanitizer, real_ec).parent_path(); !real_ec && !shown_by_system(home))
        sanitized.read_only.push_back(home);
      const auto tool_started = std::chrono::steady_clock::now();
      // Runs `checked` in fresh runners until every case has its reports (the print limit).
      const auto check_cases = [&](ToolRun& run, const std::vector<std::string>& checked, const std::string& folder) {
        RunRequest request = sanitized;
        run.meant.insert(run.meant.end(), checked.begin(), checked.end());
        std::vector<std::string> pending = checked;
        for (int round = 0; round < kRounds && !pending.empty(); ++round) {
          // A folder per round: run_job names its files by attempt, from 1 again.
          const fs::path dir = first.work_dir / (folder + (round ? "-" + std::to_string(round) : ""));
          std::error_code dir_ec;
          fs::create_directories(dir, dir_ec);  // a folder that cannot be made fails the run: a note
          request.work_dir = dir;
          request.environment["HOME"] = dir.string();  // where the tools keep their settings
          request.job = rerun_job(first.job, pending, dir);
          for (const CheckTask& task : request.job.checks) run.output_files[task.id] = task.output_file;
          // A sealed runner has a network of its own; unsealed ones side by side share this one.
          request.wrapper = sanitizer_command(sanitizer, tool, request.sandboxed ? 0 : next_sanitizer_port());
          const RunOutcome ran_now = run_job(processes, request);
          for (const auto& [id, status] : ran_now.tasks) run.ran.tasks[id] = status;
          if (run.ran.output_excerpt.empty()) run.ran.output_excerpt = ran_now.output_excerpt;
          pending.clear();
          for (const auto& text : ran_now.process_outputs) {
            run.outputs.push_back(parse_sanitizer_output(text, tool, source_names));
            for (const auto& id : tasks_past_print_limit(run.outputs.back()))
              if (std::ranges::find(checked, id) != checked.end()) pending.push_back(id);
          }
        }
      };
      check_cases(run, chunk.ids, folder);
      // The steps racecheck found a race in: each one's other cases are checked too.
      // A race under a marker no task has (the program printed it) could be any step's.
      std::set<std::string> raced;
      bool unknown_race = false;
      for (const auto& output : run.outputs)
        for (const auto& f : output.findings)
          if (f.kind == "race" && !f.task.empty())
            step_of.contains(f.task) ? void(raced.insert(step_of.at(f.task))) : void(unknown_race = true);
      // A runner per step that raced, side by side: racy code is raced at every size, larger
      // ones taking a second or more each under racecheck.
      std::vector<std::pair<std::string, std::future<ToolRun>>> again;
      for (const auto& [step, rest] : chunk.if_race) {
        if (!unknown_race && !raced.contains(step)) continue;
        if (after_race_alone) {
          run.left_for_alone[step] = rest;
        } else {
          run.after_race[step] = rest.size();
          again.emplace_back(step, std::async(std::launch::async, [&, step, rest] {
            ToolRun more{tool, {}, {}, {}, {}};
            check_cases(more, rest, folder + "-after-race-" + step);
            return more;
          }));
        }
      }
      for (auto& [step, future] : again) {
        ToolRun more = future.get();
        for (auto& [id, status] : more.ran.tasks) run.ran.tasks[id] = std::move(status);
        if (run.ran.output_excerpt.empty()) run.ran.output_excerpt = more.ran.output_excerpt;
        for (auto& output : more.outputs) run.outputs.push_back(std::move(output));
        for (auto& [id, file] : more.output_files) run.output_files[id] = std::move(file);
        run.meant.insert(run.meant.end(), more.meant.begin(), more.meant.end());
      }
      run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - tool_started).count();
      return run;
    }));
  }
  std::map<std::string, double> checked;  // tool → its runner's seconds
  std::vector<std::string> slow, problems, after_race, left_for_alone;
  std::set<std::string> reported;  // tasks given a finding or a disagreement
  std::set<std::string> missed;    // tasks a tool was given and never ran to an end
  std::set<std::string> bad_access;  // tasks memcheck found an invalid access in
  StepFindings found;                // by step: races, race-free steps, then bad accesses
  for (auto& future : running) {  // in the order of `tools`: memcheck first
    ToolRun run = future.get();
    bool any_ran = false;
    std::vector<SanitizerFinding> findings;
    for (const auto& output : run.outputs) {
      any_ran = any_ran || output.ran;
      if (!output.problem.empty()) note_problem(problems, run.tool, output.problem);
      for (const auto& f : output.findings) {
        if (f.task.empty()) continue;  // before the first case: the runner's own start
        if (results.contains(f.task)) {
          findings.push_back(f);
        } else {
          // A marker no task of this job has: the program wrote it. The report still counts,
          // for every case this tool checked (which one it belongs to is no longer known).
          for (const auto& id : ids) {
            SanitizerFinding copy = f;
            copy.task = id;
            findings.push_back(std::move(copy));
          }
        }
      }
    }
    const auto unchecked = [&](const std::string& task) {
      if (const auto it = results.find(task); it != results.end() && std::ranges::find(pass.unchecked, it->second->id) == pass.unchecked.end())
        pass.unchecked.push_back(it->second->id);
    };
    if (!any_ran) {
      for (const auto& id : ids) unchecked(id);
      note_problem(problems, run.tool,
                   "the sanitizer did not start the runner" +
                       (run.ran.output_excerpt.empty() ? "" : " (" + run.ran.output_excerpt.substr(0, 200) + ")"));
      continue;
    }
    checked[run.tool] = std::max(checked[run.tool], run.seconds);
    for (const auto& id : run.meant)
      if (const auto status = run.ran.tasks.find(id); status == run.ran.tasks.end() || status->second.outcome == Outcome::not_run)
        missed.insert(id);
    for (const auto& [step, more] : run.after_race)
      after_race.push_back(fmt::format("{} ({} more case{})", step, more, more == 1 ? "" : "s"));
    for (const auto& [step, rest] : run.left_for_alone) {
      for (const auto& id : rest) unchecked(id);
      left_for_alone.push_back(fmt::format("{} ({} more case{})", step, rest.size(), rest.size() == 1 ? "" : "s"));
    }
    // A read past an array's end is also a read of memory nothing wrote: initcheck's report of
    // it would only repeat memcheck's, less precisely.
    if (run.tool == "memcheck")
      for (const auto& f : findings)
        if (f.kind == "out_of_bounds" || f.kind == "misaligned") bad_access.insert(f.task);
    if (run.tool == "initcheck")
      std::erase_if(findings, [&](const SanitizerFinding& f) { return bad_access.contains(f.task); });
    for (const auto& [id, status] : run.ran.tasks)
      if (status.outcome == Outcome::timeout && results.contains(id)) {
        unchecked(id);
        if (slow.size() < 8) slow.push_back(results.at(id)->id + " (" + run.tool + ")");
      }
    std::map<std::string, std::string> kind_of;
    for (const auto& f : findings)
      if (!kind_of.contains(f.task)) kind_of[f.task] = f.kind;
    if (run.tool == "racecheck") note_racecheck_steps(run, findings, results, found);
    for (const auto& [task, message] : findings_by_task(findings)) {
      give_sanitizer_finding(*results.at(task), outcome_of(kind_of.at(task)), message);
      reported.insert(task);
      ++pass.marked;
    }
    // A case the tool ran to its end and reported nothing on: do its outputs agree with the
    // case's own run? Memcheck's runs only (initcheck and racecheck change more of the timing,
    // not what a submission could tell), each case once.
    if (run.tool == "memcheck")
      for (const auto& [task, status] : run.ran.tasks) {
        if (status.outcome != Outcome::passed || kind_of.contains(task) || !results.contains(task) ||
            !planned_of.contains(task) || !run.output_files.contains(task))
          continue;
        const PlannedCase& planned = *planned_of.at(task);
        const Step* step = spec.find_step(planned.spec_case.step);
        const auto right = sanitized_outputs_pass(run.output_files.at(task), planned, step->tolerance);
        if (right && note_sanitized_disagreement(*results.at(task), *right, run.tool)) {
          reported.insert(task);
          ++pass.marked;
        }
      }
  }
  // Results that changed between runs were guessed a race or an unset value before the sanitizer
  // ran; what it found in the same step explains them better.
  for (const std::string& task : bad_access)
    if (results.contains(task)) found.bad_access.insert(results.at(task)->step);
  explain_changes_by_findings(cases, found);
  for (const auto& id : ids) {
    const std::string& case_id = results.at(id)->id;
    if (!reported.contains(id) && !missed.contains(id) &&
        std::ranges::find(pass.unchecked, case_id) == pass.unchecked.end())
      pass.clean.push_back(case_id);
  }
  pass.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (!checked.empty()) {
    std::string list;
    for (const auto& tool : tools)
      if (checked.contains(tool)) list += fmt::format("{}{} {:.1f} s", list.empty() ? "" : ", ", tool, checked.at(tool));
    pass.notes.push_back(fmt::format("compute-sanitizer ({}) checked {} case{} in {:.1f} s", list, ids.size(),
                                     ids.size() == 1 ? "" : "s", pass.seconds));
  }
  if (!after_race.empty())
    pass.notes.push_back(fmt::format("racecheck found a race on shared memory, so it checked every case of the step: {}",
                                     fmt::join(after_race, ", ")));
  if (!left_for_alone.empty())
    pass.notes.push_back(fmt::format("racecheck found a race on shared memory beside other submissions; the step's "
                                     "other cases are checked with the GPU alone: {}",
                                     fmt::join(left_for_alone, ", ")));
  if (!slow.empty())
    pass.notes.push_back(fmt::format("compute-sanitizer: not checked, longer than {:g} s under the sanitizer: {}",
                                     spec.limits.sanitizer_timeout_s, fmt::join(slow, ", ")));
  for (const auto& p : problems) pass.notes.push_back("compute-sanitizer could not check the cases (" + p + "); grading went on without it");
  return pass;
}

}  // namespace cugrade
