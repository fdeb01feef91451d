#include "pipeline/schedule_race.hpp"

#include <algorithm>
#include <fstream>
#include <optional>
#include <sstream>

#include "check/index_evidence.hpp"
#include "launch_tracking.hpp"
#include "pipeline/run_agreement.hpp"
#include "pipeline/sentences.hpp"
#include "pipeline/verdicts.hpp"

namespace cugrade {
namespace fs = std::filesystem;

namespace {

bool finished(const RunOutcome& ran, const std::string& id) {
  const auto it = ran.tasks.find(id);
  return it != ran.tasks.end() && it->second.outcome == Outcome::passed;
}

CheckTask moved_to(const CheckTask& task, const fs::path& dir) {
  CheckTask again = task;
  again.output_file = (dir / fs::path(task.output_file).filename()).string();
  again.readback_file = (dir / fs::path(task.readback_file).filename()).string();
  return again;
}

/// Appends `sentence` to a failure, or turns a pass into a wrong answer that says it.
void mark(CaseResult& result, const std::string& sentence) {
  if (result.outcome == Outcome::passed) {
    result.outcome = Outcome::wrong_answer;
    result.message = sentence;
  } else {
    append_sentence(result.message, sentence);
  }
}

/// One more run of `job` in `first`'s runner, in a folder of its own, under `schedule` and `poison`.
/// Why a folder of its own: the runner appends to its event file, and run_job names those files
/// by attempt, so a run in the same folder would read the earlier run's events as its own.
struct Rerun {
  RunRequest request;
  RunOutcome ran;
};
Rerun rerun(ProcessRunner& processes, const RunRequest& first, const fs::path& dir, Job job,
            const char* schedule, const char* poison, const std::optional<fs::path>& log = std::nullopt) {
  Rerun r{first, {}};
  r.request.work_dir = dir;
  r.request.job = std::move(job);
  r.request.environment[schedule_variable] = schedule;
  r.request.environment[poison_variable] = poison;
  if (log) r.request.environment[shared_log_variable] = log->string();
  r.ran = run_job(processes, r.request);
  return r;
}

/// One case of run 1, as planned and judged.
struct FirstRun {
  const PlannedCase* planned;
  const CheckTask* task;
  CaseResult* result;
  const Tolerance* tolerance;
};

/// Run 1's cases that a rerun may repeat (the reference's own cases, reference-only steps, ran in
/// the reference runner and are not), by task id.
std::map<std::string, FirstRun> first_runs(const Spec& spec, const CasePlan& plan, std::vector<CaseResult>& cases) {
  std::map<std::string, FirstRun> runs;
  for (std::size_t i = 0; i < plan.cases.size() && i < plan.job.checks.size(); ++i) {
    const CheckTask& task = plan.job.checks[i];
    if (task.reference) continue;
    const auto result = std::ranges::find(cases, plan.cases[i].spec_case.id, &CaseResult::id);
    const Step* step = spec.find_step(task.step);
    // A case whose wrong index sends several elements to one place (check/index_evidence.hpp) is
    // already told why its result changes from run to run: no barrier is missing.
    const bool collides = result != cases.end() && std::ranges::any_of(result->comparisons, [](const Comparison& c) {
      return c.pattern.find(stores_collide) != std::string::npos;
    });
    if (result != cases.end() && step && !collides)
      runs[task.id] = FirstRun{&plan.cases[i], &task, &*result, &step->tolerance};
  }
  return runs;
}

}  // namespace

bool mentions_shared_memory(std::string_view source_text) {
  return source_text.find("__shared__") != std::string_view::npos;
}

bool mentions_shared_memory(const std::vector<fs::path>& sources) {
  for (const auto& file : sources) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (mentions_shared_memory(text.str())) return true;
  }
  return false;
}

Job rerun_job(const Job& job, const RunOutcome& ran, const fs::path& dir) {
  Job rerun;
  for (const CheckTask& task : job.checks) {
    // Only what ran to its end is worth repeating: a crash or a hang already has its verdict,
    // and skipping it keeps the second run from paying for the same timeout twice.
    if (finished(ran, task.id)) rerun.checks.push_back(moved_to(task, dir));
  }
  return rerun;
}

