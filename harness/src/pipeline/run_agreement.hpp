#pragma once
// Whether two runs of the same case (the CPU backend's schedules and shared-memory poisons) gave
// the same answer. "The same" is the step's tolerance, not the same bytes: a correct kernel that
// adds floats with atomicAdd rounds differently when its threads run in another order, and
// both results are right (docs/cpu-backend.md, "Races: two schedules").
#include <string>

#include "report/grade_report.hpp"
#include "spec/spec.hpp"

namespace cugrade {

/// Whether the output files `first` and `second` hold the same arrays, element by element
/// within |x − y| ≤ atol + rtol·|x| (x from `first`); bit-identical elements always agree
/// (NaN included), integers must be equal. Unreadable files agree: the run that lost its
/// file already has a verdict saying so.
bool outputs_agree(const std::string& first, const std::string& second, const Tolerance& tolerance);

/// Whether two judged runs of one case disagree: one passed and the other did not, their
/// outcomes differ, or both were wrong answers whose outputs do not agree (outputs_agree).
bool runs_disagree(const CaseResult& first, const std::string& first_output, const CaseResult& second,
                   const std::string& second_output, const Tolerance& tolerance);

}  // namespace cugrade
