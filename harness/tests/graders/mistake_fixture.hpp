#pragma once
// What the grader tests share to check a grader's mistake models: a hand-built wrong output is
// named by the model it was built to show, under the spec's own tolerance.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "check/mistake_match.hpp"
#include "graders/grader.hpp"
#include "spec/spec_loader.hpp"

namespace cugrade::testing {

/// The registered grader of assignment `id` (which must exist).
inline const Grader& registered_grader(const std::string& id) {
  const Grader* grader = find_grader(id);
  REQUIRE(grader != nullptr);
  return *grader;
}

/// The spec of assignment `id`, as the course ships it.
inline Spec shipped_spec(const std::string& id) {
  auto loaded = load_spec(std::filesystem::path(CUGRADE_SOURCE_ROOT) / "assignments" / id / "assignment.yaml");
  REQUIRE_MESSAGE(loaded.has_value(), (loaded ? "" : loaded.error().message));
  return *loaded;
}

/// The explanation of `grader`'s model called `name` (which must exist).
inline std::string explanation_of(const Grader& grader, const std::string& name) {
  for (const MistakeModel& model : grader.mistakes)
    if (model.name == name) return model.explanation;
  FAIL("no mistake model named " << name);
  return "";
}

/// What `grader`'s models say of `actual`, the outputs of case `c` with `inputs`, under the
/// tolerance of `c`'s step in the shipped spec; "" when no model matches.
inline std::string named_mistake(const Grader& grader, const Case& c, const ArraySet& inputs, const ArraySet& actual) {
  const Spec spec = shipped_spec(grader.assignment);
  const Step* step = spec.find_step(c.step);
  REQUIRE(step != nullptr);
  MistakeGolds golds;
  return match_mistake(grader.mistakes, c, inputs, grader.gold(c, inputs), actual, step->tolerance, golds);
}

}  // namespace cugrade::testing
