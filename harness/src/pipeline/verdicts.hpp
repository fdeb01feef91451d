#pragma once
// From what the runner left behind (task statuses, output files) to the report's case and
// performance results. The verdict is decided here, in the harness, from the files alone.
#include <optional>
#include <vector>

#include "device/ceilings.hpp"
#include "pipeline/case_plan.hpp"
#include "report/grade_report.hpp"
#include "run/lockstep_timing.hpp"
#include "run/run_job.hpp"

namespace cugrade {

/// The result of one planned case, from its task status and the runner's output files.
CaseResult judge_case(const Spec& spec, const PlannedCase& planned, const CheckTask& task,
                      const TaskStatus& status);

/// judge_case for every case of `plan`, by its status in `ran`, in the plan's order, on several
/// threads (reading, comparing and explaining outputs is CPU work that a batch does on a GPU
/// lane: a wrong transpose submission's 52 cases took a second on one core).
std::vector<CaseResult> judge_cases(const Spec& spec, const CasePlan& plan, const RunOutcome& ran);

/// The result of one performance target from its lock-step timing: statistics, the ratio, rates,
/// and whether every timed call computed the right thing (digests, every element where the
/// tolerance is exact; elsewhere the last call also in full).
PerformanceResult judge_timing(const Spec& spec, const PlannedTiming& planned, const TimeTask& task,
                               const TimingOutcome& timed, const std::optional<Ceilings>& ceilings);

}  // namespace cugrade
