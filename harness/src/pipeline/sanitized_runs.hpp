#pragma once
// Whether a case's run under compute-sanitizer and its run without agree (issue 51): a submission
// can tell a sanitized run by what the runner cannot hide (the sanitizer's libraries in its
// memory map, its threads, a kernel timing itself) and race only when it is not watched. Where the
// two runs of a case disagree, its report says so.
#include <optional>
#include <string>

#include "pipeline/case_plan.hpp"
#include "report/grade_report.hpp"
#include "spec/spec.hpp"

namespace cugrade {

/// Whether the outputs a sanitized run wrote to `output_file` for `planned` meet its gold within
/// `tolerance` (the gold's slack included), as the case's own run is judged; nullopt when they
/// cannot be read or do not have the gold's shape.
std::optional<bool> sanitized_outputs_pass(const std::string& output_file, const PlannedCase& planned,
                                           const Tolerance& tolerance);

/// Gives `result` (its own run judged) what a run of it under `tool` that reported nothing says:
/// when that run's outputs were right (`sanitized_passed`) and the case's were wrong, a sentence
/// saying so (the case stays failed); when they were wrong and the case's right, the case fails
/// as a wrong answer, as two schedules that disagree fail on the CPU backend. Nothing otherwise.
/// Returns whether it changed the result.
bool note_sanitized_disagreement(CaseResult& result, bool sanitized_passed, const std::string& tool);

/// Takes out of `message` the sentence note_sanitized_disagreement adds where the sanitized run was
/// right (and its separator), once something else explains the two runs' disagreement; true when
/// it was there.
bool drop_right_when_sanitized(std::string& message);

}  // namespace cugrade
