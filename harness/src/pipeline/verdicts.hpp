#pragma once
// From what the runner left behind (task statuses, output files) to the report's case and
// performance results. The verdict is decided here, in the harness, from the files alone.
#include <optional>
#include <vector>

#include "device/ceilings.hpp"
#include "pipeline/case_plan.hpp"
#include "report/grade_report.hpp"
#include "run/run_job.hpp"

namespace cugrade {

/// The result of one planned case, from its task status and the runner's output files.
CaseResult judge_case(const Spec& spec, const PlannedCase& planned, const CheckTask& task,
                      const TaskStatus& status);

/// The result of one performance target: statistics, the ratio, rates, and whether the timed
/// code still computes the right thing (compared with the reference on a fresh input set).
PerformanceResult judge_timing(const Spec& spec, const PlannedTiming& planned, const TimeTask& task,
                               const TaskStatus& status, const std::optional<Ceilings>& ceilings);

}  // namespace cugrade