Job rerun_job(const Job& job, const std::vector<std::string>& ids, const fs::path& dir) {
  Job rerun;
  for (const CheckTask& task : job.checks)
    if (std::ranges::find(ids, task.id) != ids.end()) rerun.checks.push_back(moved_to(task, dir));
  return rerun;
}

void mark_schedule_race(CaseResult& result) { mark(result, schedule_race_message); }

namespace {
/// What follows the declarations in mark_uninitialised_shared's sentence.
constexpr std::string_view uninitialised_shared_tail =
    ": results change when shared memory starts with other contents (every byte 0xFF, then 0x00), so a value is "
    "read before any thread of its block wrote it — initialise it first, or add the __syncthreads() that must "
    "separate the writes from the reads";
}  // namespace

void mark_uninitialised_shared(CaseResult& result, const std::string& where) {
  mark(result, std::string(uninitialised_shared_message) + where + std::string(uninitialised_shared_tail));
}

bool replace_uninitialised_shared(std::string& message, std::string_view replacement) {
  const auto from = message.find(uninitialised_shared_message);
  if (from == std::string::npos) return false;
  const auto tail = message.find(uninitialised_shared_tail, from);
  if (tail == std::string::npos) return false;
  message.replace(from, tail + uninitialised_shared_tail.size() - from, replacement);
  return true;
}

std::string describe_shared_use(const fs::path& log) {
  // The log comes from the student's process: only a bounded, well-formed part of it is used.
  std::ifstream in(log);
  std::vector<std::pair<std::string, std::string>> uses;  // launch, declaration; in order
  std::string line;
  for (int lines = 0; lines < 64 && std::getline(in, line); ++lines) {
    const auto tab = line.find('\t');
    if (tab == std::string::npos || line.size() > 300) continue;
    std::pair<std::string, std::string> use{line.substr(0, tab), line.substr(tab + 1)};
    if (std::ranges::find(uses, use) == uses.end()) uses.push_back(std::move(use));
  }
  std::vector<std::string> declarations;
  const std::string unnamed = "extern __shared__ memory of kernel ";
  for (const auto& [launch, declaration] : uses) {
    // A launch's dynamic shared memory (noted at each block start) only when nothing the kernel
    // declares was noted: a named declaration says more, and a kernel given dynamic shared
    // memory it never declares is not reading it.
    const bool named = std::ranges::any_of(uses, [&](const auto& other) {
      return other.first == launch && !other.second.starts_with(unnamed);
    });
    if (named && declaration.starts_with(unnamed)) continue;
    if (std::ranges::find(declarations, declaration) == declarations.end()) declarations.push_back(declaration);
  }
  if (declarations.empty()) return "";
  if (declarations.size() == 1) return " (" + declarations[0] + ")";
  std::string out = " (one of: ";
  for (std::size_t i = 0; i < declarations.size() && i < 4; ++i) out += (i ? "; " : "") + declarations[i];
  return out + (declarations.size() > 4 ? "; ...)" : ")");
}

