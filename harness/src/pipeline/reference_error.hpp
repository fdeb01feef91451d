#pragma once
// `cugrade lint --measure-tolerance`: the reference's own error against the gold, per step and
// size, as the share of the step's tolerance it uses (issue 51: a tolerance is set from the
// step's own FP32 error, with a margin, so that arithmetic of lower precision fails).
#include <string>
#include <vector>

#include "core/result.hpp"
#include "pipeline/check_submission.hpp"
#include "spec/measured_error.hpp"

namespace cugrade {

/// The largest |x − y| / (atol + rtol·|y|) over the elements of `actual` against `expected`
/// (same size), and the largest |x − y|: how much of `tolerance` an output uses (1: at its
/// limit). Elements the grader's `slack` (may be null) gives room are left out: their error is
/// a decision at a cutoff, not rounding. An element not finite in `actual` counts as infinitely
/// wrong; an element whose allowance is 0 counts only when it differs (then infinitely).
struct ToleranceUse {
  double share = 0.0;
  double max_abs_error = 0.0;
};
ToleranceUse tolerance_use(const Array& actual, const Array& expected, const Tolerance& tolerance,
                           const Array* slack = nullptr);

/// Runs the reference of `spec` (every step, the reference-only ones too, and every case: the
/// hidden groups with a fixed secret of the measurement's own, so that their sizes are measured,
/// and each performance target's size, where the verification after timing uses the tolerance) on
/// `options.backend` and measures each case's outputs against the gold: per step and size, the
/// largest share of its tolerance any output used. Fails when the reference did not build, or a
/// case of it did not pass (a tolerance can only be measured on a reference that meets it).
Result<MeasuredBackend> measure_reference_error(const CheckContext& context, const Spec& spec,
                                                const Grader& grader, CheckOptions options);

}  // namespace cugrade
