// The grader registry and what lint learns from a grader (harness/src/graders/grader.cpp).
#include "graders/grader.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <map>
#include <set>

#include "spec/lint.hpp"
#include "spec/scratch_spec.hpp"

namespace cugrade {

TEST_CASE("graders::size_rules") {
  SUBCASE("every grader declares the parameters its sizes need") {
    REQUIRE_FALSE(all_graders().empty());
    for (const Grader* grader : all_graders()) {
      CAPTURE(grader->assignment);
      CHECK_FALSE(grader->parameters.required.empty());
    }
  }
  SUBCASE("the bytes are the work model's") {
    const Grader* matmul = find_grader("matmul");
    REQUIRE(matmul != nullptr);
    const SizeRules rules = size_rules(*matmul);
    CHECK(rules.assignment == "matmul");
    const Params size{{"M", 3}, {"N", 5}, {"K", 7}};
    CHECK(rules.bytes("naive", size) == matmul->work("naive", size).bytes);
  }
  SUBCASE("every real assignment lints clean against its grader") {
    const std::filesystem::path assignments = std::filesystem::path(CUGRADE_SOURCE_ROOT) / "assignments";
    for (const Grader* grader : all_graders()) {
      CAPTURE(grader->assignment);
      const SizeRules rules = size_rules(*grader);
      CHECK(lint_spec_file(assignments / grader->assignment / "assignment.yaml", &rules) ==
            std::vector<std::string>{});
    }
  }
  SUBCASE("a size vecadd's grader cannot read") {
    const Grader* vecadd = find_grader("vecadd");
    REQUIRE(vecadd != nullptr);
    const SizeRules rules = size_rules(*vecadd);
    const test::ScratchSpec file(
        "id: vecadd\ntitle: t\nsteps: [{name: naive, entry: vec_add}]\ncases: [{sizes: [{N: 4}]}]\n");
    CHECK(lint_spec_file(file.path(), &rules) ==
          std::vector<std::string>{
              file.path() + ":4:18: size 1 of case group 1 has no 'n' (the vecadd grader needs n)",
              file.path() + ":4:19: unknown parameter 'N' in size 1 of case group 1; did you mean "
                            "'n'? (the vecadd grader reads n)"});
  }
  SUBCASE("nbody's own conditions on a size: nt below NT") {
    const Grader* nbody = find_grader("nbody");
    REQUIRE(nbody != nullptr);
    const SizeRules rules = size_rules(*nbody);
    CHECK_THROWS_WITH_AS(rules.bytes("accel_global", {{"N", 4}, {"NT", 2}, {"nt", 2}}),
                         "nbody case N=4,NT=2,nt=2 needs nt < NT (step nt writes row nt)",
                         std::invalid_argument);
  }
}

TEST_CASE("graders::load_assignment_to_grade") {
  SUBCASE("a size lint refuses is refused for grading too, before anything runs") {
    // 2^40 floats: the harness would hold terabytes for its inputs and gold.
    const test::ScratchSpec file(
        "id: vecadd\ntitle: t\nsteps: [{name: naive, entry: vec_add}]\ncases: [{sizes: [{n: 4}, {n: 1099511627776}]}]\n");
    const std::filesystem::path assignments = std::filesystem::path(file.path()).parent_path().parent_path();
    CHECK(load_assignment(assignments, "vecadd").has_value());  // the spec alone says nothing of memory
    const auto graded = load_assignment_to_grade(assignments, "vecadd");
    REQUIRE_FALSE(graded.has_value());
    CHECK(graded.error().message.starts_with(file.path() + ":4:"));
    CHECK(graded.error().message.find("size 2 of case group 1 needs at least") != std::string::npos);
  }
  SUBCASE("a valid spec loads as it does without its grader; an unknown id says so") {
    const test::ScratchSpec file(std::string(test::minimal_vecadd_spec));
    const std::filesystem::path assignments = std::filesystem::path(file.path()).parent_path().parent_path();
    const auto graded = load_assignment_to_grade(assignments, "vecadd");
    REQUIRE(graded.has_value());
    CHECK(graded->cases.size() == 1);
    const auto unknown = load_assignment_to_grade(assignments, "vecad");
    REQUIRE_FALSE(unknown.has_value());
    CHECK(unknown.error().message.starts_with("unknown assignment 'vecad'"));
  }
}

TEST_CASE("graders::sign_free_inputs") {
  // A timed sample flips each element of these on its own (runtime/sample_inputs.hpp): each must
  // be an input the grader makes, whose values it draws with both signs.
  const std::filesystem::path assignments = std::filesystem::path(CUGRADE_SOURCE_ROOT) / "assignments";
  for (const Grader* grader : all_graders()) {
    CAPTURE(grader->assignment);
    const auto spec = load_assignment_to_grade(assignments, grader->assignment);
    REQUIRE(spec.has_value());
    std::set<std::string> made, timed_with_sign_free, negative, positive;
    std::map<std::string, int> generated;  // cases generated per step: the first few (the smallest may hold one element)
    for (const Case& c : expand_cases(*spec, std::nullopt)) {
      if (++generated[c.step] > 4) continue;
      Rng rng(c.seed);
      const CaseData data = grader->generate(c, rng);
      for (const std::string& name : grader->sign_free_inputs) {
        const auto it = data.inputs.find(name);
        if (it == data.inputs.end()) continue;
        made.insert(name);
        timed_with_sign_free.insert(c.step);
        for (std::int64_t i = 0; i < it->second.size(); ++i) {
          if (it->second.value(i) < 0) negative.insert(name);
          if (it->second.value(i) > 0) positive.insert(name);
        }
      }
    }
    for (const std::string& name : grader->sign_free_inputs) {
      CAPTURE(name);
      CHECK(made.contains(name));
      CHECK(negative.contains(name));
      CHECK(positive.contains(name));
    }
    // A rotation and a negation leave a sum two values and make a transposed or added array a
    // rotated copy of an earlier one: these must flip signs in every timed step.
    if (grader->assignment == "reduction" || grader->assignment == "transpose" || grader->assignment == "vecadd")
      for (const PerformanceTarget& target : spec->performance) {
        CAPTURE(target.step);
        CHECK(timed_with_sign_free.contains(target.step));
      }
    // nbody's bodies are placed in pairs and kept out of a band around the cutoff: none.
    if (grader->assignment == "nbody") CHECK(grader->sign_free_inputs.empty());
  }
}

}  // namespace cugrade