std::size_t check_schedule_races(ProcessRunner& processes, const Spec& spec, const CasePlan& plan,
                                 const RunRequest& first, const RunOutcome& ran, std::vector<CaseResult>& cases) {
  const std::map<std::string, FirstRun> runs = first_runs(spec, plan, cases);
  Job second_job = rerun_job(first.job, ran, first.work_dir / "reverse");
  std::erase_if(second_job.checks, [&](const CheckTask& t) { return !runs.contains(t.id); });
  if (second_job.checks.empty()) return 0;
  fs::create_directories(first.work_dir / "reverse");
  const Rerun second = rerun(processes, first, first.work_dir / "reverse", std::move(second_job), "reverse", "00");

  // Where runs 1 and 2 disagree, by step: run 3 tells the poison from the order.
  std::map<std::string, CaseResult> second_results;
  std::map<std::string, std::vector<std::string>> suspects;
  for (const CheckTask& task : second.request.job.checks) {
    const FirstRun& one = runs.at(task.id);
    CaseResult two = judge_case(spec, *one.planned, task, second.ran.tasks.at(task.id));
    if (!runs_disagree(*one.result, one.task->output_file, two, task.output_file, *one.tolerance)) continue;
    second_results[task.id] = std::move(two);
    suspects[task.step].push_back(task.id);
  }
  std::size_t marked = 0, folder = 0;
  for (const auto& [step, ids] : suspects) {
    const fs::path dir = first.work_dir / ("poison-" + std::to_string(folder++));
    fs::create_directories(dir);
    const Rerun third = rerun(processes, first, dir, rerun_job(first.job, ids, dir), "forward", "00", dir / "shared.log");
    const std::string where = describe_shared_use(dir / "shared.log");
    // Where the kernels declare no shared memory, a launch's blocks still run side by side on
    // several CPU threads: a result that changed with the order may have changed with their timing.
    std::map<std::string, std::pair<CaseResult, std::string>> order_suspects;  // run 3's result and output
    for (const CheckTask& task : third.request.job.checks) {
      const FirstRun& one = runs.at(task.id);
      const CaseResult three = judge_case(spec, *one.planned, task, third.ran.tasks.at(task.id));
      const CheckTask& task_two = *std::ranges::find(second.request.job.checks, task.id, &CheckTask::id);
      const bool one_three = runs_disagree(*one.result, one.task->output_file, three, task.output_file, *one.tolerance);
      // Shared memory is the only thing runs 1 and 3 start differently; where the step's kernels
      // declare none (describe_shared_use: ""), runs in the same order that disagree read
      // something else no one set, and say nothing about the order.
      if (one_three && where.empty()) {
        mark(*one.result, unsteady_message);
      } else {
        // Neither cause alone: the result changed from run to run with nothing else changed.
        const bool race = !one_three || runs_disagree(three, task.output_file, second_results.at(task.id),
                                                      task_two.output_file, *one.tolerance);
        if (one_three) mark_uninitialised_shared(*one.result, where);
        if (race && !one_three && where.empty()) order_suspects.emplace(task.id, std::pair{three, task.output_file});
        else if (race) mark_schedule_race(*one.result);
      }
      ++marked;
    }
    if (order_suspects.empty()) continue;
    // Run 3 again: a result that changes between two runs alike in everything is not the order's.
    std::vector<std::string> again_ids;
    for (const auto& [id, seen] : order_suspects) again_ids.push_back(id);
    const fs::path again = first.work_dir / ("again-" + std::to_string(folder - 1));
    fs::create_directories(again);
    const Rerun fourth = rerun(processes, first, again, rerun_job(first.job, again_ids, again), "forward", "00");
    for (const CheckTask& task : fourth.request.job.checks) {
      const FirstRun& one = runs.at(task.id);
      const auto& [three, three_output] = order_suspects.at(task.id);
      const CaseResult four = judge_case(spec, *one.planned, task, fourth.ran.tasks.at(task.id));
      const bool finished = four.outcome == Outcome::passed || four.outcome == Outcome::wrong_answer;
      if (finished && runs_disagree(three, three_output, four, task.output_file, *one.tolerance))
        mark(*one.result, unsteady_message);
      else
        mark(*one.result, global_order_race_message);
    }
  }
  return marked;
}

std::vector<CheckTask> zero_poison_repeats(const Job& job, const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);  // one that cannot be made fails the repeats' writes: no verdict from them
  std::vector<CheckTask> repeats;
  for (const CheckTask& task : job.checks) {
    if (task.reference) continue;  // ran in the reference runner
    CheckTask again = moved_to(task, dir);
    again.id = task.id + std::string(zero_repeat_suffix);
    again.shared_poison = "00";
    again.repeats = task.id;
    repeats.push_back(std::move(again));
  }
  return repeats;
}

RunOutcome take_repeats(RunOutcome& ran) {
  RunOutcome second;
  for (auto it = ran.tasks.begin(); it != ran.tasks.end();) {
    if (it->first.ends_with(zero_repeat_suffix)) {
      second.tasks[it->first.substr(0, it->first.size() - zero_repeat_suffix.size())] = std::move(it->second);
      it = ran.tasks.erase(it);
    } else {
      ++it;
    }
  }
  return second;
}

