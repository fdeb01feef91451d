#pragma once
// A neighbour never costs a point (design.md §9). Where several submissions' cases share one GPU
// (gpu_turns.hpp), a neighbour can take the GPU's memory, flood it with work until a case runs
// past its time limit, or start a CUDA context that clears the shared memory a runner poisoned.
// So in a graded batch every case that did not pass beside others (a wrong answer, a timeout, a
// crash, a CUDA error, a sanitizer's finding) is run again with the GPU alone, through every
// stage its first run went through (the run, shared memory starting as 0x00, compute-sanitizer:
// unless the sanitizer checked the case beside others and found nothing, which cost no point),
// and the run alone is the one that counts; the report's note names each case run again alone and
// what it got beside others (in the JSON record and every rendering of it).
#include <filesystem>
#include <string>
#include <vector>

#include "pipeline/case_plan.hpp"
#include "process/process_runner.hpp"
#include "report/grade_report.hpp"
#include "run/run_job.hpp"
#include "spec/spec.hpp"

namespace cugrade {

/// The runner knows cases by neutral ids ("case-3"); a message that names one is made to name it
/// as the student knows it ("an earlier case of this step timed out (fast/n=5/seed=1)").
void name_cases_in_messages(RunOutcome& ran, const CasePlan& plan);

/// The indices of the cases that did not pass, and of those named in `unchecked` (ids of cases
/// compute-sanitizer could not check: SanitizerPass::unchecked): those run again alone.
std::vector<std::size_t> cases_not_passed(const std::vector<CaseResult>& cases,
                                          const std::vector<std::string>& unchecked = {});

/// `plan` cut down to its cases at `indices` (in that order): the same inputs and gold, no
/// timing; the student's tasks writing into `dir`, the reference's into `reference_dir`.
CasePlan plan_of_cases(const CasePlan& plan, const std::vector<std::size_t>& indices,
                       const std::filesystem::path& dir, const std::filesystem::path& reference_dir);

/// The stages a check's cases went through on the GPU, to go through again alone.
struct CaseStages {
  bool zero_poison = false;                 ///< the run again with shared memory starting as 0x00
  std::filesystem::path sanitizer;          ///< compute-sanitizer; empty: no sanitizer's pass
  std::vector<std::string> tools;           ///< its tools (sanitizer_tools)
  std::vector<std::string> source_names;    ///< the student's names of the submission's files
  /// Cases (CaseResult::id) the sanitizer checked beside others and found nothing in
  /// (SanitizerPass::clean): run again alone without it, since that check cost no point.
  std::vector<std::string> sanitized_clean = {};
};

/// What the run alone did, for the report's notes and the stage times.
struct AloneRerun {
  std::vector<std::size_t> cases;  ///< the indices of the cases run again alone
  std::vector<std::string> beside_others;  ///< what each of them got beside others ("timeout")
  double seconds = 0.0;
  std::vector<std::string> notes;  ///< the line that says so, then the sanitizer's pass's notes
};

/// Runs every case of `cases` that did not pass, or that compute-sanitizer could not check
/// (`unchecked`, by id), judged from `plan`, run by `run`, the reference's tasks by
/// `reference_runner`, again through `stages`, in work folders of their own ("alone" below the
/// runner's and the reference's), and replaces each with its result alone. Call it holding the
/// GPU alone.
AloneRerun run_again_alone(ProcessRunner& processes, const Spec& spec, const CasePlan& plan, const RunRequest& run,
                           const std::filesystem::path& reference_runner, const CaseStages& stages,
                           std::vector<CaseResult>& cases, const std::vector<std::string>& unchecked = {});

/// The report's note on the cases at `indices` of `cases`, run again alone after getting
/// `beside_others` ("2 cases (step tiled) did not pass beside other submissions on the GPU and were
/// run again with the GPU alone; the runs alone count: tiled/n=40 (beside others: wrong_answer),
/// and 1 hidden"); empty when none was. A hidden case is counted, never named.
std::string alone_rerun_note(const std::vector<CaseResult>& cases, const std::vector<std::size_t>& indices,
                             const std::vector<std::string>& beside_others);

}  // namespace cugrade
