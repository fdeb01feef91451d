#include "check/mistake_match.hpp"

#include <algorithm>
#include <cmath>
#include <exception>

#include "check/compare.hpp"

namespace cugrade {
namespace {

/// True when every element of every array of `arrays` is finite.
bool all_finite(const ArraySet& arrays) {
  for (const auto& [name, array] : arrays)
    for (std::int64_t i = 0; i < array.size(); ++i)
      if (!std::isfinite(array.value(i))) return false;
  return true;
}

/// True when `actual` holds exactly the outputs of `model_outputs` (its slacks aside), each
/// within `tolerance` of the model's.
bool matches(const ArraySet& actual, const ArraySet& model_outputs, const Tolerance& tolerance) {
  std::size_t compared = 0;
  for (const auto& [name, expected] : model_outputs) {
    if (is_slack_name(name)) continue;
    const auto found = actual.find(name);
    if (found == actual.end()) return false;
    const auto slack = model_outputs.find(slack_name(name));
    const auto comparison = compare_array(name, found->second, expected, tolerance, 0,
                                          slack == model_outputs.end() ? nullptr : &slack->second);
    if (!comparison || comparison->wrong > 0) return false;
    ++compared;
  }
  return compared > 0 && compared == actual.size();
}

}  // namespace

const ArraySet& MistakeGolds::outputs(std::size_t index, const MistakeModel& model, const Case& c,
                                      const ArraySet& inputs) {
  // One lock for the whole computation: a second thread asking for this case's models would
  // otherwise make them again; other cases have their own MistakeGolds.
  std::lock_guard lock(mutex_);
  if (const auto found = made_.find(index); found != made_.end()) return found->second;
  ArraySet made;
  try {
    made = model.gold(c, inputs);
  } catch (const std::exception&) {
    made.clear();
  }
  if (!all_finite(made)) made.clear();
  return made_.emplace(index, std::move(made)).first->second;
}

bool applies_to(const MistakeModel& model, const std::string& step) {
  return model.steps.empty() || std::ranges::find(model.steps, step) != model.steps.end();
}

std::string match_mistake(const std::vector<MistakeModel>& models, const Case& c, const ArraySet& inputs,
                          const ArraySet& gold, const ArraySet& actual, const Tolerance& tolerance,
                          MistakeGolds& golds) {
  if (matches(actual, gold, tolerance)) return "";
  for (std::size_t i = 0; i < models.size(); ++i) {
    if (!applies_to(models[i], c.step)) continue;
    const ArraySet& expected = golds.outputs(i, models[i], c, inputs);
    if (!expected.empty() && matches(actual, expected, tolerance)) return models[i].explanation;
  }
  return "";
}

}  // namespace cugrade