std::size_t check_uninitialised_shared_on_gpu(ProcessRunner& processes, const Spec& spec, const CasePlan& plan,
                                              const RunRequest& first, const RunOutcome& ran,
                                              const RunOutcome& second, std::vector<CaseResult>& cases) {
  const std::map<std::string, FirstRun> runs = first_runs(spec, plan, cases);
  // The ids of a rerun's cases whose results, judged, disagree with run 1's (a case the rerun
  // never ran says nothing).
  const auto disagreeing = [&](const Rerun& again) {
    std::vector<std::string> ids;
    for (const CheckTask& task : again.request.job.checks) {
      const FirstRun& one = runs.at(task.id);
      const auto status = again.ran.tasks.find(task.id);
      if (status == again.ran.tasks.end() || status->second.skipped) continue;
      const CaseResult result = judge_case(spec, *one.planned, task, status->second);
      if (runs_disagree(*one.result, one.task->output_file, result, task.output_file, *one.tolerance))
        ids.push_back(task.id);
    }
    return ids;
  };
  const fs::path zero_dir = first.work_dir / "poison-00", again_dir = first.work_dir / "poison-ff";
  std::vector<std::string> twice;  // finished in run 1 and run again in run 2
  for (const auto& [id, status] : second.tasks)
    if (runs.contains(id) && finished(ran, id) && !status.skipped) twice.push_back(id);
  if (twice.empty()) return 0;
  Rerun zero{first, second};
  zero.request.work_dir = zero_dir;
  zero.request.job = rerun_job(first.job, twice, zero_dir);
  const std::vector<std::string> suspects = disagreeing(zero);
  if (suspects.empty()) return 0;
  fs::create_directories(again_dir);
  // Run 3 also notes whether each case's kernels used shared memory: where none did, the change
  // came from a register no one set (the poison kernel leaves its byte there too).
  RunRequest noting = first;
  noting.environment[runner::note_shared_memory_variable] = "1";
  const Rerun again = rerun(processes, noting, again_dir, rerun_job(first.job, suspects, again_dir), "forward", "ff");
  const std::vector<std::string> unsteady = disagreeing(again);
  std::size_t marked = 0;
  for (const CheckTask& task : again.request.job.checks) {
    const auto status = again.ran.tasks.find(task.id);
    if (status == again.ran.tasks.end() || status->second.skipped) continue;
    CaseResult& result = *runs.at(task.id).result;
    const bool changed_again = std::ranges::find(unsteady, task.id) != unsteady.end();
    if (status->second.shared_memory == "no") mark(result, changed_again ? gpu_global_race_message : gpu_unset_value_message);
    else if (changed_again) mark(result, gpu_unsteady_message);
    else mark_uninitialised_shared(result, "");
    ++marked;
  }
  return marked;
}

namespace {

/// The sentences that guess why results changed between runs (replace_change_guesses).
constexpr std::string_view change_guesses[] = {unsteady_message, gpu_unsteady_message, gpu_unset_value_message,
                                               gpu_global_race_message};

}  // namespace

bool says_results_change_between_runs(std::string_view message) {
  return message.find("results change between") != std::string_view::npos ||
         message.find("results change when the order of threads") != std::string_view::npos;
}

bool has_change_guess(std::string_view message) {
  return std::any_of(std::begin(change_guesses), std::end(change_guesses),
                     [&](std::string_view guess) { return message.find(guess) != std::string_view::npos; });
}

bool replace_change_guesses(std::string& message, std::string_view replacement) {
  bool said = false;
  for (const std::string_view guess : change_guesses) {
    const auto at = message.find(guess);
    if (at == std::string::npos) continue;
    // Said once: a second guess in the same message goes with its separator.
    if (said) {
      erase_sentence(message, at, at + guess.size());
    } else {
      message.replace(at, guess.size(), replacement);
      said = true;
    }
  }
  return said;
}

}  // namespace cugrade
