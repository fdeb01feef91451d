#pragma once
// Race detection on the CPU backend by two schedules. The executor runs a block's threads (and
// takes its blocks) first to last, or last to first under CUGRADE_CPU_SCHEDULE=reverse. A correct
// kernel writes the same bytes either way; a race (a missing __syncthreads(), a read of a value
// another thread has not written yet) gives outputs that depend on that order. So the pipeline
// runs the finished check tasks a second time in reverse order and compares the output files.
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "job.hpp"
#include "report/grade_report.hpp"
#include "run/run_job.hpp"

namespace cugrade {

/// The environment variable the CPU executor reads its schedule from ("forward" or "reverse").
inline constexpr const char* schedule_variable = "CUGRADE_CPU_SCHEDULE";

/// What a case whose outputs changed with the schedule is told (also appended to a failure).
inline constexpr const char* schedule_race_message =
    "results change when the order of threads changes: a race (e.g. a missing __syncthreads()) — "
    "schedule forward and reverse gave different outputs";

/// The job of the second run: the check tasks of `job` that finished in `ran` (no timing tasks),
/// each writing its outputs and readback under `dir` instead, so both runs' files survive.
Job rerun_job(const Job& job, const RunOutcome& ran, const std::filesystem::path& dir);

/// Whether two output files differ byte for byte; false when either cannot be read (then the
/// run that lost it already has a verdict saying so).
bool outputs_differ(const std::filesystem::path& first, const std::filesystem::path& second);

/// Ids of the check tasks that finished in both runs and whose output files differ.
std::vector<std::string> schedule_dependent_tasks(const Job& first, const RunOutcome& first_ran,
                                                  const Job& second, const RunOutcome& second_ran);

/// Marks a case whose outputs changed with the schedule: a pass becomes wrong_answer with
/// schedule_race_message; any other outcome keeps its kind and gets the sentence appended.
void mark_schedule_race(CaseResult& result);

/// The second run: the check tasks of `first` that finished in `ran`, again under the reverse
/// schedule (files under first.work_dir/"reverse"); every case of `cases` whose outputs changed
/// is marked with mark_schedule_race(). Returns how many were.
std::size_t check_schedule_races(ProcessRunner& processes, const RunRequest& first, const RunOutcome& ran,
                                 std::vector<CaseResult>& cases);

}  // namespace cugrade
