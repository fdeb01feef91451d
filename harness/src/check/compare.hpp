#pragma once
// The element-wise comparison of one output array against its gold (design.md §6), in the
// harness: the runner's word decides nothing.
#include <cstddef>
#include <string>

#include "array_file.hpp"
#include "core/result.hpp"
#include "report/grade_report.hpp"
#include "spec/spec.hpp"

namespace cugrade {

/// The name under which a gold may carry the per-element slack of output `output`:
/// "<output>.slack" (Grader::gold). Never the name of an output itself.
std::string slack_name(const std::string& output);

/// True when `name` names a slack array ("X.slack"), not an output.
bool is_slack_name(const std::string& name);

/// Compares one output array against its gold: |x − y| ≤ atol + rtol·|expected| per element;
/// NaN/Inf in the actual output never pass (a non-finite gold is a harness bug: throws
/// std::logic_error); when either side has an integer dtype the values must be equal exactly.
/// Fills count, nonfinite, max errors (over finite elements; the relative one skips zero gold),
/// the first `max_listed` mismatches in index order with coords ((row, col) for 2-D, (i) for 1-D),
/// and the pattern line. Fails (a protocol problem: the runner wrote the wrong thing) when the
/// shapes differ, or the actual array's storage does not match its shape and dtype; the gold and
/// the actual output may have different dtypes (a float output is checked against a double gold).
/// With `slack` (the gold's "<name>.slack": expected's shape, finite values ≥ 0, else a harness
/// bug: throws std::logic_error), element i may also differ by slack[i] more: the grader's word on
/// elements that correct kernels may legitimately get otherwise (e.g. an N-body pair within
/// rounding of a cutoff). Without it, or where it is 0, the comparison is exactly the above.
/// `launched_threads`: the most threads one launch of the call had, where the runner saw it (0:
/// unknown); only the pattern's words use it (MismatchMask::launched_threads).
Result<Comparison> compare_array(const std::string& name, const Array& actual, const Array& expected,
                                 const Tolerance& tol, std::size_t max_listed = 5,
                                 const Array* slack = nullptr, std::int64_t launched_threads = 0);

}  // namespace cugrade
