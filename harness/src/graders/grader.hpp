#pragma once
// The trusted, per-assignment part of grading: a seeded input generator and a CPU gold in
// double precision. Each graders/<id>/grader.cpp defines one Grader and registers it with
// CUGRADE_REGISTER_GRADER; the harness never runs student code to produce expected values.
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "array_file.hpp"
#include "body_reach.hpp"
#include "core/rng.hpp"
#include "spec/size_rules.hpp"
#include "spec/spec_loader.hpp"
#include "spec/spec.hpp"

namespace cugrade {

/// What one call of a step must move and compute: for GB/s, FLOP/s and the roofline floor.
struct Work {
  double bytes = 0.0;  ///< fewest bytes through device memory (each input read, output written once)
  double flops = 0.0;  ///< floating-point operations (0 for memory-bound steps)
  double items = 0.0;  ///< domain units for the `rate_unit` (e.g. pair interactions); 0 if none
  std::string rate_unit;  ///< "GB/s", "TFLOP/s" or a domain unit ("G interactions/s")
};

/// The inputs of one case, plus the outputs the runner must produce (dtype and shape, content
/// ignored) — the runner allocates and poisons those. An output named like an input is in-out:
/// it starts as that input (of the same dtype and shape) and is compared after the call.
struct CaseData {
  ArraySet inputs;
  ArraySet outputs;
};

/// A mistake students really make, as the output it produces: an alternative gold. A failed
/// case whose outputs all match one is named for what it is (check/mistake_match.hpp).
struct MistakeModel {
  std::string name;         ///< short and stable, for tests and docs ("B transposed")
  std::string explanation;  ///< the case's message when it matches: "your C equals A·Bᵀ: ..."
  std::vector<std::string> steps;  ///< the steps it applies to; empty: every step
  /// The mistake's outputs, in double precision and keyed like Grader::gold (a slack included
  /// where the gold has one); an empty set where the mistake is not defined for the case (it
  /// would read out of bounds, or is the gold itself there).
  std::function<ArraySet(const Case& c, const ArraySet& inputs)> gold;
};

/// Generator + gold + work model of one assignment.
struct Grader {
  std::string assignment;  ///< the spec id it serves
  /// Inputs (and output shapes) of one case, drawn from `rng` (seeded with the case's seed).
  std::function<CaseData(const Case& c, Rng& rng)> generate;
  /// Expected outputs, computed in double precision, keyed like CaseData::outputs; optionally
  /// also "<output>.slack" (check/compare.hpp): per element, an extra allowed error (≥ 0, the
  /// output's shape) for elements that correct kernels may legitimately get otherwise.
  std::function<ArraySet(const Case& c, const ArraySet& inputs)> gold;
  /// Work of one call of `step` at `params`.
  std::function<Work(const std::string& step, const Params& params)> work;
  /// The size parameters generate() and work() read: lint refuses a size missing one, or
  /// naming one the grader does not read.
  SizeParameters parameters;
  /// The mistakes its lecture invites, tried in order on a failed case (the first match names
  /// it); never change a verdict or a point, only the case's message.
  std::vector<MistakeModel> mistakes;
  /// The inputs (of any step) whose every element stays a valid input of the same kind with its
  /// sign flipped on its own: each timed sample flips them by a keyed coin, so that no earlier
  /// output, rotated or negated, is the sample's (runtime/sample_inputs.hpp). Leave out an input
  /// whose values must keep their places relative to each other (bodies placed in pairs).
  std::vector<std::string> sign_free_inputs;
  /// The bodies (positions in the plane, and velocities) each timed sample moves by a keyed amount
  /// within their reach (runtime/body_reach.hpp): for inputs whose elements must keep their places
  /// relative to each other, so that a sample's distances, not only its numbering, are new.
  MovableBodies movable_bodies;
};

/// What lint checks a spec's sizes against (spec/size_rules.hpp): `grader`'s parameters, and
/// its work model's bytes as the data of one call.
SizeRules size_rules(const Grader& grader);

/// The spec of assignment `id` below `assignments_dir`, to grade: checked as lint checks it,
/// its sizes against its registered grader's rules (size_rules), so that a size the grader
/// cannot generate or the machine cannot hold is refused before anything runs, never graded
/// as the student's crash or taken out of the harness's own memory.
Result<Spec> load_assignment_to_grade(const std::filesystem::path& assignments_dir, const std::string& id);

/// Every registered grader.
const std::vector<const Grader*>& all_graders();

/// The grader of `assignment`, or nullptr.
const Grader* find_grader(const std::string& assignment);

/// Adds a grader to the registry (use CUGRADE_REGISTER_GRADER instead).
bool register_grader(const Grader* grader);

}  // namespace cugrade

/// Registers `grader_object` (a namespace-scope `const cugrade::Grader`) at start-up.
#define CUGRADE_REGISTER_GRADER(grader_object) \
  static const bool cugrade_registered_##grader_object = ::cugrade::register_grader(&grader_object)
