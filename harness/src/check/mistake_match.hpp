#pragma once
// Names a wrong output for what it is (design.md §6, "Mistake models"): a grader's mistake
// models are alternative golds (Grader::mistakes); a failed case whose every output matches one
// within the step's tolerance gets that model's explanation as its message. A model is only
// tried on a case that failed, so a match can never be the gold itself.
#include <cstddef>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "array_file.hpp"
#include "graders/grader.hpp"
#include "spec/spec.hpp"

namespace cugrade {

/// The golds of one case's mistake models, each made on first use and kept (a batch judges many
/// submissions on the same case); safe to share between threads.
class MistakeGolds {
 public:
  /// Model `index`'s outputs for case `c` and `inputs`; an empty set where it does not apply to
  /// the case: it gives none, throws (e.g. the N-body simulation's guard against pairs near the
  /// cutoff), or gives a value that is not finite (a gold never may: check/compare.hpp).
  const ArraySet& outputs(std::size_t index, const MistakeModel& model, const Case& c, const ArraySet& inputs);

 private:
  std::mutex mutex_;
  std::map<std::size_t, ArraySet> made_;
};

/// True when `model` applies to `step` (its steps name it, or it names none).
bool applies_to(const MistakeModel& model, const std::string& step);

/// The explanation of the first of `models` that applies to `c`'s step and whose outputs all
/// match `actual` (same names, every element within `tolerance` by compare_array, with the
/// model's own "<output>.slack" where it gives one); "" when none does, and "" when `actual`
/// matches `gold` (the case's own, slack included): a model equal to the gold at some size (a
/// leading dimension where N = K) names nothing. Golds come from, and go into, `golds`.
std::string match_mistake(const std::vector<MistakeModel>& models, const Case& c, const ArraySet& inputs,
                          const ArraySet& gold, const ArraySet& actual, const Tolerance& tolerance,
                          MistakeGolds& golds);

}  // namespace cugrade
